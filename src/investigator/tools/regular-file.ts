import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { lstat, open, type FileHandle } from "node:fs/promises";
import { GateError } from "../../domain/errors.js";

/**
 * Flags for opening a snapshot file: read-only, never blocking (a FIFO opened for reading without
 * O_NONBLOCK waits for a writer forever, holding a thread of libuv's pool), never following a
 * symlink swapped in after the path was checked.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Opens a file only if it is a regular file: the type is checked with lstat before opening, the
 * open cannot block, and fstat checks the opened descriptor again (the file may have changed in
 * between). Throws GateError SANDBOX_REFUSED naming what the path is instead.
 *
 * @example const handle = await openRegularFile("/snap/src/a.ts", "src/a.ts")
 */
export async function openRegularFile(real: string, shown: string): Promise<FileHandle> {
  refuseUnlessRegular((await lstat(real)).mode, shown);
  const handle = await open(real, OPEN_FLAGS);
  try {
    refuseUnlessRegular((await handle.stat()).mode, shown);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * The synchronous twin for grep_repo's scan: the descriptor and size of a regular file, or
 * undefined for anything else (FIFO, socket, device, directory, symlink) or an unreadable file.
 * The caller has already seen the entry's type from readdir; this guards the gap after it.
 */
export function openRegularFileSync(real: string): { fd: number; size: number } | undefined {
  let fd: number;
  try {
    fd = openSync(real, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (info.isFile()) return { fd, size: info.size };
  } catch {
    // unreadable: treated as absent
  }
  closeSync(fd);
  return undefined;
}

function refuseUnlessRegular(mode: number, shown: string): void {
  const type = mode & constants.S_IFMT;
  if (type === constants.S_IFREG) return;
  const what =
    type === constants.S_IFDIR
      ? "a directory; use list_dir"
      : type === constants.S_IFIFO
        ? "a named pipe (FIFO), not a regular file; not read"
        : type === constants.S_IFSOCK
          ? "a socket, not a regular file; not read"
          : type === constants.S_IFCHR || type === constants.S_IFBLK
            ? "a device, not a regular file; not read"
            : "not a regular file; not read";
  throw new GateError("SANDBOX_REFUSED", `${shown} is ${what}`);
}
