import type { GitHubDecisionRequest } from "./decision-request.js";
import type { PrMerge } from "../../domain/review-jobs.js";
import type { PushedChange } from "../../domain/pushed-change.js";
import type { PullRequestEvent } from "./pull-request-event.js";
import type { RerunRequest } from "./rerun-request.js";

/** One verified delivery the gate should review. */
export interface WebhookDelivery {
  /** `X-GitHub-Delivery`: the de-duplication key. */
  id: string;
  /** `X-GitHub-Event`, always "pull_request" here. */
  event: string;
  action?: string;
  /** The PR is a draft: passed through, the caller decides whether drafts are reviewed. */
  draft: boolean;
  payload: PullRequestEvent;
}

/** A pull request's merge, as its `pull_request` `closed` delivery says it. */
export type PullRequestMerge = PrMerge;

/** What became of a delivery: a redelivery of one recorded before (GitHub redelivers), or recorded now. */
export type Recorded = { duplicate: boolean };

/** A decision request recorded: taken (being applied), or refused by the decision policy (audited). */
export type DecisionRecorded = Recorded & { refused?: { code: string; message: string } };

/**
 * Where verified deliveries go (the store records them with the job each calls for). Each method
 * records the delivery and acts on it in one transaction, unless its id was recorded before: the
 * same transaction says which. Each must be quick (GitHub waits 10 s at most).
 */
export interface WebhookSink {
  /** Records the delivery with the review it asks for (registered after the answer: the `review queued` line names both). */
  accept(delivery: WebhookDelivery): Recorded | Promise<Recorded>;
  /**
   * A pull request was closed: its open reviews end without a decision. Merged (`merge`): a review
   * that had not let the merged head pass ends `merged_unapproved` (docs/operations.md).
   */
  closed?(delivery: { id: string; event: string; pr: string; merge?: PullRequestMerge }): Recorded | Promise<Recorded>;
  /**
   * A label added to an open pull request (`pull_request` `labeled`): the emergency label applies
   * to the PR's review waiting for a person (docs/operations.md, "Emergency changes").
   */
  labeled?(delivery: {
    id: string;
    event: string;
    pr: string;
    label: string;
    by?: string;
  }): Recorded | Promise<Recorded>;
  /**
   * A push to a watched branch: recorded with the push in the inbox; its commits are looked up
   * after the answer, and those with no merged pull request are reviewed after the fact.
   */
  pushed?(delivery: { id: string; event: string; push: PushedChange }): Recorded | Promise<Recorded>;
  /** GitHub's "Re-run" on the gate's check run, or on the whole check suite. */
  rerun?(request: RerunRequest): Recorded | Promise<Recorded>;
  /**
   * A click on the check run's Approve or Reject: decided through the one decision path, as a
   * Slack click is. Resolves once the decision is taken (stored durably) or refused; it is applied after.
   */
  decide?(request: GitHubDecisionRequest): DecisionRecorded | Promise<DecisionRecorded>;
}
