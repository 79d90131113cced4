import type { PushedChange } from "../pushed-change.js";
import type { ReviewRegistration } from "./review-records.js";

/**
 * What a `pull_request` delivery asks of the gate, kept with the delivery until its review is
 * registered (the delivery inbox): written before GitHub gets its answer, taken (and deleted) by
 * the `register` job that registers the review after it.
 */
export type InboxEntry =
  | {
      /** The review to register. */
      review: ReviewRegistration;
      /** An `edited` delivery that moved the PR to another base: the same head now has another diff. */
      baseChanged: boolean;
    }
  /** A `push` to a watched branch: its commits are looked up (merged pull requests) before a review is registered. */
  | { push: PushedChange };

/**
 * The webhook deliveries already seen (a redelivery is refused) and the inbox of what they ask.
 *
 * @example if (await inbox.recordDelivery(id, "pull_request", entry)) await jobs.enqueue({ kind: "register", deliveryId: id });
 */
export interface DeliveryInbox {
  /**
   * Records a webhook delivery, with what it asks of the gate if anything (kept until
   * `takeFromInbox`); false when it was seen before (a redelivery: nothing is written).
   */
  recordDelivery(id: string, event: string, entry?: InboxEntry): Promise<boolean>;
  hasDelivery(id: string): Promise<boolean>;
  /** A delivery's inbox entry, left in place (a push's, read before GitHub is asked about its commits). */
  peekInbox(deliveryId: string): Promise<InboxEntry | undefined>;
  /** Takes a delivery's inbox entry: returns it and deletes it, once (undefined when none is left). */
  takeFromInbox(deliveryId: string): Promise<InboxEntry | undefined>;
  /** The deliveries whose inbox entry is not taken yet (a crash, a replica stopped), oldest first. */
  inboxDeliveries(): Promise<string[]>;
}
