import type { Webhooks } from "@octokit/webhooks";
import { prKey } from "../../domain/pull-request.js";
import { answerRecorded, type DeliveryContexts } from "./delivery.js";
import { PullRequestEventSchema } from "./pull-request-event.js";
import type { WebhookSink } from "./sink.js";

/** `pull_request` closed or merged: the sink ends the PR's open reviews without a decision. */
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
    const { duplicate } = await closed({ id: delivery.id, event: delivery.event, pr });
    answerRecorded(delivery, duplicate);
    if (!duplicate) delivery.log().info({ pr }, "pull request closed");
  });
}
