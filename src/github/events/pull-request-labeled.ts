import type { Webhooks } from "@octokit/webhooks";
import { prKey } from "../../domain/pull-request.js";
import { answerRecorded, type DeliveryContexts } from "./delivery.js";
import { PullRequestEventSchema } from "./pull-request-event.js";
import type { WebhookSink } from "./sink.js";

/**
 * `pull_request` labeled: a label added to an open PR is recorded with a `label` job; the job
 * grants the PR's review waiting for a person an emergency pass when the label is the emergency
 * label (docs/operations.md, "Emergency changes"). Other labels, and closed PRs, do nothing.
 */
export function onLabeledPullRequest(
  webhooks: Webhooks,
  labeled: NonNullable<WebhookSink["labeled"]>,
  deliveries: DeliveryContexts,
): void {
  webhooks.on("pull_request.labeled", async ({ payload: raw }) => {
    const delivery = deliveries.of(raw);
    const payload = PullRequestEventSchema.safeParse(raw);
    if (!payload.success || !payload.data.label) {
      delivery.answer = { status: 400, text: "pull_request labeled payload is missing fields" };
      return;
    }
    if (payload.data.pull_request.state !== "open") {
      delivery.log().debug({ action: "labeled" }, "label on a closed pull request ignored");
      return;
    }
    const pr = prKey({ repo: payload.data.repository.full_name, number: payload.data.pull_request.number });
    const label = payload.data.label.name;
    const by = payload.data.sender?.login;
    const { duplicate } = await labeled({ id: delivery.id, event: delivery.event, pr, label, ...(by ? { by } : {}) });
    answerRecorded(delivery, duplicate);
    if (!duplicate) delivery.log().info({ pr, label }, "pull request labeled");
  });
}
