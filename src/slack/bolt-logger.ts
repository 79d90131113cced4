import { LogLevel, type Logger as BoltLogger } from "@slack/bolt";
import type { Logger } from "pino";

/**
 * Bolt's logger interface over our pino logger, so Bolt's own messages land in the same stream.
 *
 * @example new App({ logger: boltLogger(log), ... })
 */
export function boltLogger(log: Logger): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  const child = log.child({ component: "bolt" });
  const text = (msg: unknown[]): string => msg.map(describe).join(" ");
  return {
    debug: (...msg) => child.debug(text(msg)),
    info: (...msg) => child.info(text(msg)),
    warn: (...msg) => child.warn(text(msg)),
    error: (...msg) => child.error(text(msg)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

function describe(m: unknown): string {
  if (m instanceof Error) return m.message;
  if (typeof m === "string") return m;
  try {
    return JSON.stringify(m) ?? String(m);
  } catch {
    return String(m);
  }
}
