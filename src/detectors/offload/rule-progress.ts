import fs from "node:fs";

/** Bytes of a rule's label the progress file keeps (a longer label is cut). */
const LABEL_BYTES = 2_040;

/**
 * Which teams' rule the rules process is searching with, in a small file the main process reads
 * when it stops the process past its budget. ast-grep's search is one native call that cannot be
 * interrupted nor asked where it is, so the label is written before each search starts: a write
 * at offset 0 of an open file (a few microseconds), where a message per search would cost the
 * answering thread a little for each of 20,000 rules.
 *
 * @example const w = progressWriter(file); w(3, "rule r of ACME-02 on src/a.ts"); readProgress(file) // { job: 3, label: "rule r of ACME-02 on src/a.ts" }
 */
export function progressWriter(file: string): (job: number, label: string) => void {
  const fd = fs.openSync(file, "r+");
  const buffer = Buffer.alloc(8 + LABEL_BYTES);
  return (job, label) => {
    const length = buffer.write(label, 8, LABEL_BYTES, "utf8");
    buffer.writeInt32LE(job, 0);
    buffer.writeInt32LE(length, 4);
    fs.writeSync(fd, buffer, 0, 8 + length, 0);
  };
}

/** The label the rules process last wrote, and for which job; undefined when none was written or the file is gone. */
export function readProgress(file: string): { job: number; label: string } | undefined {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (data.length < 8) return undefined;
  const job = data.readInt32LE(0);
  const length = data.readInt32LE(4);
  if (job === 0 || length <= 0 || 8 + length > data.length) return undefined;
  return { job, label: data.subarray(8, 8 + length).toString("utf8") };
}
