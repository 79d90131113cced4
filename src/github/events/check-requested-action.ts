import type { Webhooks } from "@octokit/webhooks";
import type { DeliveryContexts } from "./delivery.js";
import { decisionRequest } from "./decision-request.js";
import type { WebhookSink } from "./sink.js";

/**
 * A click on the gate's check run's **Approve** or **Reject** (`check_run` `requested_action`):
 * the sink records the delivery and decides through the one decision path. GitHub hears 202 once
 * the decision is taken, 200 with the refusal when it is not (the refusal is audited), 200
 * "duplicate" for a redelivery, 400 for a payload the gate cannot read (nothing is stored).
 */
export function onCheckRequestedAction(
  webhooks: Webhooks,
  decide: NonNullable<WebhookSink["decide"]>,
  deliveries: DeliveryContexts,
): void {
  webhooks.on("check_run.requested_action", async ({ payload: raw }) => {
    const delivery = deliveries.of(raw);
    const request = decisionRequest(delivery.id, raw);
    if (!request) {
      delivery.log().warn("requested_action payload lacks fields the gate reads, or names an action it does not offer");
      delivery.answer = {
        status: 400,
        text: "check_run requested_action payload is missing fields or names an unknown action",
      };
      return;
    }
    const log = delivery.log().child({ reviewId: request.reviewId, login: request.login, kind: request.kind });
    const outcome = await decide(request);
    if (outcome.duplicate) {
      delivery.answer = { status: 200, text: "duplicate" };
      log.info("duplicate webhook delivery");
    } else if (outcome.refused) {
      delivery.answer = { status: 200, text: `refused: ${outcome.refused.message}` };
      log.info({ code: outcome.refused.code }, "github decision refused");
    } else {
      delivery.answer = { status: 202, text: "accepted" };
      log.info("github decision taken");
    }
  });
}
