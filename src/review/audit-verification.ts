import { entryHash, GENESIS_HASH } from "../domain/audit-chain.js";
import type { AuditChainHead, ChainedAuditRow, DecisionLog } from "../domain/store/decision-log.js";

/** What broke a chain, at its first entry that does not hold. */
export type BreakKind =
  /** The entry's fields and link do not give its recorded hash: it was edited after it was written. */
  | "hash_mismatch"
  /** The entry it follows (by its link) is in the chain, but after it: entries were reordered. */
  | "reordered"
  /** The entry it follows (by its link) is not in the chain: removed, or rewritten. */
  | "missing_predecessor"
  /** The entry carries no chain or hash: written by hand, or by a gate older than the chain. */
  | "not_chained"
  /** The chain ends before the head recorded when its last entry was appended: its last entries were removed. */
  | "missing_tail";

/** The first entry of a chain that does not hold, and why. */
export interface ChainBreak {
  /** The chain (the repository owner; "" for entries of no known review; null for unchained rows). */
  chain: string | null;
  kind: BreakKind;
  /** The entry named: the one that does not hold, or for `missing_tail` the recorded head, which is gone. */
  seq: number;
  reviewId: string | null;
  pr: string | null;
  at: string | null;
  /** One sentence saying what broke. */
  what: string;
}

/** One chain as the walk found it. */
export interface ChainReport {
  chain: string | null;
  /** Entries verified, from the chain's first to the one before its break (all of them when intact). */
  verified: number;
  /** The hash of its last verified entry (record it elsewhere to notice a chain rewritten whole later). */
  head: string | null;
}

/** The audit log's verification: intact when nothing broke. */
export interface AuditVerdict {
  intact: boolean;
  verified: number;
  chains: ChainReport[];
  /** Each broken chain's first break, earliest entry first. */
  breaks: ChainBreak[];
}

/** How many rows a walk reads at a time (a chain is never held whole in memory). */
const PAGE = 1000;

type ChainReader = Pick<DecisionLog, "auditChains" | "auditChainPage">;

/**
 * Walks every chain of the audit log from its genesis: each entry must follow the one before it
 * (its `prev_hash` is that entry's hash), give its own recorded hash (SHA-256 of its fields and
 * that link, src/domain/audit-chain.ts), and the chain must end at its recorded head. Names the
 * first entry of each chain that does not hold.
 *
 * @example const verdict = await verifyAuditLog(store); if (!verdict.intact) console.log(verdict.breaks[0]?.what);
 */
export async function verifyAuditLog(log: ChainReader): Promise<AuditVerdict> {
  const { chains, heads } = await log.auditChains();
  const names = [...new Set<string | null>([...chains, ...heads.map((h) => h.chain)])];
  const reports: ChainReport[] = [];
  const breaks: ChainBreak[] = [];
  for (const chain of names) {
    const walked =
      chain === null
        ? await walkUnchained(log)
        : await walkChain(
            log,
            chain,
            heads.find((h) => h.chain === chain),
          );
    reports.push(walked.report);
    if (walked.broke) breaks.push(walked.broke);
  }
  breaks.sort((a, b) => a.seq - b.seq);
  return {
    intact: breaks.length === 0,
    verified: reports.reduce((n, r) => n + r.verified, 0),
    chains: reports,
    breaks,
  };
}

interface Walked {
  report: ChainReport;
  broke?: ChainBreak;
}

/** Every page of one chain's rows (null: the unchained rows), in sequence order. */
async function* rowsOf(log: ChainReader, chain: string | null): AsyncGenerator<ChainedAuditRow> {
  for (let after = 0; ; ) {
    const page = await log.auditChainPage(chain, after, PAGE);
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < PAGE) return;
    after = last.seq;
  }
}

function breakAt(row: ChainedAuditRow, kind: BreakKind, what: string): ChainBreak {
  return { chain: row.chain, kind, seq: row.seq, reviewId: row.review_id, pr: row.pr, at: row.at, what };
}

async function walkUnchained(log: ChainReader): Promise<Walked> {
  for await (const row of rowsOf(log, null)) {
    const what = "it carries no chain or hash (written by hand, or by a gate older than the chain)";
    return { report: { chain: null, verified: 0, head: null }, broke: breakAt(row, "not_chained", what) };
  }
  return { report: { chain: null, verified: 0, head: null } };
}

async function walkChain(log: ChainReader, chain: string, recorded: AuditChainHead | undefined): Promise<Walked> {
  let expected = GENESIS_HASH;
  let last: ChainedAuditRow | undefined;
  let verified = 0;
  /**
   * Whether the walk passed the head recorded when it began: entries after it were appended while
   * it walked (a gate running meanwhile), and hold like the others.
   */
  let reachedHead = false;
  /** A row whose link does not match the entry before it: the rest of the chain is searched for what it follows. */
  let unlinked: ChainedAuditRow | undefined;
  const report = () => ({ chain, verified, head: last?.hash ?? null });
  for await (const row of rowsOf(log, chain)) {
    if (unlinked) {
      if (row.hash !== unlinked.prev_hash) continue;
      const what = `out of order: the entry it follows, #${row.seq}, comes after it`;
      return { report: report(), broke: breakAt(unlinked, "reordered", what) };
    }
    if (row.hash === null || row.prev_hash === null) {
      return { report: report(), broke: breakAt(row, "not_chained", "it carries no hash (written by hand)") };
    }
    if (row.prev_hash !== expected) {
      unlinked = row;
      continue;
    }
    if (entryHash({ ...row, chain }, row.prev_hash) !== row.hash) {
      const what = "hash mismatch: its fields no longer give its recorded hash (edited after it was written)";
      return { report: report(), broke: breakAt(row, "hash_mismatch", what) };
    }
    expected = row.hash;
    last = row;
    verified++;
    if (recorded && row.seq === recorded.seq && row.hash === recorded.hash) reachedHead = true;
  }
  if (unlinked) {
    const before = last ? `#${last.seq}` : "the chain's start";
    const what = `missing predecessor: the entry it follows is not in the log (after ${before}: removed, or rewritten)`;
    return { report: report(), broke: breakAt(unlinked, "missing_predecessor", what) };
  }
  if (reachedHead) return { report: report() };
  const ends = last ? `the chain ends at #${last.seq}` : "the chain has no entry";
  const what = recorded
    ? `missing: the chain's last entry was #${recorded.seq}, but ${ends} (its last entries were removed)`
    : `missing head: ${ends}, but no head was recorded for it`;
  const seq = recorded?.seq ?? last?.seq ?? 0;
  return {
    report: report(),
    broke: { chain, kind: "missing_tail", seq, reviewId: null, pr: null, at: null, what },
  };
}
