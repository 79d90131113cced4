import type { Webhooks } from "@octokit/webhooks";
import { prKey } from "../../domain/pull-request.js";
import { answerRecorded, type DeliveryContexts } from "./delivery.js";
import { PullRequestEventSchema } from "./pull-request-event.js";
import type { WebhookSink } from "./sink.js";

export { type PullRequestEvent, PullRequestEventSchema } from "./pull-request-event.js";

/** The pull_request events that start a review (and `edited`, when it moves the base). */
const REVIEWED_EVENTS = [
  "pull_request.opened",
  "pull_request.synchronize",
  "pull_request.reopened",
  "pull_request.ready_for_review",
] as const;

/** The pull_request actions that start a review. */
export const REVIEWED_ACTIONS: ReadonlySet<string> = new Set(
  REVIEWED_EVENTS.map((e) => e.slice("pull_request.".length)),
);

/**
 * An `edited` delivery that moved the PR to another base branch: the same head now has another
 * diff, so the check run on it must be earned again.
 */
export function baseChanged(json: unknown): boolean {
  const changes = typeof json === "object" && json !== null && "changes" in json ? json.changes : undefined;
  return typeof changes === "object" && changes !== null && "base" in changes && changes.base != null;
}

/**
 * `pull_request` opened, pushed to, reopened, ready for review, or moved to another base: the
 * sink records the review it asks for (202), or knows the delivery (200 "duplicate").
 */
export function onReviewedPullRequest(webhooks: Webhooks, sink: WebhookSink, deliveries: DeliveryContexts): void {
  webhooks.on([...REVIEWED_EVENTS, "pull_request.edited"], async ({ payload: raw }) => {
    const delivery = deliveries.of(raw);
    if (raw.action === "edited" && !baseChanged(raw)) {
      delivery.log().debug({ action: raw.action }, "webhook ignored");
      return;
    }
    const payload = PullRequestEventSchema.safeParse(raw);
    if (!payload.success) {
      const issue = payload.error.issues[0];
      delivery
        .log()
        .warn(
          { issue: issue?.message, path: issue?.path.join(".") },
          "pull_request payload lacks fields the gate reads",
        );
      delivery.answer = { status: 400, text: "pull_request payload is missing fields" };
      return;
    }
    const { action } = payload.data;
    const draft = payload.data.pull_request.draft ?? false;
    const { duplicate } = await sink.accept({
      id: delivery.id,
      event: delivery.event,
      action,
      draft,
      payload: payload.data,
    });
    answerRecorded(delivery, duplicate);
    // The delivery's log line, once GitHub has its answer; the review it asks for is registered
    // after it (a "review queued" line with the same deliveryId names the review).
    const pr = prKey({ repo: payload.data.repository.full_name, number: payload.data.number });
    delivery.afterAnswer = duplicate
      ? () => delivery.log().info("duplicate webhook delivery")
      : () =>
          delivery.baseLog.info(
            { deliveryId: delivery.id, event: delivery.event, action, draft, pr },
            "webhook accepted",
          );
  });
}
