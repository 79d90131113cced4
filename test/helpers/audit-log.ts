import type { Clock } from "../../src/domain/clock.js";
import type { ReviewStore } from "../../src/domain/review-store.js";
import { audits } from "../../src/review/audit-entries.js";

/** A clock that moves one minute each time it is read, so every entry has a time of its own. */
export function tickingClock(from = Date.parse("2026-11-30T12:00:00Z")): Clock {
  let n = 0;
  return () => new Date(from + 60_000 * n++);
}

const review = (s: ReviewStore, id: string, owner: string, repo: string, n: number) =>
  s.register({
    id,
    pr: `${owner}/${repo}#${n}`,
    repo: `${owner}/${repo}`,
    number: n,
    headSha: "a".repeat(40),
    source: { kind: "github", owner, repo, number: n, headSha: "a".repeat(40) },
  });

/**
 * A small audit log as the decision code writes it, on two owners' chains and the chain of no
 * known review, interleaved: acme/web#7 registered, approved by alice (received, applied) and
 * superseded; Globex/api#3 registered; a refusal naming no review.
 */
export async function writeSampleLog(s: ReviewStore): Promise<void> {
  const approve = { kind: "approve" as const, by: "alice", note: "legal signed off" };
  await review(s, "r-1", "acme", "web", 7);
  await s.audit(audits.registered("r-1", "a".repeat(40)));
  await review(s, "r-2", "Globex", "api", 3);
  await s.audit(audits.registered("r-2", "a".repeat(40)));
  await s.audit(audits.received("r-1", approve, "slack"));
  await s.audit(audits.requestRefused("r-404", "U9", "approve", { code: "not_found", reviewId: "r-404" }, {}));
  await s.audit(audits.applied("r-1", approve, "human_approved"));
  await s.audit(audits.superseded("r-1", "b".repeat(40)));
}

/** An audit row as the tests find the one to tamper with. */
export interface SampleRow {
  seq: number;
  at: string;
  outcome: string;
}

/** Statements that lift the audit log's append-only triggers, as its database's owner can. */
export const LIFT_TRIGGERS = {
  sqlite: ["DROP TRIGGER gate_audit_no_update", "DROP TRIGGER gate_audit_no_delete"],
  postgres: ["ALTER TABLE gate_audit DISABLE TRIGGER USER"],
};

/**
 * The three ways of tampering the tests show, on acme's chain: its "received" entry edited (alice
 * becomes mallory), removed, or swapped with the "applied" entry after it. Each names the entry
 * `gate audit verify` must report and how. `rows` are acme/web#7's entries in sequence order.
 */
export function tamperings(rows: SampleRow[]) {
  const received = rows.find((r) => r.outcome === "received");
  const applied = rows.find((r) => r.outcome === "applied");
  if (!received || !applied) throw new Error("the sample log has a received and an applied entry");
  return [
    {
      name: "one row edited",
      sql: [`UPDATE gate_audit SET actor = 'mallory' WHERE seq = ${received.seq}`],
      names: { seq: received.seq, at: received.at, kind: "hash_mismatch", what: /hash mismatch/ },
    },
    {
      name: "one row deleted",
      sql: [`DELETE FROM gate_audit WHERE seq = ${received.seq}`],
      names: { seq: applied.seq, at: applied.at, kind: "missing_predecessor", what: /missing predecessor/ },
    },
    {
      name: "two rows' order swapped",
      sql: [
        `UPDATE gate_audit SET seq = -1 WHERE seq = ${received.seq}`,
        `UPDATE gate_audit SET seq = ${received.seq} WHERE seq = ${applied.seq}`,
        `UPDATE gate_audit SET seq = ${applied.seq} WHERE seq = -1`,
      ],
      // The applied entry now stands where the received one stood: it is out of order.
      names: { seq: received.seq, at: applied.at, kind: "reordered", what: /out of order/ },
    },
  ];
}
