import type { ApproverConfig } from "../domain/decision.js";
import { SPECIALTIES, type Specialty } from "../domain/finding.js";
import type { Approval, ApprovalNeed, Coverage } from "../domain/review-result.js";

/**
 * The approvals a review needs, one per blocking specialty: from that specialty's approvers when
 * it has a list, else from the general approvers (GATE_APPROVERS). With no blocking finding (a
 * review escalated for a timeout or a disagreement), one approval from the general approvers.
 * As required reviewers work for code owners: one person may give several, several people one each.
 *
 * @example neededApprovals({ approvers: ["UGEN"], bySpecialty: { security: ["USEC"] } }, ["security", "licensing"])
 * // [{ covers: "security", from: "security", ids: ["USEC"] }, { covers: "licensing", from: "general", ids: ["UGEN"] }]
 */
export function neededApprovals(config: ApproverConfig, blockingSpecialties: readonly Specialty[]): ApprovalNeed[] {
  const blocking = SPECIALTIES.filter((s) => blockingSpecialties.includes(s));
  if (blocking.length === 0) return [{ covers: "general", from: "general", ids: config.approvers }];
  return blocking.map((s) => {
    const own = config.bySpecialty?.[s] ?? [];
    return own.length > 0
      ? { covers: s, from: s, ids: own }
      : { covers: s, from: "general" as const, ids: config.approvers };
  });
}

/** Whether a person (a Slack id or `--by` name, and the user groups they are in) is on a list. */
export function isOnList(ids: readonly string[], by: string, groups: readonly string[] = []): boolean {
  return ids.includes(by) || groups.some((g) => ids.includes(g));
}

/**
 * What a person's Approve would cover: the needs whose list they are on and that no earlier
 * approval covered yet.
 *
 * @example newCoverage(needs, "USEC", [], []) // ["security"]
 */
export function newCoverage(
  needs: readonly ApprovalNeed[],
  by: string,
  groups: readonly string[],
  given: readonly Approval[],
): Coverage[] {
  const done = new Set(given.flatMap((a) => a.covers));
  return needs.filter((n) => !done.has(n.covers) && isOnList(n.ids, by, groups)).map((n) => n.covers);
}

/** The needs no approval covers yet. */
export function stillNeeded(needs: readonly ApprovalNeed[], given: readonly Approval[]): ApprovalNeed[] {
  const done = new Set(given.flatMap((a) => a.covers));
  return needs.filter((n) => !done.has(n.covers));
}

/**
 * What an allowed Approve does: completes the review's approvals (the graph is resumed, with every
 * approval when there were several), or adds one of them (the review keeps waiting for the rest).
 *
 * @example approvalStep(needs, given, { by: "USEC", at, groups: [] }).kind // "partial"
 */
export function approvalStep(
  needs: readonly ApprovalNeed[],
  given: readonly Approval[],
  mine: { by: string; at: string; groups: readonly string[]; note?: string },
): { kind: "complete" | "partial"; approval: Approval; approvals: Approval[]; remaining: ApprovalNeed[] } {
  const approval: Approval = {
    by: mine.by,
    at: mine.at,
    covers: newCoverage(needs, mine.by, mine.groups, given),
    ...(mine.note ? { note: mine.note } : {}),
  };
  const approvals = [...given, approval];
  const remaining = stillNeeded(needs, approvals);
  return { kind: remaining.length === 0 ? "complete" : "partial", approval, approvals, remaining };
}
