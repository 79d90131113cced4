import { z } from "zod";
import type { Usage } from "../domain/usage.js";

const rates = {
  input: z.number().nonnegative().describe("USD per million input tokens"),
  output: z.number().nonnegative().describe("USD per million output tokens"),
  cache_write: z.number().nonnegative().describe("USD per million tokens written to the prompt cache (5 min)"),
  cache_read: z.number().nonnegative().describe("USD per million tokens read from the prompt cache"),
};

/** The four rates of one price band, USD per million tokens. */
export type Rates = { [K in keyof typeof rates]: number };

/**
 * USD per million tokens for one model; `long_prompt`, where Anthropic bills by prompt length,
 * is the band of a call whose prompt (input, cache writes and cache reads) is over `above_tokens`:
 * every token of that call, output included, is charged at its rates.
 */
export const ModelPriceSchema = z
  .object({
    ...rates,
    long_prompt: z
      .object({
        above_tokens: z.number().int().positive().describe("prompt tokens past which the band applies"),
        ...rates,
      })
      .strict()
      .optional()
      .describe("the higher band of a model billed by prompt length"),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;
const KINDS = ["input", "output", "cache_write", "cache_read"] as const;

/** Model id → price. The shape of `GATE_PRICES`. */
export const PriceTableSchema = z.record(z.string().min(1), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

const SONNET_4_6: ModelPrice = { input: 3, output: 15, cache_write: 3.75, cache_read: 0.3 };
const SONNET_5: ModelPrice = { input: 2, output: 10, cache_write: 2.5, cache_read: 0.2 };
const OPUS_4_5: ModelPrice = { input: 5, output: 25, cache_write: 6.25, cache_read: 0.5 };
const OPUS_5_5: ModelPrice = { input: 4, output: 20, cache_write: 5, cache_read: 0.2 };
const FABLE_5: ModelPrice = { input: 10, output: 50, cache_write: 12.5, cache_read: 1 };
const FABLE_5_1: ModelPrice = { input: 10, output: 50, cache_write: 12.5, cache_read: 0.25 };
const HAIKU_4_5: ModelPrice = { input: 1, output: 5, cache_write: 1.25, cache_read: 0.1 };
// Haiku 5.5 is billed by prompt length: up to 100,000 prompt tokens, then 5x on every token of the call.
const HAIKU_5_5: ModelPrice = {
  input: 0.1,
  output: 0.5,
  cache_write: 0.125,
  cache_read: 0.01,
  long_prompt: { above_tokens: 100_000, input: 0.5, output: 2.5, cache_write: 0.625, cache_read: 0.05 },
};

/**
 * Default prices, USD per million tokens: Anthropic's published list prices (the models and
 * pricing pages, checked 2026-12-02; cache write is the 5-minute write), for the models the
 * Models API still serves (Sonnet 4.5 is retired). Sonnet 5.5's cache read
 * is listed at $0.20 on its model page; a later cut to $0.10 was reported, and the higher figure
 * is kept so the budget errs on the side of stopping early. Override or extend with `GATE_PRICES`.
 *
 * @example DEFAULT_PRICES["claude-sonnet-5-5"].input // 2
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  "claude-sonnet-5-5": SONNET_5,
  "claude-sonnet-5": SONNET_5,
  "claude-sonnet-4-6": SONNET_4_6,
  "claude-opus-5-5": OPUS_5_5,
  "claude-opus-5": OPUS_4_5,
  "claude-opus-4-8": OPUS_4_5,
  "claude-opus-4-7": OPUS_4_5,
  "claude-opus-4-6": OPUS_4_5,
  "claude-opus-4-5": OPUS_4_5,
  "claude-opus-4-5-20251101": OPUS_4_5,
  "claude-fable-5-1": FABLE_5_1,
  "claude-fable-5": FABLE_5,
  "claude-haiku-5-5": HAIKU_5_5,
  "claude-haiku-4-5": HAIKU_4_5,
  "claude-haiku-4-5-20251001": HAIKU_4_5,
});

/** The price used for a model, and whether it was the model's own. */
export interface PriceLookup {
  price: ModelPrice;
  /** False when the model is not in the table and the highest known prices were used instead. */
  known: boolean;
  /** The table row used: the model itself, or "highest known" (each token kind at its highest price in the table). */
  basis: string;
}

/** What an unknown model is charged: each token kind at the highest price any row of the table asks. */
export const HIGHEST_KNOWN = "highest known";

/**
 * Finds a model's price. An unknown model is charged every token kind at the highest price in
 * the table (never 0, never below a known model), so a budget errs on the side of stopping
 * early; `known: false` says so. An empty table is an error.
 *
 * @example priceFor("claude-sonnet-5-5", DEFAULT_PRICES).known // true
 */
export function priceFor(model: string, prices: PriceTable): PriceLookup {
  const own = prices[model];
  if (own) return { price: own, known: true, basis: model };
  const rows = Object.values(prices);
  if (rows.length === 0) throw new Error("the price table is empty (GATE_PRICES)");
  // A band's rates count too: an unknown model is never charged less than any call of a known one.
  const highest = (kind: (typeof KINDS)[number]) =>
    Math.max(...rows.flatMap((p) => [p[kind], p.long_prompt?.[kind] ?? 0]));
  return {
    price: {
      input: highest("input"),
      output: highest("output"),
      cache_write: highest("cache_write"),
      cache_read: highest("cache_read"),
    },
    known: false,
    basis: HIGHEST_KNOWN,
  };
}

/**
 * The rates one call is charged: the model's long-prompt band when it has one and the call's
 * prompt (input, cache writes, cache reads) is over its threshold, else its base rates.
 *
 * @example ratesFor(DEFAULT_PRICES["claude-haiku-5-5"], { input_tokens: 150_000 }).input // 0.5
 */
export function ratesFor(price: ModelPrice, usage: Partial<Usage>): Rates {
  const prompt =
    (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  return price.long_prompt && prompt > price.long_prompt.above_tokens ? price.long_prompt : price;
}

/**
 * The cost in USD of one call's usage, at the model's price (its long-prompt band when the call's
 * prompt is over it), or the highest known prices when the model is unknown (`onUnknown` is told).
 *
 * @example costOf("claude-sonnet-5-5", { input_tokens: 1_000_000 }, DEFAULT_PRICES) // 2
 */
export function costOf(
  model: string,
  usage: Partial<Usage>,
  prices: PriceTable,
  onUnknown?: (model: string, basis: string) => void,
): number {
  const { price: found, known, basis } = priceFor(model, prices);
  if (!known) onUnknown?.(model, basis);
  const price = ratesFor(found, usage);
  const usd =
    ((usage.input_tokens ?? 0) * price.input +
      (usage.output_tokens ?? 0) * price.output +
      (usage.cache_creation_input_tokens ?? 0) * price.cache_write +
      (usage.cache_read_input_tokens ?? 0) * price.cache_read) /
    1_000_000;
  return Math.round(usd * 1e6) / 1e6;
}
