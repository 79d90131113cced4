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
    expect(s.prices[DEFAULT_MODEL]?.output).toBe(10);
    expect(s.effort).toBeUndefined();
  });

  it("reads thinking as off, on, on:<budget>, <budget> or adaptive", () => {
    const older = { GATE_MODEL_SPECIALIST: "claude-sonnet-4-5", GATE_MODEL_INVESTIGATOR: "claude-haiku-4-5" };
    expect(loadModelSettings({ ...older, GATE_MODEL_THINKING: "on" }).thinking).toEqual({ type: "enabled", budgetTokens: 4096 });
    expect(loadModelSettings({ ...older, GATE_MODEL_THINKING: "on:2048" }).thinking).toEqual({ type: "enabled", budgetTokens: 2048 });
    expect(loadModelSettings({ ...older, GATE_MODEL_THINKING: "3000" }).thinking).toEqual({ type: "enabled", budgetTokens: 3000 });
    expect(loadModelSettings({ GATE_MODEL_THINKING: "Adaptive" }).thinking).toEqual({ type: "adaptive" });
  });

  it("refuses at start what a configured model would refuse with a 400, naming the model and the setting", () => {
    // Claude 5.x takes no thinking budget.
    expect(() => loadModelSettings({ GATE_MODEL_THINKING: "on:2048" })).toThrow(/claude-sonnet-5-5 refuses a thinking budget.*GATE_MODEL_SPECIALIST/);
    // Opus 5.5 cannot stop thinking, so "off" cannot be honoured.
    expect(() => loadModelSettings({ GATE_MODEL_INVESTIGATOR: "claude-opus-5-5" })).toThrow(/claude-opus-5-5 always thinks.*GATE_MODEL_INVESTIGATOR/);
    expect(loadModelSettings({ GATE_MODEL_INVESTIGATOR: "claude-opus-5-5", GATE_MODEL_THINKING: "adaptive", GATE_MODEL_EFFORT: "low" }).effort).toBe("low");
    // Opus 5 turns thinking off only up to effort high.
    const opus5 = { GATE_MODEL_SPECIALIST: "claude-opus-5", GATE_MODEL_INVESTIGATOR: "claude-opus-5" };
    expect(() => loadModelSettings({ ...opus5, GATE_MODEL_EFFORT: "max" })).toThrow(/effort max/);
    expect(loadModelSettings({ ...opus5, GATE_MODEL_EFFORT: "high" }).thinking).toEqual({ type: "off" });
    // 4.5 models have no adaptive thinking.
    expect(() => loadModelSettings({ GATE_MODEL_SPECIALIST: "claude-haiku-4-5", GATE_MODEL_THINKING: "adaptive" })).toThrow(/no adaptive thinking/);
    // An unknown model is left to the API.
    expect(loadModelSettings({ GATE_MODEL_SPECIALIST: "claude-future-9", GATE_MODEL_THINKING: "adaptive" }).specialistModel).toBe("claude-future-9");
  });

  it("reads GATE_MODEL_EFFORT and refuses an unknown level", () => {
    expect(loadModelSettings({ GATE_MODEL_EFFORT: " Medium " }).effort).toBe("medium");
    expect(loadModelSettings({ GATE_MODEL_EFFORT: "" }).effort).toBeUndefined();
    expect(() => loadModelSettings({ GATE_MODEL_EFFORT: "extreme" })).toThrow(/GATE_MODEL_EFFORT/);
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
