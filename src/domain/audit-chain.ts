import { createHash } from "node:crypto";

/**
 * The hash an entry that starts a chain follows: the chain's genesis. Every chain begins with an
 * entry whose `prev_hash` is this, so removing a chain's first entry breaks the link of the next.
 */
export const GENESIS_HASH = "0".repeat(64);

/** The version word that opens every serialisation: a later change of fields is a new word. */
const FORMAT = "gate-audit-v1";

/** An audit row's fields as they are stored, in the order they are hashed. */
export interface ChainedFields {
  seq: number;
  /** The chain the entry belongs to: its repository owner, lower-cased (`chainOf`). */
  chain: string;
  review_id: string;
  at: string;
  actor: string;
  action: string;
  outcome: string;
  /** The stored JSON text, exactly as stored (never re-serialised, so its key order is kept). */
  detail: string;
}

/**
 * The canonical serialisation of an entry: `JSON.stringify` (no spaces, UTF-8) of the array
 * `["gate-audit-v1", seq, chain, review_id, at, actor, action, outcome, detail, prev_hash]`, with
 * `seq` a number and every other field the stored text. Binding `seq` ties each entry to its place.
 *
 * @example canonicalEntry({ seq: 1, chain: "acme", review_id: "r-1", at: "2026-11-30T12:00:00.000Z", actor: "gate", action: "register", outcome: "queued", detail: "{}" }, GENESIS_HASH)
 */
export function canonicalEntry(row: ChainedFields, prevHash: string): string {
  return JSON.stringify([
    FORMAT,
    row.seq,
    row.chain,
    row.review_id,
    row.at,
    row.actor,
    row.action,
    row.outcome,
    row.detail,
    prevHash,
  ]);
}

/**
 * An entry's hash: SHA-256 (lower-case hex) of its canonical serialisation, which ends with the
 * hash of the entry before it in its chain (`GENESIS_HASH` for the first).
 *
 * @example const hash = entryHash(row, head?.hash ?? GENESIS_HASH);
 */
export function entryHash(row: ChainedFields, prevHash: string): string {
  return createHash("sha256").update(canonicalEntry(row, prevHash), "utf8").digest("hex");
}

/**
 * A new entry's stored fields and links, from what is appended and where it goes: the one way both
 * stores (SQLite and PostgreSQL) build the row they insert.
 *
 * @example const { fields, prevHash, hash } = chainedEntry(entry, { seq, chain, at: now, headHash: head?.hash });
 */
export function chainedEntry(
  entry: { reviewId: string; actor: string; action: string; outcome: string; detail?: Record<string, unknown> },
  at: { seq: number; chain: string; at: string; headHash: string | undefined },
): { fields: ChainedFields; prevHash: string; hash: string } {
  const fields: ChainedFields = {
    seq: at.seq,
    chain: at.chain,
    review_id: entry.reviewId,
    at: at.at,
    actor: entry.actor,
    action: entry.action,
    outcome: entry.outcome,
    detail: JSON.stringify(entry.detail ?? {}),
  };
  const prevHash = at.headHash ?? GENESIS_HASH;
  return { fields, prevHash, hash: entryHash(fields, prevHash) };
}

/**
 * The chain a review's entries join: the owner of its repository (`acme` of `acme/web`),
 * lower-cased as GitHub compares logins; `""` for an entry of no known review (a refused request
 * naming a review that does not exist).
 *
 * @example chainOf("Acme/web") // "acme"
 */
export function chainOf(repo: string | undefined): string {
  if (!repo) return "";
  return (repo.split("/")[0] ?? "").toLowerCase();
}

/** An audit row written before the chain, with its review's repository (undefined: no such review). */
export type UnchainedRow = Omit<ChainedFields, "chain"> & { repo?: string | null };

/** Where the migration puts one existing row in its chain. */
export interface ChainLink {
  seq: number;
  chain: string;
  prevHash: string;
  hash: string;
}

/**
 * Chains rows written before the chain existed, once (the migration that adds it): each joins its
 * review's owner's chain in `seq` order, the first of each chain following `GENESIS_HASH`.
 * Returns each row's link and each chain's head (its last entry).
 *
 * @example const { links, heads } = chainExisting(rowsInSeqOrder);
 */
export function chainExisting(rows: readonly UnchainedRow[]): {
  links: ChainLink[];
  heads: Map<string, { seq: number; hash: string }>;
} {
  const heads = new Map<string, { seq: number; hash: string }>();
  const links = [...rows]
    .sort((a, b) => a.seq - b.seq)
    .map((row) => {
      const chain = chainOf(row.repo ?? undefined);
      const prevHash = heads.get(chain)?.hash ?? GENESIS_HASH;
      const hash = entryHash({ ...row, chain }, prevHash);
      heads.set(chain, { seq: row.seq, hash });
      return { seq: row.seq, chain, prevHash, hash };
    });
  return { links, heads };
}
