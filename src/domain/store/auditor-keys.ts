/** An auditor as the store keeps them: a name, and the SHA-256 of their token (never the token). */
export interface AuditorRecord {
  name: string;
  createdAt: string;
  /** When their token last opened a page (or signed in); null before. */
  lastUsedAt: string | null;
  /** When their token was revoked; null while it works. */
  revokedAt: string | null;
}

/** An auditor found by their token's hash, with that hash (it signs their session cookies). */
export interface AuditorKey extends AuditorRecord {
  tokenHash: string;
}

/**
 * The auditors who may read the evidence pages (`gate auditor add|list|revoke`,
 * src/server/sign-in.ts): one row each, their token stored hashed.
 *
 * @example await store.addAuditor("kim", sha256hex(token));
 */
export interface AuditorKeys {
  /** Adds an auditor; false when the name is taken (revoked names stay taken: their views are audited under it). */
  addAuditor(name: string, tokenHash: string): Promise<boolean>;
  /** Every auditor, by name. */
  auditors(): Promise<AuditorRecord[]>;
  /** Revokes an auditor's token now; false when there is no such auditor or it was revoked already. */
  revokeAuditor(name: string): Promise<boolean>;
  /** The auditor holding a token with this hash (revoked or not), or undefined. */
  auditorByTokenHash(tokenHash: string): Promise<AuditorKey | undefined>;
  /** The auditor of this name (revoked or not), or undefined. */
  auditorByName(name: string): Promise<AuditorKey | undefined>;
  /** Stamps an auditor's last use now. */
  auditorUsed(name: string): Promise<void>;
}
