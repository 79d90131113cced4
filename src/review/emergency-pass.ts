import type { Clock } from "../domain/clock.js";
import type { EmergencyPass } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";
import type { ReviewSource } from "../domain/review-source.js";
import type { AuditEntry, ReviewStore } from "../domain/review-store.js";
import { audits } from "./audit-entries.js";

/** GATE_EMERGENCY_LABEL and GATE_EMERGENCY_HOURS: no `label`, no emergency path. */
export interface EmergencySettings {
  label?: string;
  hours: number;
}

const HOUR_MS = 3_600_000;

/**
 * A review's emergency pass, as its audit log holds it (the one record of it): the grant's label,
 * since and due time, and whether it was marked overdue. Undefined when none was granted.
 *
 * @example emergencyOf(await store.auditFor("r-1"))?.due_at // "2026-03-03T10:00:00.000Z"
 */
export function emergencyOf(entries: readonly AuditEntry[]): EmergencyPass | undefined {
  const granted = entries.find((e) => e.action === "emergency" && e.outcome === "granted");
  if (!granted) return undefined;
  const text = (v: unknown): string => (typeof v === "string" ? v : "");
  return {
    label: text(granted.detail.label),
    since: text(granted.detail.since),
    due_at: text(granted.detail.due_at),
    overdue: entries.some((e) => e.action === "emergency" && e.outcome === "overdue"),
  };
}

/** Whether a person recorded a decision after the fact on a review merged without approval. */
export function decidedAfterTheFact(entries: readonly AuditEntry[]): boolean {
  return entries.some(
    (e) => (e.action === "approve_after_merge" || e.action === "incident") && e.outcome === "applied",
  );
}

/**
 * A review's emergency pass while it is still open: not yet overdue and with no decision after
 * the fact. What the overdue sweep marks and what the reminders follow.
 *
 * @example openEmergency(await store.auditFor("r-1"))?.due_at
 */
export function openEmergency(entries: readonly AuditEntry[]): EmergencyPass | undefined {
  const pass = emergencyOf(entries);
  return pass && !pass.overdue && !decidedAfterTheFact(entries) ? pass : undefined;
}

/**
 * The open emergency passes (`openEmergency`) of GitHub reviews waiting for a person or merged past
 * the gate, by review id: one query names those with an `emergency` entry, and only their audit
 * logs are read. What the reminders and the overdue sweep follow.
 *
 * @example (await openEmergencies(store, await store.withStatus("waiting_for_human"))).get("r-1")?.due_at
 */
export async function openEmergencies(
  store: Pick<ReviewStore, "auditedWithStatus" | "auditFor">,
  reviews: readonly ReviewRecord[],
): Promise<Map<string, EmergencyPass>> {
  const open = new Map<string, EmergencyPass>();
  if (reviews.length === 0) return open;
  const granted = await store.auditedWithStatus("emergency", "waiting_for_human", "merged_unapproved");
  for (const review of reviews) {
    if (review.source !== "github" || !granted.has(review.id)) continue;
    const pass = openEmergency(await store.auditFor(review.id));
    if (pass) open.set(review.id, pass);
  }
  return open;
}

/** What granting an emergency reads and writes. */
export interface GrantDeps {
  store: ReviewStore;
  clock: Clock;
  emergency?: EmergencySettings;
}

/**
 * Grants a review waiting for a person an emergency pass, once: audited with the label, since
 * when (the first grant on the PR's reviews, so a new push keeps the PR's due time; else now), the
 * due time (since + GATE_EMERGENCY_HOURS) and who labelled it. False when it had one already.
 *
 * @example await grantEmergency(deps, review, "emergency", "octocat");
 */
export async function grantEmergency(
  deps: GrantDeps,
  review: Pick<ReviewRecord, "id" | "pr">,
  label: string,
  by?: string,
): Promise<boolean> {
  if (emergencyOf(await deps.store.auditFor(review.id))) return false;
  let first: { since: string; by?: string } | undefined;
  for (const r of await deps.store.allForPr(review.pr)) {
    if (r.id === review.id) continue;
    const entries = await deps.store.auditFor(r.id);
    const pass = emergencyOf(entries);
    if (!pass || (first && Date.parse(first.since) <= Date.parse(pass.since))) continue;
    const granted = entries.find((e) => e.action === "emergency" && e.outcome === "granted");
    const labeledBy = granted?.detail.labeled_by;
    first = { since: pass.since, ...(typeof labeledBy === "string" ? { by: labeledBy } : {}) };
  }
  const since = first?.since ?? deps.clock().toISOString();
  const dueAt = new Date(Date.parse(since) + (deps.emergency?.hours ?? 24) * HOUR_MS).toISOString();
  const who = first ? (first.by ?? by) : by;
  await deps.store.audit(audits.emergencyGranted(review.id, review.pr, { label, since, due_at: dueAt }, who));
  return true;
}

/**
 * A review that has just gone to a person: granted an emergency pass when its PR carried the
 * emergency label in the delivery that asked for it (who sent that delivery labelled it), or was
 * labelled while the review ran (`emergency: labeled` in its audit log, with who labelled it).
 */
export async function grantIfLabelled(
  deps: GrantDeps,
  review: ReviewRecord,
  source: ReviewSource | undefined,
): Promise<boolean> {
  const label = deps.emergency?.label;
  if (!label || review.status !== "waiting_for_human" || source?.kind !== "github") return false;
  if ((source.labels ?? []).includes(label)) return grantEmergency(deps, review, label, source.sender);
  const labeled = (await deps.store.auditFor(review.id)).find(
    (e) => e.action === "emergency" && e.outcome === "labeled" && e.detail.label === label,
  );
  if (!labeled) return false;
  const by = labeled.detail.labeled_by;
  return grantEmergency(deps, review, label, typeof by === "string" ? by : undefined);
}
