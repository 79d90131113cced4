import type { Specialty } from "./finding.js";
import type { AfterTheFact, Decision, ReviewStatus, Route } from "./review-result.js";

/** A decision recorded after the PR was merged without approval: approve it after the fact, or mark it as an incident. */
export type AfterMergeKind = "approve_after_merge" | "incident";

/** What a person may try on a review: a decision or question at the gate, or a decision after a merge past it. */
export type AttemptKind = "approve" | "reject" | "info" | AfterMergeKind;

/**
 * Whether an attempt is a decision after a merge past the gate.
 *
 * @example isAfterMerge("incident") // true
 */
export function isAfterMerge(kind: AttemptKind): kind is AfterMergeKind {
  return kind === "approve_after_merge" || kind === "incident";
}

/**
 * Who may decide: Slack user ids (U…/W…) and user-group ids (S…), read once from the settings.
 * The same rules hold at every door (Slack, `gate decide`).
 */
export interface ApproverConfig {
  approvers: string[];
  /** When a specialty with a blocking finding has a list here, deciders must be in that list. */
  bySpecialty?: Partial<Record<Specialty, string[]>>;
  /** GitHub login → Slack user id, to recognise the PR author when a Slack id decides. */
  githubToSlack?: Record<string, string>;
}

/**
 * The door a decision comes through, and what that door knows about the person.
 * - `slack`: the person is a Slack user the request's signature vouches for. Open to a whole
 *   workspace, so with no approver configured nobody may decide (it fails closed).
 * - `cli`: `gate decide --by NAME`, run by someone with the gate's database in hand. With no
 *   approver configured the named person decides; with approver lists, `--by` must be on them.
 * - `github`: a requested action ("Approve"/"Reject") on the review's own check run, from the
 *   GitHub user the delivery's signature vouches for, named by the Slack id GATE_GITHUB_TO_SLACK
 *   gives their login (else by the login, on no list). As Slack: with no approver configured,
 *   nobody may decide.
 */
export interface DecisionDoor {
  kind: "slack" | "cli" | "github";
  /** GitHub: the login that asked (`sender.login`), for the audit log. */
  login?: string;
  /** Slack, and GitHub for a mapped login: the user groups (S…) the person belongs to, among those the approver lists name. */
  groups?: readonly string[];
  /** Slack: the person's profile names the PR author's GitHub account; GitHub: the login is the author's. */
  namesAuthor?: boolean;
  /**
   * Slack: whether the click (or the modal it opened) came from the card recorded for the review
   * its button names. False for another card: a tampered button value must not decide one review
   * and rewrite another PR's card.
   */
  fromReviewCard?: boolean;
}

/**
 * The user groups (S…), among those `approvers` names, that a Slack user is in now (Slack's
 * `usergroups.users.list`, through the gate's one cache): what an earlier decision carried to a
 * new head is judged with, so that someone taken out of an approver group since does not carry.
 */
export type CurrentGroups = (userId: string, approvers: ApproverConfig) => Promise<string[]>;

/** Why a decision was not applied. */
export type DecideRefusal =
  | "invalid"
  | "not_found"
  | "not_waiting"
  | "already_decided"
  | "superseded"
  | "closed"
  | "busy"
  | "budget_spent"
  | "cannot_investigate"
  | "not_allowed"
  | "wrong_card"
  | "too_late"
  | "already_running"
  | "replayed"
  | "merged"
  | "not_merged";

/** A refused decision: its code and the facts its message is made of. Plain JSON. */
export type Refusal =
  | { code: "invalid" }
  | { code: "not_found"; reviewId: string }
  | { code: "superseded"; reviewId: string; by?: string }
  | { code: "closed"; pr: string }
  | { code: "already_decided"; reviewId: string; decision?: Decision }
  | { code: "not_waiting"; reviewId: string; status: ReviewStatus }
  | { code: "busy"; reviewId: string }
  | { code: "not_allowed"; pr: string; why: string }
  | { code: "budget_spent"; spent: string }
  | { code: "cannot_investigate"; reviewId: string }
  | { code: "wrong_card"; reviewId: string }
  | { code: "too_late"; reviewId: string }
  /** A re-run asked while a review of the same head is queued or running. */
  | { code: "already_running"; pr: string; reviewId: string }
  /** A Slack request seen before (the same signed request, or the same trigger and action). */
  | { code: "replayed"; reviewId: string }
  /** The PR was merged without approval: only a decision after the fact is taken, once. */
  | { code: "merged"; pr: string; afterTheFact?: AfterTheFact }
  /** A decision after the fact on a review whose PR was not merged past the gate. */
  | { code: "not_merged"; reviewId: string };

/** How a door shows people and dates (Slack mentions them; the terminal prints them). */
export interface RefusalStyle {
  person(id: string): string;
  date(iso: string): string;
}

/** People and dates as they are. */
export const PLAIN_STYLE: RefusalStyle = { person: (id) => id, date: (iso) => iso };

/**
 * The one wording of each refusal, shown at every door (Slack only renders people and dates as
 * mentions). Each says what to do, or that nothing was changed.
 *
 * @example refusalMessage({ code: "busy", reviewId: "r-1" }) // "Review r-1 is being decided by someone else; nothing was changed."
 */
export function refusalMessage(refusal: Refusal, style: RefusalStyle = PLAIN_STYLE): string {
  switch (refusal.code) {
    case "invalid":
      return "Unknown decision: approve, reject or info (with a question); nothing was changed.";
    case "not_found":
      return `No review ${refusal.reviewId} was found; nothing was changed.`;
    case "superseded":
      return `This review was superseded by ${refusal.by ?? "a newer push"}; nothing was changed.`;
    case "closed":
      return `${refusal.pr} was closed, so its review ended without a decision; nothing was changed. Reopening it starts a new review.`;
    case "already_decided": {
      const d = refusal.decision;
      if (!d) return `Review ${refusal.reviewId} is already done; nothing was changed.`;
      return `Already decided: ${d.kind === "approve" ? "approved" : "rejected"} by ${style.person(d.by)} at ${style.date(d.at)}; nothing was changed.`;
    }
    case "not_waiting":
      return refusal.status === "running"
        ? "This review is running (a decision or an investigation is being applied), not waiting for a decision; nothing was changed. Try again in a moment."
        : `This review is ${refusal.status.replace(/_/g, " ")}, not waiting for a decision; nothing was changed.`;
    case "busy":
      return `Review ${refusal.reviewId} is being decided by someone else; nothing was changed.`;
    case "not_allowed":
      return `You may not decide on ${refusal.pr}: ${refusal.why}. Nothing was changed.`;
    case "budget_spent":
      return `The investigation budget of this review is spent (${refusal.spent}): approve or reject.`;
    case "cannot_investigate":
      return `Review ${refusal.reviewId} could not finish, so no question can be investigated: approve or reject.`;
    case "wrong_card":
      return `This card is not the card of review ${refusal.reviewId}; nothing was changed.`;
    case "already_running":
      return `A review of ${refusal.pr} at this head is already queued or running (review ${refusal.reviewId}); nothing was changed.`;
    case "replayed":
      return `This request was already received for review ${refusal.reviewId}; nothing was changed.`;
    case "too_late":
      return "The gate could not take your decision in time; nothing was changed. Try again in a moment.";
    case "merged": {
      const a = refusal.afterTheFact;
      if (a)
        return `Already recorded after the fact: ${a.kind === "approve" ? "approved" : "marked as an incident"} by ${style.person(a.by)} at ${style.date(a.at)}; nothing was changed.`;
      return `${refusal.pr} was merged without approval; only a decision after the fact can be recorded (Approve after the fact, or Mark as incident). Nothing was changed.`;
    }
    case "not_merged":
      return `Review ${refusal.reviewId} was not merged without approval, so there is nothing to decide after the fact; nothing was changed.`;
  }
}

/**
 * The route a person's decision ends a review on.
 *
 * @example routeOfDecision("approve") // "human_approved"
 */
export function routeOfDecision(kind: Decision["kind"]): Route {
  return kind === "approve" ? "human_approved" : "human_rejected";
}
