import { pino, type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger } from "pino";
import type { LogLevel } from "./settings/index.js";

/** Field names whose values are credentials, wherever they sit in a logged object. */
const SECRET_KEYS = [
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "botToken",
  "appToken",
  "userToken",
  "authorization",
  "Authorization",
  "apiKey",
  "api_key",
  "privateKey",
  "private_key",
  "signingSecret",
  "clientSecret",
  "client_secret",
  "webhookSecret",
  "secret",
  "password",
  "cookie",
] as const;

/** Request headers that carry a credential or a signature. */
const SECRET_HEADERS = [
  "authorization",
  "cookie",
  "x-hub-signature-256",
  "x-hub-signature",
  "x-slack-signature",
] as const;

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

const SECRET_KEY_SET: ReadonlySet<string> = new Set(SECRET_KEYS);
const SECRET_HEADER_SET: ReadonlySet<string> = new Set(SECRET_HEADERS);
/** Secret keys are censored at the top level and up to three levels down; `headers` objects too. */
const DEEPEST = 4;

/** A shallow copy keeping the prototype and every own property (an Error keeps its message and stack). */
function copyOf<T extends object>(value: T): T {
  if (Array.isArray(value)) return [...value] as T;
  return Object.create(Object.getPrototypeOf(value) as object, Object.getOwnPropertyDescriptors(value)) as T;
}

/** A `headers` object with its secret headers censored (the same object when it has none). */
function censorHeaders(headers: object): object {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(headers)) {
    if (!SECRET_HEADER_SET.has(key)) continue;
    out ??= copyOf(headers) as Record<string, unknown>;
    out[key] = REDACTED;
  }
  return out ?? headers;
}

/**
 * `value` with every credential censored: a SECRET_KEYS key at `depth` (1 = the top level) down to
 * DEEPEST, and SECRET_HEADERS under any `headers` object that deep. Copies only what it changes, so
 * the caller's objects are never touched and an object without secrets costs one walk.
 */
function censored(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null || depth > DEEPEST) return value;
  let out: Record<string, unknown> | undefined;
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const v = source[key];
    const next = SECRET_KEY_SET.has(key)
      ? REDACTED
      : key === "headers" && typeof v === "object" && v !== null
        ? censorHeaders(censored(v, depth + 1) as object)
        : censored(v, depth + 1);
    if (next === v) continue;
    out ??= copyOf(source);
    out[key] = next;
  }
  return out ?? value;
}

/**
 * Censors the credentials in one log record's fields or a child logger's bindings (pino's
 * `formatters.log` and `formatters.bindings`, both run before anything is serialised).
 *
 * @example redactRecord({ auth: { token: "ghs_…" }, pr: "acme/web#1" }) // { auth: { token: "[REDACTED]" }, pr: "acme/web#1" }
 */
function redactRecord(record: Record<string, unknown>): Record<string, unknown> {
  return censored(record, 1) as Record<string, unknown>;
}

/**
 * THE logger factory, for the server and the CLI alike: pino at `level`, with every credential
 * censored (redactRecord). Writes to `destination` (stdout unless given; the CLI passes
 * stderr, fd 2, so stdout stays for results).
 *
 * @example const log = createLogger({ level: "info" }); log.info({ headers: { authorization: "Bearer x" } }, "sent")
 */
export function createLogger(opts: {
  level: LogLevel;
  destination?: DestinationStream | number;
  /** false: no pid/hostname on each line (the CLI). */
  base?: boolean;
}): Logger {
  const options = {
    level: opts.level,
    // One walk per record instead of pino's `redact`, whose wildcard paths ran every path over
    // every field of every line and child logger (half of a webhook's answer time under load).
    formatters: { log: redactRecord, bindings: redactRecord },
    ...(opts.base === false ? { base: undefined } : {}),
  };
  const destination =
    opts.destination === undefined
      ? undefined
      : typeof opts.destination === "number"
        ? pino.destination(opts.destination)
        : opts.destination;
  const log = destination === undefined ? pino(options) : pino(options, destination);
  // pino runs `formatters.bindings` on the root's bindings only: a child's are censored here.
  // Children inherit this method from the root, so grandchildren's bindings are too.
  const child = log.child;
  log.child = function censoringChild<L extends string = never>(
    this: Logger,
    bindings: Bindings,
    childOptions?: ChildLoggerOptions<L>,
  ): Logger<L> {
    return child.bind(this)<L>(redactRecord(bindings), childOptions);
  };
  return log;
}
