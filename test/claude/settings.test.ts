import { describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { DEFAULT_MODEL, loadModelSettings } from "../../src/claude/settings.js";

describe("loadModelSettings", () => {
  it("has defaults", () => {
    const s = loadModelSettings({});
    expect(s.specialistModel).toBe(DEFAULT_MODEL);
    expect(s.investigatorModel).toBe(DEFAULT_MODEL);
    expect(s.thinking).toEqual({ type: "off" });
    expect(s.maxInputTokens).toBe(60000);
    expect(s.maxTokens).toBe(8192);
    expect(s.prices[DEFAULT_MODEL]?.output).toBe(15);
  });

  it("reads thinking as off, on, on:<budget>, <budget> or adaptive", () => {
    expect(loadModelSettings({ GATE_MODEL_THINKING: "on" }).thinking).toEqual({ type: "enabled", budgetTokens: 4096 });
    expect(loadModelSettings({ GATE_MODEL_THINKING: "on:2048" }).thinking).toEqual({ type: "enabled", budgetTokens: 2048 });
    expect(loadModelSettings({ GATE_MODEL_THINKING: "3000" }).thinking).toEqual({ type: "enabled", budgetTokens: 3000 });
    expect(loadModelSettings({ GATE_MODEL_THINKING: "Adaptive" }).thinking).toEqual({ type: "adaptive" });
  });

  it("refuses a thinking budget at or above max_tokens, naming the variable", () => {
    expect(() => loadModelSettings({ GATE_MODEL_THINKING: "on:9000", GATE_MODEL_MAX_TOKENS: "8192" })).toThrow(/GATE_MODEL_THINKING/);
    expect(() => loadModelSettings({ GATE_MODEL_THINKING: "lots" })).toThrow(GateError);
  });

  it("merges GATE_PRICES over the defaults and rejects a bad table", () => {
    const s = loadModelSettings({ GATE_PRICES: '{"my-model": {"input": 1, "output": 2, "cache_write": 1.25, "cache_read": 0.1}}' });
    expect(s.prices["my-model"]?.output).toBe(2);
    expect(s.prices[DEFAULT_MODEL]).toBeDefined();
    expect(() => loadModelSettings({ GATE_PRICES: "{not json" })).toThrow(/GATE_PRICES/);
    expect(() => loadModelSettings({ GATE_PRICES: '{"m": {"input": -1, "output": 2, "cache_write": 0, "cache_read": 0}}' })).toThrow(/GATE_PRICES/);
  });

  it("rejects a non-numeric token limit", () => {
    expect(() => loadModelSettings({ GATE_MAX_INPUT_TOKENS: "lots" })).toThrow(/GATE_MAX_INPUT_TOKENS/);
  });
});
