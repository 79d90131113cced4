import type { Webhooks } from "@octokit/webhooks";
import { answerRecorded, type DeliveryContexts } from "./delivery.js";
import { rerunRequest } from "./rerun-request.js";
import type { WebhookSink } from "./sink.js";

/** GitHub's "Re-run" on the gate's check run (`check_run`) or on all checks (`check_suite`). */
export function onCheckRerequested(
  webhooks: Webhooks,
  rerun: NonNullable<WebhookSink["rerun"]>,
  deliveries: DeliveryContexts,
): void {
  webhooks.on(["check_run.rerequested", "check_suite.rerequested"], async ({ name, payload: raw }) => {
    const delivery = deliveries.of(raw);
    const request = rerunRequest(name, delivery.id, raw);
    if (!request) {
      delivery.log().warn({ event: name }, "rerequested payload lacks fields the gate reads");
      delivery.answer = { status: 400, text: `${name} payload is missing fields` };
      return;
    }
    const { duplicate } = await rerun(request);
    answerRecorded(delivery, duplicate);
    if (!duplicate) delivery.log().info({ repo: request.repo, headSha: request.headSha }, "re-run requested");
  });
}
