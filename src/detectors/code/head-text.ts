import type { ChangedFile } from "../../domain/pull-request.js";
import { parsePatch } from "../../domain/patch.js";
import { readableLine } from "../code-lines.js";

/**
 * The head side of a changed file's patch (its context and added lines), row by row: exactly the
 * text the parser is given. Every name in a syntax tree of the file is a piece of this text, so a
 * detector that finds none of the names it looks for here needs no tree.
 */
export interface HeadText {
  /** The rows joined with "\n". */
  text: string;
  /** The head file's line number of each row, undefined for the blank row between two hunks. */
  lines: ReadonlyArray<number | undefined>;
  /** Whether each row is a line this pull request adds. */
  added: readonly boolean[];
}

function buildHeadText(patch: string | undefined): HeadText {
  const rows: string[] = [];
  const lines: Array<number | undefined> = [];
  const added: boolean[] = [];
  let previous: number | undefined;
  for (const p of parsePatch(patch)) {
    if (p.kind === "del") continue;
    if (previous !== undefined && p.line !== previous + 1) {
      // A gap between hunks: a blank row keeps the two pieces of code apart.
      rows.push("");
      lines.push(undefined);
      added.push(false);
    }
    rows.push(readableLine(p.text) ?? "");
    lines.push(p.line);
    added.push(p.kind === "add");
    previous = p.line;
  }
  return { text: rows.join("\n"), lines, added };
}

const HEAD = new WeakMap<ChangedFile, HeadText>();

/**
 * The head-side text of a changed file's patch, built once per file object and shared by the
 * parser and the detectors' textual pre-checks.
 *
 * @example headText({ filename: "a.ts", patch: "@@ -1,2 +1,2 @@\n a\n-b\n+c", ... }).text // "a\nc"
 */
export function headText(file: ChangedFile): HeadText {
  let head = HEAD.get(file);
  if (!head) {
    head = buildHeadText(file.patch);
    HEAD.set(file, head);
  }
  return head;
}
