import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES, costOf, priceFor } from "../../src/claude/pricing.js";

describe("costOf", () => {
  it("prices every token kind per million", () => {
    const usd = costOf(
      "claude-sonnet-4-5",
      { input_tokens: 1_000_000, output_tokens: 100_000, cache_creation_input_tokens: 200_000, cache_read_input_tokens: 1_000_000 },
      DEFAULT_PRICES,
    );
    expect(usd).toBeCloseTo(3 + 1.5 + 0.75 + 0.3, 6);
  });

  it("charges an unknown model at the most expensive listed price, never 0, and says so", () => {
    const told: string[] = [];
    const usd = costOf("claude-unknown-9", { input_tokens: 1_000_000 }, DEFAULT_PRICES, (m, basis) => told.push(`${m}->${basis}`));
    const opus = DEFAULT_PRICES["claude-opus-4-5"]?.input ?? 0;
    expect(usd).toBe(opus);
    expect(usd).toBeGreaterThan(0);
    expect(told).toHaveLength(1);
    expect(priceFor("claude-unknown-9", DEFAULT_PRICES).known).toBe(false);
  });

  it("has a default price for the default model", () => {
    expect(priceFor("claude-sonnet-5-5", DEFAULT_PRICES).known).toBe(true);
  });

  it("refuses an empty table instead of pricing at 0", () => {
    expect(() => priceFor("x", {})).toThrow(/empty/);
  });
});
