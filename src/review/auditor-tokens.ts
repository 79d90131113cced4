import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AuditorKey, AuditorKeys } from "../domain/store/auditor-keys.js";
import { GateError } from "../domain/errors.js";

/** Every auditor token starts so (a secret scanner, or a person, knows it for what it is). */
export const TOKEN_PREFIX = "gat_";

/** An auditor's name: a letter or digit, then up to 63 letters, digits, `.`, `_`, `@` or `-`. */
const AUDITOR_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** How long a session cookie holds after sign-in. */
export const SESSION_HOURS = 8;

/** The SHA-256 of a token, in hex: all the store keeps of it. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Adds an auditor and returns their token (32 random bytes, base64url, `gat_` first), which is
 * shown this once: the store keeps its SHA-256 only. Throws CONFIG_INVALID for a bad or taken name.
 *
 * @example const token = await addAuditor(store, "kim"); // "gat_…"
 */
export async function addAuditor(store: Pick<AuditorKeys, "addAuditor">, name: string): Promise<string> {
  if (!AUDITOR_NAME.test(name)) {
    throw new GateError(
      "CONFIG_INVALID",
      `auditor name ${JSON.stringify(name)}: use letters, digits, . _ @ - (up to 64)`,
    );
  }
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  if (!(await store.addAuditor(name, tokenHash(token)))) {
    throw new GateError("CONFIG_INVALID", `auditor ${name} exists already (a revoked name stays taken)`);
  }
  return token;
}

/** The auditor a token belongs to, when it is one of ours and not revoked. */
export async function auditorOfToken(
  store: Pick<AuditorKeys, "auditorByTokenHash">,
  token: string,
): Promise<AuditorKey | undefined> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return undefined;
  const auditor = await store.auditorByTokenHash(tokenHash(token));
  return auditor && auditor.revokedAt === null ? auditor : undefined;
}

/**
 * A session cookie's value for an auditor: `name.expiry.mac`, the MAC an HMAC-SHA256 keyed with
 * the auditor's token hash (which only the store holds). Every replica checks it without a shared
 * secret, and revoking the token ends the session at once.
 *
 * @example sessionValue(auditor, Date.now() + 3_600_000)
 */
export function sessionValue(auditor: Pick<AuditorKey, "name" | "tokenHash">, expiresAtMs: number): string {
  const body = `${encodeURIComponent(auditor.name)}.${expiresAtMs}`;
  return `${body}.${sessionMac(auditor.tokenHash, body)}`;
}

function sessionMac(key: string, body: string): string {
  return createHmac("sha256", key).update(body).digest("base64url");
}

/** The auditor a session cookie's value stands for, when its MAC holds, it has not expired and the auditor is not revoked. */
export async function auditorOfSession(
  store: Pick<AuditorKeys, "auditorByName">,
  value: string,
  nowMs: number,
): Promise<AuditorKey | undefined> {
  const parts = value.split(".");
  if (parts.length !== 3) return undefined;
  const [rawName = "", expiry = "", mac = ""] = parts;
  if (!/^\d{1,16}$/.test(expiry) || Number(expiry) <= nowMs) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(rawName);
  } catch {
    return undefined;
  }
  if (!AUDITOR_NAME.test(name)) return undefined;
  const auditor = await store.auditorByName(name);
  if (!auditor || auditor.revokedAt !== null) return undefined;
  const want = Buffer.from(sessionMac(auditor.tokenHash, `${rawName}.${expiry}`));
  const got = Buffer.from(mac);
  return want.length === got.length && timingSafeEqual(want, got) ? auditor : undefined;
}
