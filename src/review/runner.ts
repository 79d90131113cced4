import type { AfterMergeKind, ApproverConfig, AttemptKind, CurrentGroups, DecisionDoor } from "../domain/decision.js";
import type { PrMerge } from "../domain/review-jobs.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { CheckOutcome, DecideOutcome, ResumeValue, ReviewRecord, ReviewService } from "../domain/review.js";
import type { ReviewRegistration, ReviewStore } from "../domain/review-store.js";
import { type DecideOptions, ReviewDecisions } from "./decisions.js";
import { ReviewEmergencies } from "./emergencies.js";
import { ReviewLifecycle } from "./lifecycle.js";
import { ReviewRecovery } from "./recovery.js";
import { ReviewRun } from "./run.js";
import { type RunnerDeps, ReviewWork } from "./review-work.js";

export { newReviewId } from "./run.js";
export type { RunnerDeps } from "./review-work.js";
export type { ReviewRegistration };

/**
 * Runs reviews through the graph and has what the graph concluded published: the one door to
 * the review machinery, each use case in its own file sharing one `ReviewWork` (one lock per
 * review, one publishing, one context carried through a step): `run.ts` (register, announce,
 * run), `decisions.ts` (check, decide), `lifecycle.ts` (supersede, close, re-run),
 * `recovery.ts` (restart, unapplied decisions, unpublished results, hand-over).
 *
 * @example const review = await runner.register({ source, repo, number, headSha }); await runner.run(review.id);
 */
export class ReviewRunner implements ReviewService {
  private readonly work: ReviewWork;
  private readonly runs: ReviewRun;
  private readonly decisions: ReviewDecisions;
  private readonly lifecycle: ReviewLifecycle;
  private readonly recovery: ReviewRecovery;
  private readonly emergencies: ReviewEmergencies;

  constructor(deps: RunnerDeps) {
    this.work = new ReviewWork(deps);
    this.runs = new ReviewRun(this.work);
    this.decisions = new ReviewDecisions(this.work);
    this.lifecycle = new ReviewLifecycle(this.work, this.runs);
    this.recovery = new ReviewRecovery(this.work, this.runs, this.decisions);
    this.emergencies = new ReviewEmergencies(this.work);
  }

  get approvers(): ApproverConfig {
    return this.work.approvers;
  }

  /** Registers a review as queued, with its audit entry; `tx` when it is part of a larger transaction. */
  register(input: ReviewRegistration, tx?: ReviewStore): Promise<ReviewRecord> {
    return this.runs.register(input, tx);
  }

  get(reviewId: string): Promise<ReviewRecord | undefined> {
    return this.work.store.get(reviewId);
  }

  listWaiting(): Promise<ReviewRecord[]> {
    return this.work.store.withStatus("waiting_for_human");
  }

  /** See `ReviewRun.announce`. */
  announce(reviewId: string): Promise<void> {
    return this.runs.announce(reviewId);
  }

  /** Runs a registered review until it finishes or waits for a person. Never throws for a review's own failure. */
  run(reviewId: string): Promise<ReviewResult> {
    return this.runs.run(reviewId);
  }

  /** Whether a person may make a decision now, by the one decision policy; a refusal is audited. */
  check(reviewId: string, attempt: { kind: AttemptKind; by: string }, door: DecisionDoor): Promise<CheckOutcome> {
    return this.decisions.check(reviewId, attempt, door);
  }

  /** Applies a person's decision or question. Exactly one of concurrent calls resumes the graph. */
  decide(reviewId: string, resume: ResumeValue, opts?: DecideOptions): Promise<DecideOutcome> {
    return this.decisions.decide(reviewId, resume, opts);
  }

  /** See `ReviewDecisions.decideAfterMerge`. */
  decideAfterMerge(
    reviewId: string,
    decision: { kind: AfterMergeKind; by: string; note?: string },
    opts?: { door?: DecisionDoor },
  ): Promise<DecideOutcome> {
    return this.decisions.decideAfterMerge(reviewId, decision, opts);
  }

  /** The current result of a review id or of the newest review of `owner/repo#n`. */
  async status(ref: string): Promise<ReviewResult | undefined> {
    const review = (await this.work.store.get(ref)) ?? (await this.work.store.latestForPr(ref));
    return review ? this.result(review.id) : undefined;
  }

  /** Builds the result from the graph's checkpointed state and the review's record. */
  async result(reviewId: string): Promise<ReviewResult> {
    return (await this.work.context(reviewId)).result();
  }

  /** See `ReviewLifecycle.supersedeOlder`. */
  supersedeOlder(pr: string, newHeadSha: string, newId?: string): Promise<ReviewRecord[]> {
    return this.lifecycle.supersedeOlder(pr, newHeadSha, newId);
  }

  /** See `ReviewLifecycle.closePr`. */
  closePr(pr: string): Promise<ReviewRecord[]> {
    return this.lifecycle.closePr(pr);
  }

  /** See `ReviewLifecycle.mergePr`. */
  mergePr(pr: string, merge: Omit<PrMerge, "headSha"> & { headSha?: string }): Promise<ReviewRecord[]> {
    return this.lifecycle.mergePr(pr, merge);
  }

  /** See `ReviewEmergencies.labelPr`. */
  labelPr(pr: string, label: string, by?: string): Promise<string[]> {
    return this.emergencies.labelPr(pr, label, by);
  }

  /** See `ReviewEmergencies.sweep`. */
  sweepEmergencies(): Promise<number> {
    return this.emergencies.sweep();
  }

  /** See `ReviewLifecycle.registerRerun`. */
  registerRerun(reviewId: string, by: string, tx?: ReviewStore): Promise<ReviewRecord> {
    return this.lifecycle.registerRerun(reviewId, by, tx);
  }

  /** See `ReviewLifecycle.supersedeForRerun`. */
  supersedeForRerun(fresh: ReviewRecord): Promise<void> {
    return this.lifecycle.supersedeForRerun(fresh);
  }

  /** See `ReviewRecovery.recover`. */
  recover(): Promise<{ resumed: number; republished: number; applied: number }> {
    return this.recovery.recover();
  }

  /** See `ReviewRecovery.finishReceived`. */
  finishReceived(reviewId: string): Promise<number> {
    return this.recovery.finishReceived(reviewId);
  }

  /**
   * Publishes every review through these publishers from now on: the server adds GitHub's check
   * run and Slack's card once the gate (and the store they remember things in) is built.
   */
  publishWith(publishersFor: RunnerDeps["publishersFor"]): void {
    this.work.publishing.use(publishersFor);
  }

  /**
   * Judges decisions carried to a new head with the approver groups their makers are in now, as
   * Slack says (the server, once Slack is wired); without it a decision only a group allowed does not carry.
   */
  groupsFrom(currentGroups: CurrentGroups): void {
    this.work.deps.currentGroups = currentGroups;
  }

  /** Publishes the review's last saved result again (see `ReviewPublishing.publish`). */
  publish(reviewId: string): Promise<void> {
    return this.work.publishing.publish(reviewId);
  }

  /** See `ReviewRecovery.publishIfUnpublished`. */
  publishIfUnpublished(reviewId: string): Promise<boolean> {
    return this.recovery.publishIfUnpublished(reviewId);
  }

  /** See `ReviewRecovery.handToPerson`. */
  handToPerson(reviewId: string, why: string): Promise<void> {
    return this.recovery.handToPerson(reviewId, why);
  }
}
