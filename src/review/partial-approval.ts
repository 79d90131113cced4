import { z } from "zod";
import type { Approval } from "../domain/review-result.js";
import type { ResumeValue } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";
import { audits } from "./audit-entries.js";
import type { DecisionRequest } from "./decision-policy.js";
import { approvalStep, neededApprovals, type stillNeeded } from "./specialty-approvals.js";

const Covers = z.array(z.enum(["security", "licensing", "data", "general"]));

/**
 * The approvals given so far to a review that needs several (per specialty): its audit log's
 * "partial" approvals, oldest first. The audit log is where they are kept: append-only, written
 * in the same transaction that checks the review still waits.
 *
 * @example (await givenApprovals(store, "r-1")).map((a) => a.covers) // [["security"]]
 */
export async function givenApprovals(store: Pick<ReviewStore, "auditFor">, reviewId: string): Promise<Approval[]> {
  return (await store.auditFor(reviewId))
    .filter((e) => e.action === "approve" && e.outcome === "partial")
    .map((e) => {
      const note = typeof e.detail.note === "string" && e.detail.note !== "" ? { note: e.detail.note } : {};
      return { by: e.actor, at: e.at, covers: Covers.catch([]).parse(e.detail.covers), ...note };
    });
}

/** What an allowed Approve does: completes the approvals (resume with `resume`), or adds one of them. */
export type ApprovalPlan =
  | { kind: "complete"; resume: ResumeValue }
  | { kind: "partial"; approval: Approval; given: number; remaining: ReturnType<typeof stillNeeded> };

/**
 * Plans an allowed Approve on a review (the decision policy let it through): when the blocking
 * specialties need approvals from several lists and some stay open after this one, it is a partial
 * approval; otherwise it completes them, and the resume carries every approval when there were
 * several. With no approver configured (the CLI's `--by` decides), it completes.
 *
 * @example planApproval(request, { kind: "approve", by: "USEC" }, "2026-03-02T09:00:00Z").kind // "partial"
 */
export function planApproval(
  req: DecisionRequest,
  resume: ResumeValue & { kind: "approve" },
  at: string,
): ApprovalPlan {
  const needs = neededApprovals(req.approvers, req.blockingSpecialties);
  if (needs.every((n) => n.ids.length === 0)) return { kind: "complete", resume };
  const given = req.approvals ?? [];
  const step = approvalStep(needs, given, {
    by: resume.by,
    at,
    groups: req.door.groups ?? [],
    ...(resume.note ? { note: resume.note } : {}),
  });
  if (step.kind === "partial")
    return { kind: "partial", approval: step.approval, given: given.length, remaining: step.remaining };
  return { kind: "complete", resume: given.length > 0 ? { ...resume, approvals: step.approvals } : resume };
}

/**
 * Stores a partial approval durably, in one transaction that holds the review's row (waiting →
 * waiting: the cross-process lock) and checks no other approval came in since it was planned.
 * False when the review no longer waits or another approval came first (plan again).
 *
 * @example if (await receivePartial(store, "r-1", plan, "slack")) await publish();
 */
export function receivePartial(
  store: ReviewStore,
  reviewId: string,
  plan: Extract<ApprovalPlan, { kind: "partial" }>,
  door: string,
): Promise<boolean> {
  return store.transaction(async (tx) => {
    if (!(await tx.claim(reviewId, "waiting_for_human", "waiting_for_human"))) return false;
    if ((await givenApprovals(tx, reviewId)).length !== plan.given) return false;
    const open = plan.remaining.map((n) => n.covers);
    await tx.audit(audits.partialApproval(reviewId, plan.approval, door, open));
    return true;
  });
}
