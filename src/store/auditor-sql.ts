import type { AuditorKey } from "../domain/store/auditor-keys.js";

/** The auditors table (migration 8 in either database): one row per auditor, the token's SHA-256 only. */
export const AUDITORS_TABLE = `CREATE TABLE gate_auditors (
  name TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
)`;

/** The columns read back, in both databases. */
export const AUDITOR_COLUMNS = "name, token_hash, created_at, last_used_at, revoked_at";

/** A row of gate_auditors as the drivers return it. */
export interface AuditorRow {
  name: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A row as the port's auditor. */
export function toAuditor(r: AuditorRow): AuditorKey {
  return {
    name: r.name,
    tokenHash: r.token_hash,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at ?? null,
    revokedAt: r.revoked_at ?? null,
  };
}

/** The port's record without its hash (what `auditors()` lists). */
export function withoutHash({ tokenHash: _, ...record }: AuditorKey) {
  return record;
}
