import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { LostEntry } from "../domain/snapshot-ref.js";

/** The record's file name, beside the `tree/` folder in a snapshot's folder (never inside the tree). */
const RECORD_FILE = "record.json";

const RecordSchema = z.object({
  format: z.literal("gate-snapshot/1").describe("this layout's version; anything else is not a record"),
  files: z.number().int().nonnegative().describe("regular files written"),
  lost: z
    .array(z.object({ path: z.string(), cause: z.string() }))
    .describe("entries not written whole; empty when the snapshot is whole"),
  refused: z.number().int().nonnegative().describe("entries refused as unsafe (named in the log)"),
});

/** What a finished extraction wrote down about itself. */
export type SnapshotRecord = z.infer<typeof RecordSchema>;

/**
 * Writes the record of a finished extraction into its (staging) snapshot folder, before the folder
 * is renamed into place: a folder in place therefore always holds its record, and a folder whose
 * extraction never finished (the process died) was never renamed, so it is never taken for one.
 * A write that fails (the disk full) throws: the snapshot is not put in place without it.
 *
 * @example await writeRecord("/var/gate/snapshots/acme/web/<sha>.partial-1", { files: 3, lost: [], refused: 0 })
 */
export async function writeRecord(folder: string, record: Omit<SnapshotRecord, "format">): Promise<void> {
  const body: SnapshotRecord = { format: "gate-snapshot/1", ...record };
  await writeFile(path.join(folder, RECORD_FILE), `${JSON.stringify(body)}\n`, { flag: "wx" });
}

/**
 * The record of the snapshot folder `folder`, or undefined when it has none that parses (no folder,
 * a folder of an older layout, a damaged file): such a folder is not a snapshot to read.
 *
 * @example (await readRecord("/var/gate/snapshots/acme/web/<sha>.snapshot"))?.lost // []
 */
export async function readRecord(folder: string): Promise<{ lost: LostEntry[] } | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(folder, RECORD_FILE), "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = RecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
