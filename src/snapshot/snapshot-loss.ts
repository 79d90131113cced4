import { GateError } from "../domain/errors.js";
import type { LostEntry } from "../domain/snapshot-ref.js";
import { isNotFound } from "./sandbox.js";

/** Lost entries a message names before "and N more". */
const NAMED = 5;
/** A path longer than this is shown cut in the middle (a lost name is often an over-long one). */
const SHOWN_CHARS = 120;

function shown(p: string): string {
  if (p.length <= SHOWN_CHARS) return p;
  const half = Math.floor((SHOWN_CHARS - 1) / 2);
  return `${p.slice(0, half)}…${p.slice(-half)}`;
}

/**
 * The lost entries as a person reads them: `a/COPYING (ENOSPC: no space left on device), …`.
 *
 * @example describeLost([{ path: "vendor/x/COPYING", cause: "ENOSPC: no space left on device" }]) // "vendor/x/COPYING (ENOSPC: no space left on device)"
 */
export function describeLost(lost: readonly LostEntry[]): string {
  const named = lost.slice(0, NAMED).map((e) => `${shown(e.path)} (${e.cause})`);
  return lost.length > NAMED ? `${named.join(", ")} and ${lost.length - NAMED} more` : named.join(", ");
}

/**
 * The lost entry that is `rel` itself or a folder it lies in, if any. `rel` is `/`-separated,
 * relative to the repository's root.
 *
 * @example lostEntryOf([{ path: "vendor/x/", cause: "EIO: i/o error" }], "vendor/x/COPYING")?.path // "vendor/x/"
 */
export function lostEntryOf(lost: readonly LostEntry[], rel: string): LostEntry | undefined {
  const wanted = rel
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");
  return lost.find((e) => {
    const entry = e.path.replace(/\/+$/, "");
    return entry === wanted || (e.path.endsWith("/") && wanted.startsWith(`${entry}/`));
  });
}

/**
 * SNAPSHOT_INCOMPLETE for a read the snapshot cannot answer. A lost entry's own read names it and
 * its cause; any other (a path in a lost folder, or one absent while entries were lost: it may be
 * one the extraction never reached) gets one message per snapshot, naming what was lost, so a
 * review that probes many optional files (LICENSE, LICENSE.txt, …) states the loss once.
 *
 * @example snapshotIncomplete(lost, "vendor/x/COPYING").message // "the head snapshot is incomplete: vendor/x/COPYING was not written (ENOSPC: …)"
 */
export function snapshotIncomplete(lost: readonly LostEntry[], rel: string): GateError {
  const wanted = rel
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");
  const entry = lost.find((e) => e.path.replace(/\/+$/, "") === wanted);
  if (entry !== undefined) {
    return new GateError(
      "SNAPSHOT_INCOMPLETE",
      `the head snapshot is incomplete: ${shown(entry.path)} was not written (${entry.cause})`,
    );
  }
  return new GateError(
    "SNAPSHOT_INCOMPLETE",
    `the head snapshot is incomplete (not written: ${describeLost(lost)}); a file it lacks may have been lost with them, so it is not read as absent`,
  );
}

/**
 * Reads `rel` of a snapshot that lost `lost`: a lost path is refused before reading; a read that
 * finds nothing (`isNotFound`) is refused when anything was lost. A whole snapshot (`lost` empty)
 * reads as `read` does.
 *
 * @example await readingWhole(snapshot.lost, "package.json", () => readFile(root, { path: "package.json" }))
 */
export async function readingWhole<T>(lost: readonly LostEntry[], rel: string, read: () => Promise<T>): Promise<T> {
  if (lost.length === 0) return read();
  if (lostEntryOf(lost, rel)) throw snapshotIncomplete(lost, rel);
  try {
    return await read();
  } catch (error) {
    if (isNotFound(error)) throw snapshotIncomplete(lost, rel);
    throw error;
  }
}

/**
 * Whether an error is SNAPSHOT_INCOMPLETE: a read that an incomplete snapshot could not answer.
 *
 * @example isSnapshotIncomplete(snapshotIncomplete(lost, "a")) // true
 */
export function isSnapshotIncomplete(error: unknown): error is GateError {
  return error instanceof GateError && error.code === "SNAPSHOT_INCOMPLETE";
}
