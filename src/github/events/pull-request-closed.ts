import type { Webhooks } from "@octokit/webhooks";
import { prKey } from "../../domain/pull-request.js";
import { answerRecorded, type DeliveryContexts } from "./delivery.js";
import { PullRequestEventSchema } from "./pull-request-event.js";
import type { WebhookSink } from "./sink.js";

/**
 * `pull_request` closed or merged: the sink ends the PR's open reviews without a decision, or, for
 * a merge, marks the merged head's review merged without approval if it had not let it pass.
 */
export function onClosedPullRequest(
  webhooks: Webhooks,
  closed: NonNullable<WebhookSink["closed"]>,
  deliveries: DeliveryContexts,
): void {
  webhooks.on("pull_request.closed", async ({ payload: raw }) => {
    const delivery = deliveries.of(raw);
    const payload = PullRequestEventSchema.safeParse(raw);
    if (!payload.success) {
      delivery.answer = { status: 400, text: "pull_request payload is missing fields" };
      return;
    }
    const pr = prKey({ repo: payload.data.repository.full_name, number: payload.data.pull_request.number });
    const p = payload.data.pull_request;
    const merge = p.merged
      ? {
          by: p.merged_by?.login ?? "unknown",
          at: p.merged_at ?? new Date().toISOString(),
          headSha: p.head.sha,
          ...(p.merge_commit_sha ? { commitSha: p.merge_commit_sha } : {}),
          ...(p.user ? { author: p.user.login } : {}),
          branch: p.base.ref,
          ...(payload.data.repository.default_branch ? { defaultBranch: payload.data.repository.default_branch } : {}),
        }
      : undefined;
    const { duplicate } = await closed({ id: delivery.id, event: delivery.event, pr, ...(merge ? { merge } : {}) });
    answerRecorded(delivery, duplicate);
    if (!duplicate)
      delivery
        .log()
        .info({ pr, ...(merge ? { mergedBy: merge.by } : {}) }, merge ? "pull request merged" : "pull request closed");
  });
}
