import type { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { GateError } from "../domain/errors.js";
import type { CapCounter } from "./cap-counter.js";

/** Where the decompressed tar stream goes: tar's `Parser` or `Unpack` (write, then `drain` when full). */
export interface TarSink extends EventEmitter {
  write(chunk: Buffer): boolean;
  end(): void;
}

/** Input slices handed to gunzip, so a large archive is never decompressed in one piece. */
const SLICE = 64 * 1024;
/** gzip and zstd magic: a tar stream never starts with them (its first bytes are a file name). */
const COMPRESSED_AGAIN = [Buffer.from([0x1f, 0x8b]), Buffer.from([0x28, 0xb5, 0x2f, 0xfd])];

function* slices(buf: Buffer): Generator<Buffer> {
  for (let i = 0; i < buf.length; i += SLICE) yield buf.subarray(i, i + SLICE);
}

/** Resolves when the sink can take more (or has closed); rejects on its error. */
function drained(sink: TarSink): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      cleanup();
      resolve();
    };
    const fail = (error: unknown) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      sink.off("drain", done);
      sink.off("close", done);
      sink.off("error", fail);
    };
    sink.on("drain", done);
    sink.on("close", done);
    sink.on("error", fail);
  });
}

/**
 * Decompresses a gzip archive with Node's asynchronous zlib (in the thread pool, a slice at a
 * time) and writes the tar stream into `sink`, waiting whenever the sink is full. Every
 * decompressed byte is counted; when `counter` passes a cap (bytes here, entries and depth in
 * the sink's filter) reading stops at once and the sink is never ended. Reading also stops at
 * the archive's end-of-archive blocks. Returns true when the archive was fed and the sink ended.
 *
 * @example if (await feedGunzipped(gz, new Parser({ onReadEntry }), counter)) await finished;
 */
export async function feedGunzipped(gz: Buffer, sink: TarSink, counter: CapCounter): Promise<boolean> {
  const gunzip = createGunzip({ chunkSize: SLICE });
  const source = Readable.from(slices(gz), { objectMode: false });
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  let first = true;
  // tar ignores what follows its end-of-archive blocks, but keeps appending it to one buffer
  // (quadratic time, unbounded memory): stop reading there.
  let eof = false;
  const atEof = () => {
    eof = true;
  };
  sink.once("eof", atEof);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      if (first && COMPRESSED_AGAIN.some((magic) => chunk.subarray(0, magic.length).equals(magic))) {
        throw new GateError("SANDBOX_REFUSED", "the archive is compressed twice; a snapshot is one gzip tarball");
      }
      first = false;
      counter.addBytes(chunk.length);
      if (counter.over) return false;
      const more = sink.write(chunk);
      if (counter.over) return false;
      if (eof) break;
      if (!more) await drained(sink);
      if (eof) break;
    }
  } finally {
    sink.off("eof", atEof);
    source.unpipe(gunzip);
    source.destroy();
    gunzip.destroy();
  }
  sink.end();
  return true;
}
