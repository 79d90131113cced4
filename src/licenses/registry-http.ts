import pRetry, { AbortError } from "p-retry";
import { AnswerTooLarge, cappedText, DEFAULT_MAX_ANSWER_BYTES } from "../domain/capped-text.js";
import { GateError } from "../domain/errors.js";

/** How often and how long to wait before asking a registry again. */
export interface RetryPolicy {
  /** Attempts after the first; 2 by default (3 in all). */
  retries: number;
  /** The first wait; each later one doubles, up to `maxDelayMs`. */
  minDelayMs: number;
  maxDelayMs: number;
}

/** The default: 3 attempts, waiting 250 ms then 500 ms (with jitter). */
export const DEFAULT_RETRY: RetryPolicy = { retries: 2, minDelayMs: 250, maxDelayMs: 2000 };

/** How one registry client talks HTTP. */
export interface RegistryHttpOptions {
  fetch?: typeof fetch;
  /** Per attempt, body included; 5 s by default. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * The most of one answer's body read (`GATE_MAX_ANSWER_BYTES`, 32 MiB by default): the body is read
   * as a stream and the request aborted past it, a failed lookup naming the cap (never retried).
   */
  maxBytes?: number;
}

/** A registry's document, or its answer that there is none (404). */
export type RegistryDocument = { found: true; json: unknown } | { found: false };

/** A registry gave no usable answer, after retries. `message` says what happened, e.g. "answered 503 (3 attempts)". */
export class RegistryUnavailable extends GateError {
  constructor(message: string) {
    super("REGISTRY_UNAVAILABLE", message);
    this.name = "RegistryUnavailable";
  }
}

/** A failure worth another attempt (network, timeout, 5xx, 429, a cut-off body). */
class Transient extends GateError {
  constructor(message: string) {
    super("REGISTRY_UNAVAILABLE", message);
    this.name = "Transient";
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const why = cause instanceof Error && cause.message && cause.message !== error.message ? ` (${cause.message})` : "";
    return `${error.message}${why}`;
  }
  return String(error);
}

/**
 * GETs a registry's JSON document, retrying with exponential backoff (p-retry) on a network error,
 * a timeout, a 5xx or 429, or a body that is not JSON. A 404 is an answer (`found: false`); any
 * other non-OK status fails at once. Throws `RegistryUnavailable` when no usable answer came.
 *
 * @example const doc = await getRegistryJson("https://crates.io/api/v1/crates/serde", { retry: { retries: 1 } });
 */
export async function getRegistryJson(url: string, opts: RegistryHttpOptions = {}): Promise<RegistryDocument> {
  return requestRegistryJson(url, opts);
}

/**
 * `getRegistryJson`, or with `body` a POST of that JSON (OSV's `querybatch`), with the same retries
 * and answers; `purpose` names the lookups in the user agent.
 *
 * @example await requestRegistryJson("https://api.osv.dev/v1/querybatch", { body: { queries: [] }, purpose: "advisory lookups" });
 */
export async function requestRegistryJson(
  url: string,
  opts: RegistryHttpOptions & { body?: unknown; purpose?: string } = {},
): Promise<RegistryDocument> {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const retry = { ...DEFAULT_RETRY, ...opts.retry };
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  let attempts = 0;
  const attempt = async (): Promise<RegistryDocument> => {
    attempts++;
    let res: Response;
    try {
      const agent = `pr-compliance-gate (${opts.purpose ?? "licence lookups"})`;
      res = await doFetch(url, {
        ...(opts.body !== undefined
          ? {
              method: "POST",
              body: JSON.stringify(opts.body),
              headers: { accept: "application/json", "content-type": "application/json", "user-agent": agent },
            }
          : { headers: { accept: "application/json", "user-agent": agent } }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new Transient(timedOut ? `timed out after ${timeoutMs} ms` : `did not answer: ${messageOf(error)}`);
    }
    if (res.status === 404) {
      await res.body?.cancel();
      return { found: false };
    }
    if (res.status >= 500 || res.status === 429) {
      await res.body?.cancel();
      throw new Transient(`answered ${res.status}`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new AbortError(`answered ${res.status}`);
    }
    let text: string;
    try {
      text = await cappedText(res.body, maxBytes, Number(res.headers.get("content-length") ?? Number.NaN));
    } catch (error) {
      // Too large is an answer, not a failure worth asking again for.
      if (error instanceof AnswerTooLarge) throw new AbortError(error.message);
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new Transient(timedOut ? `timed out after ${timeoutMs} ms` : `cut off its answer: ${messageOf(error)}`);
    }
    try {
      return { found: true, json: JSON.parse(text) as unknown };
    } catch {
      throw new Transient("sent a document that is not JSON");
    }
  };
  try {
    return await pRetry(attempt, {
      retries: retry.retries,
      minTimeout: retry.minDelayMs,
      maxTimeout: retry.maxDelayMs,
      factor: 2,
      randomize: retry.minDelayMs > 0,
      shouldRetry: ({ error }) => error instanceof Transient,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new RegistryUnavailable(`${message} (${attempts} attempt${attempts === 1 ? "" : "s"})`);
  }
}
