import type { ThinkingConfigParam } from "@anthropic-ai/sdk/resources/messages";

/** `output_config.effort`: how much the model spends on an answer (thinking included). */
export const EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

/** Thinking as the gate asks for it: off, adaptive, or a fixed budget of thinking tokens. */
export type ThinkingSetting = { type: "off" } | { type: "adaptive" } | { type: "enabled"; budgetTokens: number };

/** What a model accepts for thinking, from Anthropic's model pages (checked late 2026). */
interface ThinkingRules {
  /** The request that turns thinking off; undefined when the model always thinks. */
  off: ThinkingConfigParam | undefined;
  adaptive: boolean;
  /** A fixed `budget_tokens` (manual extended thinking). */
  budget: boolean;
  /** The highest effort at which thinking may be off (Opus 5 and Haiku 5.5 refuse it above high). */
  offUpTo?: Effort;
}

const DISABLED: ThinkingConfigParam = { type: "disabled" };
const ALWAYS_ADAPTIVE: ThinkingRules = { off: undefined, adaptive: true, budget: false };
const ADAPTIVE_ONLY: ThinkingRules = { off: DISABLED, adaptive: true, budget: false };
const BUDGET_ONLY: ThinkingRules = { off: DISABLED, adaptive: false, budget: true };

/** Model id (or its dated snapshot, `<id>-YYYYMMDD`) → rules. */
const RULES: Record<string, ThinkingRules> = {
  // Thinking cannot be turned off on these: lower the effort instead.
  "claude-opus-5-5": ALWAYS_ADAPTIVE,
  "claude-fable-5": ALWAYS_ADAPTIVE,
  "claude-fable-5-1": ALWAYS_ADAPTIVE,
  "claude-fable-5-2": ALWAYS_ADAPTIVE,
  "claude-mythos-5": ALWAYS_ADAPTIVE,
  "claude-mythos-5-1": ALWAYS_ADAPTIVE,
  "claude-mythos-5-2": ALWAYS_ADAPTIVE,
  "claude-mythos-preview": ALWAYS_ADAPTIVE,
  // Sonnet 5.5 takes `between_tools` as its lowest setting: no thinking before answering.
  "claude-sonnet-5-5": { off: { type: "between_tools" }, adaptive: true, budget: false },
  "claude-sonnet-5": ADAPTIVE_ONLY,
  "claude-opus-5": { ...ADAPTIVE_ONLY, offUpTo: "high" },
  "claude-haiku-5-5": { ...ADAPTIVE_ONLY, offUpTo: "high" },
  "claude-opus-4-8": ADAPTIVE_ONLY,
  "claude-opus-4-7": ADAPTIVE_ONLY,
  // 4.6: adaptive, and a budget still accepted (deprecated).
  "claude-opus-4-6": { off: DISABLED, adaptive: true, budget: true },
  "claude-sonnet-4-6": { off: DISABLED, adaptive: true, budget: true },
  "claude-opus-4-5": BUDGET_ONLY,
  "claude-haiku-4-5": BUDGET_ONLY,
};

function rulesFor(model: string): ThinkingRules | undefined {
  return RULES[model] ?? RULES[model.replace(/-\d{8}$/, "")];
}

/**
 * Why a model refuses a thinking setting and effort, or undefined when it accepts them (or the
 * model is unknown: then the API decides, and a refusal sends the review to a person).
 *
 * @example thinkingProblem("claude-opus-5-5", { type: "off" }) // "claude-opus-5-5 always thinks: …"
 */
export function thinkingProblem(
  model: string,
  thinking: ThinkingSetting,
  effort: Effort | undefined,
): string | undefined {
  const rules = rulesFor(model);
  if (!rules) return undefined;
  if (thinking.type === "off" && !rules.off) {
    return `${model} always thinks and cannot turn it off: set GATE_MODEL_THINKING=adaptive (GATE_MODEL_EFFORT=low thinks least)`;
  }
  if (thinking.type === "off" && rules.offUpTo && effort && EFFORTS.indexOf(effort) > EFFORTS.indexOf(rules.offUpTo)) {
    return `${model} refuses thinking off at effort ${effort}: use an effort up to ${rules.offUpTo}, or GATE_MODEL_THINKING=adaptive`;
  }
  if (thinking.type === "enabled" && !rules.budget) {
    return `${model} refuses a thinking budget: set GATE_MODEL_THINKING=adaptive and steer it with GATE_MODEL_EFFORT`;
  }
  if (thinking.type === "adaptive" && !rules.adaptive) {
    return `${model} has no adaptive thinking: use GATE_MODEL_THINKING=off or a budget (on:<tokens>)`;
  }
  return undefined;
}

/**
 * The request's `thinking` field for a model: off is sent explicitly (leaving it out means
 * adaptive thinking on current models, billed as output), as `disabled`, or as `between_tools`
 * where that is the model's lowest setting.
 *
 * @example thinkingParam("claude-sonnet-5-5", { type: "off" }) // { type: "between_tools" }
 */
export function thinkingParam(model: string, setting: ThinkingSetting): ThinkingConfigParam | undefined {
  if (setting.type === "adaptive") return { type: "adaptive" };
  if (setting.type === "enabled") return { type: "enabled", budget_tokens: setting.budgetTokens };
  const rules = rulesFor(model);
  // Unknown models get the API's general off switch; a model that always thinks has none (refused at start).
  return rules ? rules.off : DISABLED;
}
