import type { HeadFiles } from "../domain/head-files.js";
import type { ChangedFile, PullRequest } from "../domain/pull-request.js";
import { isAuthPath, isVendoredPath } from "../ecosystems/file-kind.js";
import { isLockfile, isManifest } from "../ecosystems/index.js";
import type { ReadGap } from "./ledger.js";

/**
 * Paths where being there is what gives a file its effect: a manifest installs, a lockfile pins, a
 * workflow runs, a vendored folder's licence governs, auth code guards, the gate's file configures.
 * Manifests and lockfiles (they install, they pin) are those of the registered ecosystems; vendored
 * folders and auth paths are `isVendoredPath` and `isAuthPath` (src/ecosystems/file-kind.ts).
 */
const WHERE_IT_MATTERS: readonly RegExp[] = [
  /(^|\/)\.github\/(workflows|actions)\//,
  /(^|\/)(COPYING|LICEN[CS]E)[^/]*$/i,
  /(^|\/)\.github\/gate(\.ya?ml|\/)/,
];

/**
 * Whether a renamed or copied file is read whole at its new path: where the new path is one of
 * those where being there changes what applies, and the path did change.
 *
 * @example movedWhereItMatters({ filename: "package.json", previousFilename: "examples/package.json", status: "renamed", ... }) // true
 */
export function movedWhereItMatters(file: ChangedFile): boolean {
  if (file.status !== "renamed" && file.status !== "copied") return false;
  if (file.previousFilename === undefined || file.previousFilename === file.filename) return false;
  const path = file.filename;
  return (
    isManifest(path) ||
    isLockfile(path) ||
    isVendoredPath(path) ||
    isAuthPath(path) ||
    WHERE_IT_MATTERS.some((p) => p.test(path))
  );
}

/** A patch that adds every line of a text: the whole file read as new. */
function wholeFilePatch(text: string): { patch: string; lines: number } {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  return { patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`, lines: lines.length };
}

/**
 * The pull request as the detectors read it: a renamed or copied file whose new path changes
 * what applies (`movedWhereItMatters`) is read whole at that path, from the head snapshot, as if
 * every line were added (a GPL manifest moved to the root installs every dependency it names). A
 * file the snapshot cannot give is a gap in the ledger, never read as its patch alone.
 *
 * @example const { pr: read, gaps } = await withMovedFilesWhole(pr, head);
 */
export async function withMovedFilesWhole(
  pr: PullRequest,
  head: HeadFiles,
): Promise<{ pr: PullRequest; gaps: ReadGap[] }> {
  if (!pr.files.some(movedWhereItMatters)) return { pr, gaps: [] };
  const gaps: ReadGap[] = [];
  const files = await Promise.all(
    pr.files.map(async (file): Promise<ChangedFile> => {
      if (!movedWhereItMatters(file)) return file;
      const text = await head.read(file.filename);
      if (text === undefined) {
        gaps.push({
          file: file.filename,
          reason: "snapshot",
          detail: `${file.status} from ${file.previousFilename}: the whole file at its new path must be read, and the head snapshot does not have it`,
        });
        return file;
      }
      const whole = wholeFilePatch(text);
      return { ...file, patch: whole.patch, additions: whole.lines, changes: whole.lines + file.deletions };
    }),
  );
  return { pr: { ...pr, files }, gaps };
}

/** An added file GitHub gave no diff for and no change count: empty, or a binary it did not show. */
function emptyOrUnshown(file: ChangedFile): boolean {
  return file.status === "added" && file.patch === undefined && file.changes === 0;
}

/**
 * The pull request with its empty added files shown as empty (an `__init__.py`, a `.gitkeep`):
 * GitHub gives them no diff, as it gives none to a binary, so the head snapshot tells them apart.
 * A file the snapshot gives with any content, or does not give, keeps no diff (unread in the ledger).
 *
 * @example const shown = await withEmptyFilesShown(pr, head);
 */
export async function withEmptyFilesShown(pr: PullRequest, head: HeadFiles): Promise<PullRequest> {
  if (!pr.files.some(emptyOrUnshown)) return pr;
  const files = await Promise.all(
    pr.files.map(async (file) =>
      emptyOrUnshown(file) && (await head.read(file.filename)) === "" ? { ...file, patch: "" } : file,
    ),
  );
  return { ...pr, files };
}
