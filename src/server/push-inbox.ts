import type { Logger } from "pino";
import type { PushedChange, PushTriage, TriagePush } from "../domain/pushed-change.js";
import type { ReviewJobs } from "../domain/review-jobs.js";
import type { ReviewStore } from "../domain/review-store.js";
import type { ReviewRegistration } from "../domain/store/review-records.js";
import { audits } from "../review/audit-entries.js";
import type { ReviewRunner } from "../review/runner.js";

/** A push's review key: `owner/repo@sha7` of the head it pushed (a push has no pull request number). */
export function pushKey(push: Pick<PushedChange, "repo" | "after">): string {
  return `${push.repo}@${push.after.slice(0, 7)}`;
}

/** The review of a push's commits that came through no merged pull request: the range before..after, one review. */
export function pushRegistration(push: PushedChange, triage: PushTriage): ReviewRegistration {
  const last = triage.unreviewed.at(-1);
  const subject = last?.message.split("\n", 1)[0]?.trim() ?? "";
  return {
    source: {
      kind: "push",
      owner: push.owner,
      repo: push.name,
      branch: push.branch,
      before: push.before,
      headSha: push.after,
      forced: push.forced,
      commits: triage.unreviewed.map((c) => c.sha),
      ...(push.installationId !== undefined ? { installationId: push.installationId } : {}),
    },
    pr: pushKey(push),
    repo: push.repo,
    number: 0,
    headSha: push.after,
    title: `${push.forced ? "Force-pushed" : "Pushed"} to ${push.branch} without a pull request: ${subject}`,
    url: push.compareUrl ?? `https://github.com/${push.repo}/commit/${push.after}`,
    author: push.pusher,
    ...(push.installationId !== undefined ? { installationId: push.installationId } : {}),
    eventAt: push.at,
  };
}

/**
 * The inbox's work for a push: GitHub is asked which of its commits came through a merged pull
 * request (those are the pull request's business: its review passed it, or its merge was marked
 * `merged_unapproved` when it closed). If any did not, one review of the whole range is registered
 * (50 commits make one review, not 50) with the push's audit entry, and its `review` job queued, in
 * one transaction with taking the entry; a second call finds nothing to take. If the job fails
 * before that (no installation token), the entry stays in the inbox, taken up as any unregistered
 * delivery (`recover` on SQLite, the job's next attempt on PostgreSQL).
 */
export async function registerPush(
  deps: { store: ReviewStore; runner: ReviewRunner; jobs: ReviewJobs; log: Logger; triage?: TriagePush },
  deliveryId: string,
  push: PushedChange,
): Promise<void> {
  const triage: PushTriage = deps.triage ? await deps.triage(push) : { unreviewed: push.commits, viaPullRequest: [] };
  const log = deps.log.child({ deliveryId, repo: push.repo, branch: push.branch, after: push.after });
  const registered = await deps.store.transaction(async (tx) => {
    if (!(await tx.takeFromInbox(deliveryId))) return "taken" as const;
    if (triage.unreviewed.length === 0) return undefined;
    const review = await deps.runner.register(pushRegistration(push, triage), tx);
    await tx.audit(audits.pushReceived(review.id, push, triage));
    await deps.jobs.enqueue({ kind: "review", reviewId: review.id }, tx);
    return review;
  });
  if (registered === "taken") return;
  if (registered)
    log.info(
      { reviewId: registered.id, commits: triage.unreviewed.length, forced: push.forced },
      "changed without review: the push is reviewed after the fact",
    );
  else
    log.info(
      { viaPullRequest: triage.viaPullRequest.length },
      "every commit of the push came through a merged pull request",
    );
}
