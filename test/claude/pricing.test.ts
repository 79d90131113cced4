import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES, costOf, priceFor } from "../../src/claude/pricing.js";

describe("costOf", () => {
  it("prices every token kind per million", () => {
    const usd = costOf(
      "claude-sonnet-4-6",
      {
        input_tokens: 1_000_000,
        output_tokens: 100_000,
        cache_creation_input_tokens: 200_000,
        cache_read_input_tokens: 1_000_000,
      },
      DEFAULT_PRICES,
    );
    expect(usd).toBeCloseTo(3 + 1.5 + 0.75 + 0.3, 6);
  });

  it("charges an unknown model the highest known price of every token kind, never less than a known model, and says so", () => {
    const told: string[] = [];
    const usd = costOf(
      "claude-unknown-9",
      { input_tokens: 1_000_000, output_tokens: 1_000_000 },
      DEFAULT_PRICES,
      (m, basis) => told.push(`${m}->${basis}`),
    );
    expect(usd).toBe(10 + 50); // Fable's input and output
    expect(told).toEqual(["claude-unknown-9->highest known"]);
    const unknown = priceFor("claude-unknown-9", DEFAULT_PRICES);
    expect(unknown.known).toBe(false);
    for (const [model, price] of Object.entries(DEFAULT_PRICES)) {
      for (const kind of ["input", "output", "cache_write", "cache_read"] as const)
        expect(unknown.price[kind], `${model} ${kind}`).toBeGreaterThanOrEqual(price[kind]);
    }
    // Not one row's price: the cache read of Fable 5 ($1) with the output of Fable 5.1 ($50), whichever is higher.
    expect(unknown.price.cache_read).toBe(1);
    // A table with a row cheap in one kind and dear in another takes the dear one of each.
    const mixed = {
      a: { input: 9, output: 1, cache_write: 0, cache_read: 0 },
      b: { input: 1, output: 9, cache_write: 0, cache_read: 0 },
    };
    expect(priceFor("c", mixed).price).toMatchObject({ input: 9, output: 9 });
  });

  it("prices the 5.x models as Anthropic lists them", () => {
    expect(DEFAULT_PRICES["claude-sonnet-5-5"]).toEqual({ input: 2, output: 10, cache_write: 2.5, cache_read: 0.2 });
    expect(DEFAULT_PRICES["claude-opus-5-5"]).toEqual({ input: 4, output: 20, cache_write: 5, cache_read: 0.2 });
    expect(DEFAULT_PRICES["claude-opus-5"]?.input).toBe(5);
    expect(DEFAULT_PRICES["claude-fable-5-1"]?.output).toBe(50);
  });

  it("prices Haiku 5.5 by prompt length: its low band up to 100,000 prompt tokens, 5x on every token above", () => {
    const haiku = (usage: Parameters<typeof costOf>[1]) => costOf("claude-haiku-5-5", usage, DEFAULT_PRICES);
    // 100,000 prompt tokens exactly: $0.10 in, $0.50 out per million.
    expect(haiku({ input_tokens: 100_000, output_tokens: 10_000 })).toBeCloseTo(0.01 + 0.005, 6);
    // One more, and every token of the call is at $0.50 / $2.50.
    expect(haiku({ input_tokens: 100_001, output_tokens: 10_000 })).toBeCloseTo(
      (100_001 * 0.5 + 10_000 * 2.5) / 1e6,
      5,
    );
    // Cache reads and writes count toward the prompt, and are charged at the band's cache rates.
    const cached = { input_tokens: 1_000, cache_creation_input_tokens: 50_000, cache_read_input_tokens: 50_000 };
    expect(haiku(cached)).toBeCloseTo((1_000 * 0.5 + 50_000 * 0.625 + 50_000 * 0.05) / 1e6, 6);
    expect(haiku({ ...cached, input_tokens: 0 })).toBeCloseTo((50_000 * 0.125 + 50_000 * 0.01) / 1e6, 6);
  });

  it("lists no retired model (Sonnet 4.5)", () => {
    expect(Object.keys(DEFAULT_PRICES).filter((id) => id.startsWith("claude-sonnet-4-5"))).toEqual([]);
  });

  it("has a default price for the default model", () => {
    expect(priceFor("claude-sonnet-5-5", DEFAULT_PRICES).known).toBe(true);
  });

  it("refuses an empty table instead of pricing at 0", () => {
    expect(() => priceFor("x", {})).toThrow(/empty/);
  });
});
