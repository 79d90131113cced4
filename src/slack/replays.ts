import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { AuditInput } from "../domain/review-store.js";
import { audits } from "../review/audit-entries.js";

/** The custom property the receivers give each request: its signature (HTTP) or envelope id (Socket Mode). */
export const REQUEST_KEY = "gateRequestKey";

/** Where the Slack side remembers the requests it acted on (the store's once-keys), and audits refusals. */
export interface RequestMemory {
  /** True the first time a key is claimed, false ever after (across restarts and replicas). */
  claim(key: string, reviewId: string): Promise<boolean>;
  audit(entry: AuditInput): Promise<void>;
}

/** One Slack request that would act on a review. */
export interface SlackRequest {
  reviewId: string;
  userId: string;
  /** What it asks: an action id, a modal's callback id, or `/gate rerun`. */
  action: string;
  /** The receiver's key of the request (`REQUEST_KEY` in Bolt's context): a replay of the same signed request has the same. */
  requestKey?: unknown;
  /** Slack's trigger id of the interaction (the same when Slack delivers one interaction twice). */
  triggerId?: unknown;
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

/** The keys a request is known by: the signed request itself, and its trigger with its action. */
export function requestKeys(request: SlackRequest): string[] {
  const keys: string[] = [];
  if (typeof request.requestKey === "string" && request.requestKey !== "")
    keys.push(`slack-request:${digest(request.requestKey)}`);
  if (typeof request.triggerId === "string" && request.triggerId !== "")
    keys.push(`slack-trigger:${digest(`${request.triggerId}\n${request.action}`)}`);
  return keys;
}

/**
 * Whether this is the first time the gate sees a request (the same signature and timestamp, or the
 * same trigger id and action, have one effect). A replay is logged and audited, and has no effect;
 * a request with no key to know it by (none in tests of the app alone) counts as new.
 *
 * @example if (!(await firstDelivery(memory, log, { reviewId, userId, action, requestKey, triggerId }))) return;
 */
export async function firstDelivery(
  memory: RequestMemory | undefined,
  log: Logger,
  request: SlackRequest,
): Promise<boolean> {
  if (!memory) return true;
  for (const key of requestKeys(request)) {
    if (await memory.claim(key, request.reviewId)) continue;
    log.warn(
      { reviewId: request.reviewId, userId: request.userId, action: request.action },
      "slack request replayed; ignored",
    );
    const refusal = { code: "replayed" as const, reviewId: request.reviewId };
    await memory.audit(
      audits.requestRefused(request.reviewId, request.userId, request.action, refusal, { door: "slack" }),
    );
    return false;
  }
  return true;
}
