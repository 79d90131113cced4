import { addedLines } from "../../domain/patch.js";
import { stepAside } from "../../domain/step-aside.js";

/** The added lines of one patch joined as text, with a way back to head line numbers. */
export interface AddedText {
  /** The added lines joined with "\n" (no diff markers). */
  text: string;
  /** Maps a 1-based line of `text` to its line number in the head file. */
  headLine(textLine: number): number | undefined;
  /** Head line numbers of every added line. */
  lines: ReadonlySet<number>;
}

/**
 * Joins the added lines of a GitHub `patch` so whole-text scanners (secretlint, YAML) can read them.
 *
 * @example addedText("@@ -1,0 +4,2 @@\n+a\n+b").headLine(2) // 5
 */
export function addedText(patch: string | undefined): AddedText {
  stepAside();
  const added = addedLines(patch);
  return {
    text: added.map((l) => l.text).join("\n"),
    headLine: (textLine) => added[textLine - 1]?.line,
    lines: new Set(added.map((l) => l.line)),
  };
}
