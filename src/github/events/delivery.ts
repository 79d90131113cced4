import type { Logger } from "pino";

/** What the handler answers GitHub for one verified delivery. */
export interface WebhookAnswer {
  status: number;
  text: string;
}

/**
 * One verified delivery while its event handler runs: its headers, its logger, and the answer the
 * handler gives (GitHub's 200 "ignored" until a handler says otherwise).
 */
export interface DeliveryContext {
  /** `X-GitHub-Delivery`. */
  id: string;
  /** `X-GitHub-Event`. */
  event: string;
  /** The delivery's logger (with `deliveryId` and `event`). */
  log(): Logger;
  /** The gate's own logger, for the one line written after the answer. */
  baseLog: Logger;
  answer: WebhookAnswer;
  /** Run once the answer is sent (the delivery's log line follows GitHub's answer). */
  afterAnswer?: () => void;
}

/**
 * The deliveries being handled, keyed by the parsed payload object the library hands each
 * `on()` handler, so a handler finds its delivery without a shared mutable slot.
 */
export class DeliveryContexts {
  private readonly byPayload = new WeakMap<object, DeliveryContext>();

  open(payload: object, context: DeliveryContext): void {
    this.byPayload.set(payload, context);
  }

  /** The delivery whose payload this is; a handler is only ever called for one that was opened. */
  of(payload: object): DeliveryContext {
    const context = this.byPayload.get(payload);
    if (!context) throw new Error("webhook event handled outside a delivery");
    return context;
  }
}

/** Sets the answer: the duplicate's 200, or 202 for one recorded now. */
export function answerRecorded(context: DeliveryContext, duplicate: boolean): void {
  context.answer = duplicate ? { status: 200, text: "duplicate" } : { status: 202, text: "accepted" };
}
