import { z } from "zod";
import type { Usage } from "../domain/usage.js";

/** USD per million tokens for one model. */
export const ModelPriceSchema = z
  .object({
    input: z.number().nonnegative().describe("USD per million input tokens"),
    output: z.number().nonnegative().describe("USD per million output tokens"),
    cache_write: z.number().nonnegative().describe("USD per million tokens written to the prompt cache (5 min)"),
    cache_read: z.number().nonnegative().describe("USD per million tokens read from the prompt cache"),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** Model id → price. The shape of `GATE_PRICES`. */
export const PriceTableSchema = z.record(z.string().min(1), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

const SONNET: ModelPrice = { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 };
const OPUS: ModelPrice = { input: 5, output: 25, cache_write: 6.25, cache_read: 0.5 };
const HAIKU: ModelPrice = { input: 1, output: 5, cache_write: 1.25, cache_read: 0.1 };

/**
 * Default prices, USD per million tokens. The 4.x rows are Anthropic's published list prices
 * (cache write = 1.25 × input, cache read = 0.1 × input); the 5.x rows ASSUME the same price as
 * the family's 4.x model until someone checks. Override or extend with `GATE_PRICES`.
 *
 * @example DEFAULT_PRICES["claude-sonnet-4-5"].input // 3
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  "claude-sonnet-5-5": SONNET,
  "claude-sonnet-5": SONNET,
  "claude-sonnet-4-6": SONNET,
  "claude-sonnet-4-5": SONNET,
  "claude-sonnet-4-5-20250929": SONNET,
  "claude-opus-5-5": OPUS,
  "claude-opus-5": OPUS,
  "claude-opus-4-8": OPUS,
  "claude-opus-4-7": OPUS,
  "claude-opus-4-6": OPUS,
  "claude-opus-4-5": OPUS,
  "claude-opus-4-5-20251101": OPUS,
  "claude-haiku-5-5": HAIKU,
  "claude-haiku-4-5": HAIKU,
  "claude-haiku-4-5-20251001": HAIKU,
});

/** The price used for a model, and whether it was the model's own. */
export interface PriceLookup {
  price: ModelPrice;
  /** False when the model is not in the table and the most expensive row was used instead. */
  known: boolean;
  /** The table row used (the model itself when known). */
  basis: string;
}

function weight(p: ModelPrice): number {
  return p.input + p.output + p.cache_write + p.cache_read;
}

/**
 * Finds a model's price. An unknown model is charged at the most expensive row (never 0), so a
 * budget errs on the side of stopping early; `known: false` says so. An empty table is an error.
 *
 * @example priceFor("claude-sonnet-4-5", DEFAULT_PRICES).known // true
 */
export function priceFor(model: string, prices: PriceTable): PriceLookup {
  const own = prices[model];
  if (own) return { price: own, known: true, basis: model };
  let basis: string | undefined;
  let best: ModelPrice | undefined;
  for (const [name, price] of Object.entries(prices)) {
    if (!best || weight(price) > weight(best)) {
      best = price;
      basis = name;
    }
  }
  if (!best || basis === undefined) throw new Error("the price table is empty (GATE_PRICES)");
  return { price: best, known: false, basis };
}

/**
 * The cost in USD of one usage, at the model's price (or the most expensive listed price when
 * the model is unknown; `onUnknown` is told which row was used).
 *
 * @example costOf("claude-sonnet-4-5", { input_tokens: 1_000_000 }, DEFAULT_PRICES) // 3
 */
export function costOf(
  model: string,
  usage: Partial<Usage>,
  prices: PriceTable,
  onUnknown?: (model: string, basis: string) => void,
): number {
  const { price, known, basis } = priceFor(model, prices);
  if (!known) onUnknown?.(model, basis);
  const usd =
    ((usage.input_tokens ?? 0) * price.input +
      (usage.output_tokens ?? 0) * price.output +
      (usage.cache_creation_input_tokens ?? 0) * price.cache_write +
      (usage.cache_read_input_tokens ?? 0) * price.cache_read) /
    1_000_000;
  return Math.round(usd * 1e6) / 1e6;
}
