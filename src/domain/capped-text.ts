import { GateError } from "./errors.js";

/** The most of one outside answer read by default (`GATE_MAX_ANSWER_BYTES`): 32 MiB. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** An answer larger than the cap: it was not read (its message says how large, the cap and the setting). */
export class AnswerTooLarge extends GateError {
  constructor(seen: string, maxBytes: number) {
    super(
      "ANSWER_TOO_LARGE",
      `sent an answer of ${seen} bytes; at most ${maxBytes} are read (GATE_MAX_ANSWER_BYTES), so it was not read`,
    );
    this.name = "AnswerTooLarge";
  }
}

/**
 * A body as text, read as a stream and cancelled past `maxBytes` (or refused at once when its
 * declared `content-length` is over it): a huge answer never sits whole in memory, nor holds the
 * thread in `JSON.parse`. Throws `AnswerTooLarge`.
 *
 * @example await cappedText(res.body, 1 << 20, Number(res.headers.get("content-length")))
 */
export async function cappedText(
  body: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
  declaredBytes?: number,
): Promise<string> {
  if (declaredBytes !== undefined && Number.isFinite(declaredBytes) && declaredBytes > maxBytes) {
    await body?.cancel();
    throw new AnswerTooLarge(String(declaredBytes), maxBytes);
  }
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new AnswerTooLarge(`more than ${maxBytes}`, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}
