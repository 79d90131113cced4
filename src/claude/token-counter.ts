import { createHash } from "node:crypto";
import type { MessageCountTokensParams } from "@anthropic-ai/sdk/resources/messages";
import type { Logger } from "pino";
import type { ModelClient } from "./client.js";

/**
 * Input tokens of a request as the Messages API counts them (`POST /v1/messages/count_tokens`,
 * which is free and does not run the model), cached per input: the same request is counted once.
 */
export interface TokenCounter {
  /** The request's input tokens; undefined when the API could not count them (the caller keeps its estimate). */
  count(params: MessageCountTokensParams, signal?: AbortSignal): Promise<number | undefined>;
}

/** How many counts are kept (the oldest goes first): a review asks for a few per specialist. */
const KEPT = 500;

/**
 * The counter over the one configured client. A failed count (network, 4xx, 5xx after the SDK's
 * retries) is logged and answered undefined, never cached, and never fails the review: the
 * character estimate it refines is still there.
 *
 * @example const tokens = await createTokenCounter(client, log).count({ model, system, messages });
 */
export function createTokenCounter(client: ModelClient, log: Logger, kept = KEPT): TokenCounter {
  const counts = new Map<string, Promise<number | undefined>>();
  return {
    count(params, signal) {
      const key = createHash("sha256").update(JSON.stringify(params)).digest("hex");
      const cached = counts.get(key);
      if (cached !== undefined) return cached;
      const counted = client.messages
        .countTokens(params, signal ? { signal } : {})
        .then((answer) => answer.input_tokens)
        .catch((error: unknown) => {
          counts.delete(key);
          log.warn({ err: error, model: params.model }, "could not count the request's tokens; the estimate stands");
          return undefined;
        });
      counts.set(key, counted);
      if (counts.size > kept) counts.delete(counts.keys().next().value ?? key);
      return counted;
    },
  };
}
