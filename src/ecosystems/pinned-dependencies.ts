import type { HeadFiles } from "../domain/head-files.js";
import type { ChangedFile } from "../domain/pull-request.js";
import type { DependencyReading } from "./dependency-reading.js";
import { VERSION_READERS } from "./index.js";
import type { PinnedDependency, UnreadLockfile } from "./common/pinned-dependency.js";

export type { PinnedDependency, UnreadLockfile } from "./common/pinned-dependency.js";

const dirOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");

/** Whether `dir` is `lockDir` or lies below it (a workspace's lockfile sits at its root). */
const within = (dir: string, lockDir: string) => lockDir === "" || dir === lockDir || dir.startsWith(`${lockDir}/`);

async function readQuietly(head: HeadFiles, path: string): Promise<string | undefined> {
  try {
    return await head.read(path);
  } catch {
    return undefined; // the detect node recorded why the snapshot could not be had
  }
}

/**
 * The dependencies a pull request adds or changes, at exact versions: from each changed lockfile,
 * and from each changed manifest that no changed lockfile of its ecosystem covers (package.json's
 * ranges judged by the lowest version they admit; other manifests' ranges are not versions and
 * are left out). A lockfile, or an XML manifest, that cannot be read whole is returned as unread.
 * Manifests are read through `reading`, the review's one reading shared with the licence checks, when given.
 *
 * @example const { pinned, unread } = await pinnedDependencies(ctx.pr.files, ctx.head);
 */
export async function pinnedDependencies(
  files: readonly ChangedFile[],
  head: HeadFiles,
  reading?: DependencyReading,
): Promise<{ pinned: PinnedDependency[]; unread: UnreadLockfile[] }> {
  const changed = files
    .filter((f) => f.status !== "removed")
    .flatMap((file) => {
      const reader = VERSION_READERS.find((r) => r.matches(file.filename));
      return reader ? [{ file, reader }] : [];
    });
  const locks = changed.filter((c) => c.reader.lockfile);
  const pinned: PinnedDependency[] = [];
  const unread: UnreadLockfile[] = [];
  for (const { file, reader } of changed) {
    const dir = dirOf(file.filename);
    if (
      !reader.lockfile &&
      locks.some((l) => l.reader.ecosystem === reader.ecosystem && within(dir, dirOf(l.file.filename)))
    ) {
      continue; // the lockfile beside it says which exact versions the ranges resolved to
    }
    const headText = await readQuietly(head, file.filename);
    const manifest = reader.manifest
      ? await readQuietly(head, dir ? `${dir}/${reader.manifest}` : reader.manifest)
      : undefined;
    const text = headText ?? wholeAddedFile(file);
    const read =
      reading && reader.lockfile
        ? reading.lockfile(reader, file, text, manifest)
        : reader.read(file, text, manifest, reading);
    if ("unread" in read) unread.push(read.unread);
    else pinned.push(...read.pinned);
  }
  return { pinned, unread };
}

/** An added file's text from its patch, when the snapshot lacks it (every line is added). */
function wholeAddedFile(file: ChangedFile): string | undefined {
  if (file.status !== "added" || file.patch === undefined || !file.patch.startsWith("@@ -0,0 ")) return undefined;
  const lines = file.patch.split("\n").slice(1);
  return lines.every((l) => l.startsWith("+") || l.startsWith("\\"))
    ? lines
        .filter((l) => l.startsWith("+"))
        .map((l) => l.slice(1))
        .join("\n")
    : undefined;
}
