import type { Logger } from "pino";
import { type CurrentGroups, type DecisionDoor, refusalMessage, type Refusal } from "../domain/decision.js";
import type { ResumeValue, ReviewService } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";
import type { GitHubDecisionRequest } from "../github/webhook.js";
import { audits } from "../review/audit-entries.js";
import { authorSlackId } from "../review/decision-policy.js";

/** A GitHub decision: taken (being applied now), or refused by the decision policy (audited) with its one message. */
export type GitHubDecisionOutcome = { refused?: { code: string; message: string } };

/** Decides a review from a click on its check run's Approve or Reject. */
export type DecideFromGitHub = (request: GitHubDecisionRequest) => Promise<GitHubDecisionOutcome>;

/** GitHub waits 10 s for a delivery's answer: a decision not taken by then is not taken at all ("too_late"). */
export const GITHUB_ANSWER_MS = 8000;

/** The note a rejection from GitHub carries: the check run's button takes no reason, unlike the Slack modal. */
export function githubRejectNote(login: string): string {
  return `Rejected on GitHub's check run by @${login}, which takes no reason: ask them why.`;
}

/**
 * Decisions from GitHub's check run, through the same door every decision takes (the review
 * service: the one decision policy, its refusals audited, the durable claim that lets exactly one
 * of a Slack click and a GitHub click win, carry-forward, and the card and check run published
 * after). The person is the Slack id GATE_GITHUB_TO_SLACK gives their login (with the approver
 * groups Slack says they are in now), else the login itself, which is on no approver list. A
 * login that is the PR's author is the author, mapped or not.
 *
 * Resolves as soon as the decision is taken (GitHub waits 10 s at most) or refused; the graph is
 * resumed after, as a Slack click's is.
 *
 * @example const decide = createGitHubDecisions({ service, store, log }); await decide(request);
 */
export function createGitHubDecisions(deps: {
  service: ReviewService;
  store: ReviewStore;
  /** The approver groups a Slack user is in now (Slack wired); none without it. */
  currentGroups?: CurrentGroups;
  log: Logger;
  /** See `GITHUB_ANSWER_MS` (tests shorten it). */
  answerWithinMs?: number;
}): DecideFromGitHub {
  const refuse = async (request: GitHubDecisionRequest, by: string, door: DecisionDoor, refusal: Refusal) => {
    const message = refusalMessage(refusal);
    await deps.store.audit(audits.refused(request.reviewId, { kind: request.kind, by }, door, refusal, message));
    return { refused: { code: refusal.code, message } };
  };

  return async (request) => {
    const approvers = deps.service.approvers;
    const mapped = authorSlackId(request.login, approvers.githubToSlack);
    const by = mapped ?? request.login;
    const review = await deps.service.get(request.reviewId);
    const namesAuthor = review !== undefined && review.author.toLowerCase() === request.login.toLowerCase();
    const groups = mapped && deps.currentGroups ? await deps.currentGroups(mapped, approvers) : [];
    const door: DecisionDoor = {
      kind: "github",
      login: request.login,
      ...(groups.length > 0 ? { groups } : {}),
      ...(namesAuthor ? { namesAuthor } : {}),
    };
    // The check run must be the review's own: the same repository and head as the review it names.
    if (review && (review.repo !== request.repo || review.headSha !== request.headSha)) {
      deps.log.warn(
        { reviewId: review.id, repo: request.repo, headSha: request.headSha },
        "a check run's requested action names a review of another repository or head",
      );
      return refuse(request, by, door, { code: "not_found", reviewId: request.reviewId });
    }
    const resume: ResumeValue =
      request.kind === "approve"
        ? { kind: "approve", by }
        : { kind: "reject", by, note: githubRejectNote(request.login) };
    return new Promise<GitHubDecisionOutcome>((resolve, reject) => {
      // The review may be held by another decision or question being applied: GitHub hears by its
      // deadline either way, and a decision not taken by then is not taken later (as in Slack).
      let taken = false;
      let late = false;
      const timer = setTimeout(() => {
        if (taken) return;
        late = true;
        resolve({
          refused: { code: "too_late", message: refusalMessage({ code: "too_late", reviewId: request.reviewId }) },
        });
      }, deps.answerWithinMs ?? GITHUB_ANSWER_MS);
      const settle = (outcome: GitHubDecisionOutcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      const applying = deps.service.decide(request.reviewId, resume, {
        door,
        take: () => {
          taken = !late;
          return taken;
        },
        // Taken: GitHub hears it now; the decision is applied (and published) after.
        onReceived: async () => settle({}),
      });
      applying.then(
        (outcome) => settle(outcome.ok ? {} : { refused: { code: outcome.code, message: outcome.message } }),
        (error: unknown) => {
          clearTimeout(timer);
          deps.log.error({ err: error, reviewId: request.reviewId }, "applying a decision from GitHub failed");
          reject(error);
        },
      );
    });
  };
}
