import { describe, expect, it } from "vitest";
import {
  isRedacted,
  redactionKeys,
  scanSensitiveLogging,
} from "../../../src/investigator/deterministic/logging-scan.js";

const at = (text: string, line = 1) => ({ file: "a.ts", line, text });

describe("scanSensitiveLogging", () => {
  it.each([
    ['logger.info("refreshed", { token: session.token })', ["token"]],
    ["console.log(`user ${user.password}`)", ["password"]],
    ["this.logger.warn({ authorization: req.headers.authorization })", ["authorization"]],
    ["logEvent('login', sessionId)", ["sessionid"]],
    ["log.debug(apiKey)", ["apikey"]],
    ['logger.info("token expired", { userId })', []],
    ["login(user, password)", []],
    ["const token = sign(payload);", []],
  ])("%s → %j", (text, terms) => {
    const found = scanSensitiveLogging([at(text)]);
    expect(found.flatMap((f) => f.terms)).toEqual(terms);
  });

  it("follows a call over continuation lines", () => {
    const found = scanSensitiveLogging([
      at("logger.info(", 4),
      at('  "refreshed",', 5),
      at("  { token: s.token },", 6),
      at(");", 7),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: 4, keys: ["token"] });
  });
});

describe("redaction", () => {
  it("reads pino-style and JSON redaction lists", () => {
    expect([...redactionKeys('const REDACT_PATHS = ["token", "*.password", "req.headers.authorization"];')]).toEqual([
      "token",
      "password",
      "authorization",
    ]);
    expect([...redactionKeys('{ "level": "info", "redact": ["cookie"] }')]).toEqual(["cookie"]);
    expect([...redactionKeys('pino({ redact: { paths: ["secret"], censor: "x" } })')]).toEqual(["secret"]);
  });

  it("counts a call as redacted only when every sensitive key is covered", () => {
    const [log] = scanSensitiveLogging([at('logger.info("x", { token: s.token })')]);
    if (!log) throw new Error("expected a finding");
    expect(isRedacted(log, new Set(["token"]))).toBe(true);
    expect(isRedacted(log, new Set(["password"]))).toBe(false);
    const [inline] = scanSensitiveLogging([at("console.log('t=' + token)")]);
    if (!inline) throw new Error("expected a finding");
    expect(isRedacted(inline, new Set(["token"]))).toBe(false);
  });
});
