import { ReadEntry } from "tar";
import type { LostEntry } from "../domain/snapshot-ref.js";

/** tar's codes for an archive it cannot read on (a bad header, truncated input, an aborted stream). */
const DAMAGED = new Set(["TAR_BAD_ARCHIVE", "TAR_ENTRY_INVALID", "TAR_ABORT"]);

/**
 * An operating-system error (an errno name: ENOSPC, EIO, ENAMETOOLONG…), as opposed to tar's own
 * refusals (TAR_SYMLINK_ERROR: it will not write through a link; plain messages for unsafe paths).
 */
function isSystemError(data: unknown): data is Error & { code: string } {
  const code = data instanceof Error ? (data as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}

/**
 * An error's text without the local path it names: `ENOSPC: no space left on device, write` becomes
 * `ENOSPC: no space left on device` (the staging folder's path means nothing to a reader).
 *
 * @example causeOf(Object.assign(new Error("ENAMETOOLONG: name too long, open '/x/y'"), { code: "ENAMETOOLONG" })) // "ENAMETOOLONG: name too long"
 */
export function causeOf(error: Error & { code: string }): string {
  const text = error.message.replace(/,\s*\w+(?:\s+'[^']*'(?:\s*->\s*'[^']*')?)?\s*$/, "");
  return text.startsWith(error.code) ? text : `${error.code}: ${text}`;
}

/** The entry's path below the repository's root (tar has stripped the top folder); folders end with `/`. */
function entryPath(entry: ReadEntry): string {
  const rel = entry.path.replace(/\\/g, "/").replace(/\/+$/, "");
  return entry.type === "Directory" || entry.type === "GNUDumpDir" ? `${rel}/` : rel;
}

/**
 * What tar reported while reading or writing an archive, sorted three ways: entries it refused as
 * unsafe (its own checks, behind ours: they stay refusals), entries lost to an operating-system
 * error while writing (the disk full, EIO, a name too long: the snapshot is then incomplete), and
 * damage to the archive itself (it cannot be read on, so nothing of it is trusted). tar reports
 * all of these as warnings and carries on, which is how a file could otherwise go missing silently.
 *
 * @example const report = new ExtractionReport(); new Unpack({ cwd, onwarn: report.onwarn }); … report.lost
 */
export class ExtractionReport {
  readonly refused: string[] = [];
  readonly lost: LostEntry[] = [];
  /** The first damage tar reported, if any. */
  damaged: string | undefined;

  /** tar's `onwarn` callback. */
  readonly onwarn = (code: string, message: string, data: unknown): void => {
    if (code === "TAR_ENTRY_INFO") return;
    const entry = (data as { entry?: unknown } | null)?.entry;
    if (DAMAGED.has(code)) {
      this.damaged ??= message;
      return;
    }
    if (isSystemError(data)) {
      if (entry instanceof ReadEntry) this.lost.push({ path: entryPath(entry), cause: causeOf(data) });
      else this.damaged ??= causeOf(data); // a write failed for no entry: nothing says what it lost
      return;
    }
    this.refused.push(`${entry instanceof ReadEntry ? `${entry.path}: ` : ""}${message}`);
  };
}
