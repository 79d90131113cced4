import { pino, type DestinationStream, type Logger } from "pino";
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
  '["x-hub-signature-256"]',
  '["x-hub-signature"]',
  '["x-slack-signature"]',
] as const;

/**
 * pino `redact` paths: each secret key at the top level and up to three levels down (pino's
 * paths have no "any depth" wildcard), and secret headers under any `headers` object up to
 * three levels down (`req.headers`, `err.request.headers`, `err.response.headers` …).
 */
export const REDACT_PATHS: readonly string[] = [
  ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]),
  ...SECRET_HEADERS.flatMap((h) => {
    const key = h.startsWith("[") ? h : `.${h}`;
    return [`headers${key}`, `*.headers${key}`, `*.*.headers${key}`, `*.*.*.headers${key}`];
  }),
];

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

/**
 * THE logger factory, for the server and the CLI alike: pino at `level`, with every credential
 * path censored (REDACT_PATHS). Writes to `destination` (stdout unless given; the CLI passes
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
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    ...(opts.base === false ? { base: undefined } : {}),
  };
  if (opts.destination === undefined) return pino(options);
  const destination = typeof opts.destination === "number" ? pino.destination(opts.destination) : opts.destination;
  return pino(options, destination);
}
