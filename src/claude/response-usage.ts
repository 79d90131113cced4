import type { Message } from "@anthropic-ai/sdk/resources/messages";
import type { Logger } from "pino";
import { costOf, type PriceTable } from "./pricing.js";
import type { Usage } from "../domain/usage.js";

/**
 * The gate's `Usage` of one Messages API response: one model call, its token counts (the API
 * reports cache counts as null when unused) and its cost. Warns once per call about an unpriced model.
 *
 * @example usageOf(message, prices, log).model_calls // 1
 */
export function usageOf(message: Pick<Message, "model" | "usage">, prices: PriceTable, log?: Logger): Usage {
  const u = message.usage;
  const tokens = {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
  };
  const cost_usd = costOf(message.model, tokens, prices, (model, basis) =>
    log?.warn({ model, basis }, "no price for this model; charging the highest known prices"),
  );
  return { model_calls: 1, ...tokens, cost_usd };
}
