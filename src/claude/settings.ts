import { z } from "zod";
import { describeIssues, GateError } from "../domain/errors.js";
import { DEFAULT_PRICES, PriceTableSchema, type PriceTable } from "./pricing.js";
import { EFFORTS, thinkingProblem, type ThinkingSetting } from "./thinking-param.js";

/** The newest Sonnet id in @anthropic-ai/sdk 1.10's `Model` list. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";

export type { ThinkingSetting } from "./thinking-param.js";

const DEFAULT_THINKING_BUDGET = 4096;

/**
 * `GATE_MODEL_THINKING`: `off` (default), `on` (budget 4096), `on:<tokens>` or just `<tokens>`
 * (a fixed budget, at least 1024), or `adaptive` (the model decides).
 */
const ThinkingSchema = z
  .string()
  .trim()
  .toLowerCase()
  .default("off")
  .transform((raw, ctx): ThinkingSetting => {
    if (raw === "off" || raw === "" || raw === "false" || raw === "0") return { type: "off" };
    if (raw === "adaptive") return { type: "adaptive" };
    if (raw === "on" || raw === "true") return { type: "enabled", budgetTokens: DEFAULT_THINKING_BUDGET };
    const m = /^(?:on:)?(\d+)$/.exec(raw);
    const budget = m ? Number(m[1]) : NaN;
    if (Number.isInteger(budget) && budget >= 1024) return { type: "enabled", budgetTokens: budget };
    ctx.addIssue({ code: "custom", message: "use off, on, on:<tokens ≥ 1024>, <tokens ≥ 1024> or adaptive" });
    return z.NEVER;
  });

const PricesSchema = z
  .string()
  .optional()
  .transform((raw, ctx): PriceTable => {
    if (raw === undefined || raw.trim() === "") return { ...DEFAULT_PRICES };
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: "is not JSON; expected {\"<model>\": {\"input\": 3, \"output\": 15, \"cache_write\": 3.75, \"cache_read\": 0.3}}" });
      return z.NEVER;
    }
    const table = PriceTableSchema.safeParse(json);
    if (!table.success) {
      ctx.addIssue({ code: "custom", message: describeIssues(table.error) });
      return z.NEVER;
    }
    // Entries add to or replace the defaults, model by model.
    return { ...DEFAULT_PRICES, ...table.data };
  });

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * The model settings, read from the environment once by the lead (`loadModelSettings`).
 *
 * @example ModelSettingsSchema.parse({}).specialistModel // "claude-sonnet-5-5"
 */
export const ModelSettingsSchema = z
  .object({
    GATE_MODEL_SPECIALIST: z.string().trim().min(1).default(DEFAULT_MODEL).describe("Model id of the Claude specialists"),
    GATE_MODEL_INVESTIGATOR: z.string().trim().min(1).default(DEFAULT_MODEL).describe("Model id of the Claude investigator"),
    GATE_MODEL_THINKING: ThinkingSchema.describe("off | on | on:<budget> | <budget> | adaptive"),
    GATE_MODEL_EFFORT: z
      .preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(EFFORTS).optional())
      .describe("output_config.effort: low | medium | high | xhigh | max; unset is the model's default"),
    GATE_MODEL_MAX_TOKENS: positiveInt(8192).describe("max_tokens of one model answer"),
    GATE_MAX_INPUT_TOKENS: positiveInt(60000).describe("Estimated input tokens one specialist call may send"),
    GATE_PRICES: PricesSchema.describe("JSON price table, USD per million tokens, merged over the defaults"),
  })
  .transform((e, ctx) => {
    const thinking = e.GATE_MODEL_THINKING;
    if (thinking.type === "enabled" && thinking.budgetTokens >= e.GATE_MODEL_MAX_TOKENS) {
      ctx.addIssue({
        code: "custom",
        path: ["GATE_MODEL_THINKING"],
        message: `the thinking budget (${thinking.budgetTokens}) must be below GATE_MODEL_MAX_TOKENS (${e.GATE_MODEL_MAX_TOKENS})`,
      });
      return z.NEVER;
    }
    // A setting a configured model refuses would fail every call with a 400: refuse it at start.
    for (const [name, model] of [["GATE_MODEL_SPECIALIST", e.GATE_MODEL_SPECIALIST], ["GATE_MODEL_INVESTIGATOR", e.GATE_MODEL_INVESTIGATOR]] as const) {
      const problem = thinkingProblem(model, thinking, e.GATE_MODEL_EFFORT);
      if (problem) {
        ctx.addIssue({ code: "custom", path: ["GATE_MODEL_THINKING"], message: `${problem} (${name})` });
        return z.NEVER;
      }
    }
    return {
      specialistModel: e.GATE_MODEL_SPECIALIST,
      investigatorModel: e.GATE_MODEL_INVESTIGATOR,
      thinking,
      ...(e.GATE_MODEL_EFFORT ? { effort: e.GATE_MODEL_EFFORT } : {}),
      maxTokens: e.GATE_MODEL_MAX_TOKENS,
      maxInputTokens: e.GATE_MAX_INPUT_TOKENS,
      prices: e.GATE_PRICES,
    };
  });

/** The parsed model settings. */
export type ModelSettings = z.output<typeof ModelSettingsSchema>;

/**
 * Reads the model settings from an environment; a bad value fails with the variable's name.
 *
 * @example loadModelSettings({ GATE_MODEL_THINKING: "on:2048" }).thinking // { type: "enabled", budgetTokens: 2048 }
 */
export function loadModelSettings(env: Record<string, string | undefined> = process.env): ModelSettings {
  const parsed = ModelSettingsSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new GateError("CONFIG_INVALID", describeIssues(parsed.error, { root: "model settings" }));
}
