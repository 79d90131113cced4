import type { ChangedFile } from "../../domain/pull-request.js";
import type { Severity } from "../../domain/finding.js";
import { ALL_GRAMMARS, type SyntaxLanguage } from "../code/grammars.js";
import { grammarReader } from "../code/syntax-tree.js";
import type { Detector } from "../detector.js";
import { codeChanges } from "./file-kind.js";
import { lineFindings } from "./security-finding.js";

/** The languages the line-by-line security detectors read by what the code does: every grammar. */
export const CODE_LANGUAGES = grammarReader(ALL_GRAMMARS);

/** What a line-by-line security detector reports, beside the lines themselves. */
export interface LineDetectorSpec {
  id: string;
  policy: string;
  severity: Severity;
  blocking: boolean;
}

/**
 * A code detector that reads every changed code file (`codeChanges`) and reports one finding per
 * line its `find` names (line → message): the loop and the tail the injection, weak-crypto and
 * unsafe-deserialization detectors share. `lang` is the file's parsed language, if a grammar reads it.
 *
 * @example codeLineDetector({ id: "weak-crypto", policy: "SEC-05", severity: "medium", blocking: false }, (file, lang) => new Map([[3, "MD5 used"]]))
 */
export function codeLineDetector(
  spec: LineDetectorSpec,
  find: (file: ChangedFile & { patch: string }, lang: SyntaxLanguage | undefined) => ReadonlyMap<number, string>,
): Detector {
  return {
    id: spec.id,
    policies: [spec.policy],
    covers: ["code"],
    reads: CODE_LANGUAGES.reads,
    async detect(ctx) {
      const base = { policy: spec.policy, detector: spec.id, severity: spec.severity, blocking: spec.blocking };
      return [...codeChanges(ctx.pr.files)].flatMap((file) =>
        lineFindings(find(file, CODE_LANGUAGES.languageOf(file)), { ...base, file: file.filename }),
      );
    },
  };
}
