/** One line of a unified diff hunk, with its line number in the head (new) file where it has one. */
export interface PatchLine {
  kind: "add" | "del" | "context";
  /** Line number in the head file (for `add` and `context`); for `del`, the base file's line. */
  line: number;
  text: string;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Parses GitHub's `patch` text (hunks only, no file headers) into lines with head line numbers.
 *
 * @example parsePatch("@@ -1,1 +1,2 @@\n a\n+b")[1] // { kind: "add", line: 2, text: "b" }
 */
export function parsePatch(patch: string | undefined): PatchLine[] {
  if (!patch) return [];
  const out: PatchLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const raw of patch.split("\n")) {
    const header = HUNK_HEADER.exec(raw);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    if (raw.startsWith("\\")) continue; // "\ No newline at end of file"
    const sign = raw[0];
    const text = raw.slice(1);
    if (sign === "+") out.push({ kind: "add", line: newLine++, text });
    else if (sign === "-") out.push({ kind: "del", line: oldLine++, text });
    else if (sign === " " || raw === "") {
      out.push({ kind: "context", line: newLine++, text });
      oldLine++;
    }
  }
  return out;
}

/** Only the added lines of a patch: what is new in this pull request. */
export function addedLines(patch: string | undefined): PatchLine[] {
  return parsePatch(patch).filter((l) => l.kind === "add");
}

/** Only the removed lines of a patch (numbered in the base file). */
export function removedLines(patch: string | undefined): PatchLine[] {
  return parsePatch(patch).filter((l) => l.kind === "del");
}
