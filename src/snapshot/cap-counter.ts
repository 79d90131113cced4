import { GateError } from "../domain/errors.js";
import type { SnapshotCaps } from "../domain/snapshot-ref.js";

/** Which cap a snapshot passed, and the setting that sets it. */
export const SNAPSHOT_CAP_SETTINGS = {
  maxBytes: "GATE_SNAPSHOT_MAX_BYTES",
  maxFiles: "GATE_SNAPSHOT_MAX_FILES",
  maxDepth: "GATE_SNAPSHOT_MAX_DEPTH",
} as const satisfies Record<keyof SnapshotCaps, string>;

/**
 * A snapshot refused for passing one of its caps. The message names the cap and its setting;
 * `cap` says which one, for code.
 *
 * @example new SnapshotOverCap("maxFiles", 50_000, "the snapshot holds more than 50000 entries")
 */
export class SnapshotOverCap extends GateError {
  constructor(
    readonly cap: keyof SnapshotCaps,
    readonly limit: number,
    what: string,
  ) {
    super("SNAPSHOT_OVER_CAP", `${what} (cap ${limit}, ${SNAPSHOT_CAP_SETTINGS[cap]}); not extracted`);
  }
}

/**
 * Counts what an extraction reads as it streams: decompressed bytes, entries and each entry's
 * depth. The first cap passed is kept in `over`; the caller stops reading when it is set.
 *
 * @example const counter = new CapCounter(caps); counter.addBytes(chunk.length); if (counter.over) stop();
 */
export class CapCounter {
  bytes = 0;
  entries = 0;
  over: SnapshotOverCap | undefined;

  constructor(readonly caps: SnapshotCaps) {}

  /** Decompressed bytes read from the archive (its contents, headers and padding). */
  addBytes(n: number): void {
    this.bytes += n;
    if (this.bytes > this.caps.maxBytes) {
      this.fail("maxBytes", this.caps.maxBytes, `the snapshot unpacks to more than ${this.caps.maxBytes} bytes`);
    }
  }

  /**
   * One entry at `rel` (its path below the repository's root, `/`-separated), whose content
   * declares `size` bytes: refused at its header when that alone passes the byte cap.
   */
  addEntry(rel: string, size: number): void {
    this.entries += 1;
    if (this.entries > this.caps.maxFiles) {
      this.fail("maxFiles", this.caps.maxFiles, `the snapshot holds more than ${this.caps.maxFiles} entries`);
    }
    const depth = rel.split("/").length;
    if (depth > this.caps.maxDepth) {
      const shown = rel.length > 120 ? `${rel.slice(0, 120)}…` : rel;
      this.fail("maxDepth", this.caps.maxDepth, `the snapshot has a path ${depth} levels deep (${shown})`);
    }
    if (this.bytes + size > this.caps.maxBytes) {
      this.fail("maxBytes", this.caps.maxBytes, `the snapshot unpacks to more than ${this.caps.maxBytes} bytes`);
    }
  }

  private fail(cap: keyof SnapshotCaps, limit: number, what: string): void {
    this.over ??= new SnapshotOverCap(cap, limit, what);
  }
}
