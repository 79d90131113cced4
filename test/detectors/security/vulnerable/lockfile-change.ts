import type { FileSpec } from "../../pr-builder.js";

/**
 * A changed file whose head text is `text`, with the lines `isAdded` picks as the PR's added
 * lines (the rest context), in GitHub's patch shape; and the head map a snapshot would give.
 *
 * @example changedFile("package-lock.json", text, (l) => l.includes("4.17.20"))
 */
export function changedFile(
  filename: string,
  text: string,
  isAdded: (line: string) => boolean,
): { spec: FileSpec; head: Record<string, string> } {
  const lines = text.split("\n");
  const added = lines.filter(isAdded).length;
  const body = lines.map((l) => `${isAdded(l) ? "+" : " "}${l}`);
  const patch = [`@@ -1,${lines.length - added} +1,${lines.length} @@`, ...body].join("\n");
  return { spec: { filename, patch }, head: { [filename]: text } };
}
