import {
  type ApproverConfig,
  type AttemptKind,
  type DecisionDoor,
  isAfterMerge,
  type Refusal,
} from "../domain/decision.js";
import type { Specialty } from "../domain/finding.js";
import type { AfterTheFact, Approval, ApprovalNeed, Decision, ReviewStatus } from "../domain/review-result.js";
import { investigationRefusal, type BudgetState } from "../graph/budget.js";
import { isOnList, neededApprovals, newCoverage, stillNeeded } from "./specialty-approvals.js";

/** Everything the decision policy looks at: who asks, through which door, and the review as it stands. */
export interface DecisionRequest {
  kind: AttemptKind;
  /** Who decides: a Slack user id, or the CLI's `--by` (a GitHub login or a person's name). */
  by: string;
  door: DecisionDoor;
  review: { id: string; pr: string; status: ReviewStatus; author: string; supersededBy?: string; source?: string };
  /** The decision already made, if any. */
  decision?: Decision;
  /** On a review merged without approval: the decision already recorded after the fact, if any. */
  afterTheFact?: AfterTheFact;
  /** Specialties with at least one blocking finding on the review. */
  blockingSpecialties: readonly Specialty[];
  /** Approvals given so far while the review waits for several approvers (per specialty). */
  approvals?: readonly Approval[];
  /** Investigation cycles and money: used and allowed. */
  budget: BudgetState;
  /** Whether the graph waits at the human gate (false when the review failed closed before it). */
  gatePending: boolean;
  approvers: ApproverConfig;
}

/**
 * Whether a decision may be made: the one rule every door applies (the runner before it resumes
 * the graph, Slack before it opens a modal, `gate decide`). Pure. Checked in this order: where
 * (a Slack click must come from the review's own card), whether (the review waits for a person: not superseded, not decided, not running), who (never
 * the PR's author; an approver, per specialty when a blocking finding's specialty has a list),
 * and with what budget (a question needs investigation cycles and money left, and a gate to
 * resume). Undefined when the decision may be made.
 *
 * @example decisionRefusal({ ...request, by: "octocat" }) // { code: "not_allowed", pr: "acme/web#12", why: "you opened this pull request, …" }
 */
export function decisionRefusal(req: DecisionRequest): Refusal | undefined {
  const { review } = req;
  // A Slack click from another card than the review's own (a tampered button value) decides nothing.
  if (req.door.kind === "slack" && req.door.fromReviewCard === false)
    return { code: "wrong_card", reviewId: review.id };
  if (review.status === "superseded" || review.supersededBy !== undefined) {
    return { code: "superseded", reviewId: review.id, ...(review.supersededBy ? { by: review.supersededBy } : {}) };
  }
  if (review.status === "closed") return { code: "closed", pr: review.pr };
  // Merged past the gate: only a decision after the fact, once, by the same people a decision needed.
  if (review.status === "merged_unapproved") return afterMergeRefusal(req);
  if (isAfterMerge(req.kind)) return { code: "not_merged", reviewId: review.id };
  if (req.decision || review.status === "done") {
    return { code: "already_decided", reviewId: review.id, ...(req.decision ? { decision: req.decision } : {}) };
  }
  if (review.status !== "waiting_for_human") return { code: "not_waiting", reviewId: review.id, status: review.status };
  const why = whyNotAllowed(req);
  if (why) return { code: "not_allowed", pr: review.pr, why };
  if (req.kind === "info") {
    const spent = investigationRefusal(req.budget);
    if (spent) return { code: "budget_spent", spent };
    if (!req.gatePending) return { code: "cannot_investigate", reviewId: review.id };
  }
  return undefined;
}

/**
 * The Slack id GATE_GITHUB_TO_SLACK gives a GitHub login. Logins are case-insensitive; own keys
 * only (a login such as "constructor" is no mapping).
 *
 * @example authorSlackId("OctoCat", { octocat: "U123" }) // "U123"
 */
export function authorSlackId(login: string, loginMap: Record<string, string> | undefined): string | undefined {
  const wanted = login.toLowerCase();
  return Object.entries(loginMap ?? {}).find(([l]) => l.toLowerCase() === wanted)?.[1];
}

/**
 * Whether the person deciding is the PR's author: their name is the author's login (in any
 * case), the login map gives the author their Slack id, or the door recognised them (a Slack
 * profile naming the author's GitHub account).
 */
export function isPrAuthor(
  by: string,
  door: DecisionDoor,
  author: string,
  loginMap: Record<string, string> | undefined,
): boolean {
  if (door.namesAuthor) return true;
  if (author === "") return false;
  return by.toLowerCase() === author.toLowerCase() || authorSlackId(author, loginMap) === by;
}

/**
 * Whether a person may re-run a review from Slack (a new review of the same head; it can pass
 * nothing by itself, but it spends model budget): anyone on an approver list, never the PR's
 * author, and not once the PR is closed. Undefined when they may.
 *
 * @example rerunRefusal({ by: "U1", door: { kind: "slack" }, review, approvers }) // undefined for an approver
 */
export function rerunRefusal(req: {
  by: string;
  door: DecisionDoor;
  review: { id: string; pr: string; status: ReviewStatus; author: string };
  approvers: ApproverConfig;
}): Refusal | undefined {
  const { review, approvers: config, door } = req;
  if (door.kind === "slack" && door.fromReviewCard === false) return { code: "wrong_card", reviewId: review.id };
  if (review.status === "closed") return { code: "closed", pr: review.pr };
  if (isPrAuthor(req.by, door, review.author, config.githubToSlack)) {
    return {
      code: "not_allowed",
      pr: review.pr,
      why: "you opened this pull request, and its author cannot re-run its review",
    };
  }
  const everyone = [...config.approvers, ...Object.values(config.bySpecialty ?? {}).flat()];
  const groups = door.groups ?? [];
  if (everyone.includes(req.by) || groups.some((g) => everyone.includes(g))) return undefined;
  return { code: "not_allowed", pr: review.pr, why: "only approvers may re-run a review" };
}

/** One list a person must be on to decide: a specialty's approvers, or the general approvers. */
export interface DeciderList {
  /** The blocking specialty whose list this is; absent for GATE_APPROVERS. */
  specialty?: Specialty;
  /** Slack user ids and user-group ids. */
  ids: readonly string[];
}

/**
 * Who may decide on a review with these blocking specialties: one list per approval it needs (see
 * `neededApprovals`: each blocking specialty's own approvers, else the general approvers). Empty
 * when no one is configured. The Slack surface mentions these lists, `/gate list` names them.
 *
 * @example deciderLists({ approvers: ["S1"], bySpecialty: { licensing: ["U2"] } }, ["licensing"]) // [{ specialty: "licensing", ids: ["U2"] }]
 */
export function deciderLists(config: ApproverConfig, blockingSpecialties: readonly Specialty[]): DeciderList[] {
  return neededApprovals(config, blockingSpecialties)
    .filter((n) => n.ids.length > 0)
    .map((n) => (n.covers === "general" ? { ids: n.ids } : { specialty: n.covers, ids: n.ids }));
}

/** "licensing (the general approvers)", "security": a need as a refusal or a card names it. */
export function describeNeed(need: ApprovalNeed): string {
  if (need.covers === "general") return "an approval from the general approvers";
  return need.from === "general" ? `${need.covers} (the general approvers)` : need.covers;
}

/**
 * A decision after the fact on a review merged without approval: refused at the gate's buttons,
 * or once one is recorded; otherwise judged by who may decide, as at the gate (never the author,
 * an approver on a list the review needs: marking an incident as a rejection is, approving after
 * the fact as one approval is).
 */
function afterMergeRefusal(req: DecisionRequest): Refusal | undefined {
  const { review } = req;
  if (!isAfterMerge(req.kind) || req.afterTheFact)
    return { code: "merged", pr: review.pr, ...(req.afterTheFact ? { afterTheFact: req.afterTheFact } : {}) };
  const why = whyNotAllowed({ ...req, kind: req.kind === "incident" ? "reject" : "approve", approvals: [] });
  return why ? { code: "not_allowed", pr: review.pr, why } : undefined;
}

function whyNotAllowed(req: DecisionRequest): string | undefined {
  const { approvers: config, door } = req;
  if (isPrAuthor(req.by, door, req.review.author, config.githubToSlack)) {
    return req.review.source === "push"
      ? "you pushed this change, and its author can never decide on it"
      : "you opened this pull request, and its author can never decide on it";
  }
  const configured = Object.values(config.bySpecialty ?? {}).filter((l) => l.length > 0);
  // The CLI with no approver configured at all: the person named by --by decides.
  if (door.kind === "cli" && config.approvers.length === 0 && configured.length === 0) return undefined;
  const groups = door.groups ?? [];
  const needs = neededApprovals(config, req.blockingSpecialties);
  if (needs.every((n) => n.ids.length === 0))
    return "no approvers are configured for this gate, so nobody may decide (it fails closed)";
  // Anyone entitled to decide one of the blocking specialties may reject or ask; an approval must cover one still open.
  if (!needs.some((n) => isOnList(n.ids, req.by, groups))) {
    const own = needs.flatMap((n) => (n.from === "general" ? [] : [n.covers]));
    if (own.length === 0) return "you are not among the configured approvers";
    const general = needs.some((n) => n.from === "general") ? " or the general approvers" : "";
    const blocking = needs.map((n) => n.covers).join(" and ");
    return `this review has blocking ${blocking} findings, and you are not among the ${own.join("/")} approvers${general}`;
  }
  if (req.kind !== "approve") return undefined;
  const nobody = needs.filter((n) => n.ids.length === 0).map((n) => n.covers);
  if (nobody.length > 0)
    return `its blocking ${nobody.join(" and ")} findings need the general approvers, and none are configured, so it cannot be approved (it fails closed)`;
  const given = req.approvals ?? [];
  if (newCoverage(needs, req.by, groups, given).length > 0) return undefined;
  const open = stillNeeded(needs, given).map(describeNeed).join(" and ");
  return `what you may approve is approved already; it still waits for ${open}`;
}
