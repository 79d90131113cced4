import { z } from "zod";
import { DEFAULT_PRICES, PriceTableSchema, type PriceTable } from "../claude/pricing.js";
import { DEFAULT_MODEL, type ModelSettings, type ThinkingSetting } from "../claude/settings.js";
import { EFFORTS, thinkingProblem } from "../claude/thinking-param.js";
import { describeIssues } from "../domain/errors.js";
import { httpUrl, integer } from "./fields.js";

/** Claude: on when an API key is set; how it is called. */
export interface ClaudeSettings {
  /** `ANTHROPIC_API_KEY`: unset means the rules reviewer and the deterministic investigator. */
  apiKey?: string;
  /** `ANTHROPIC_BASE_URL`: a gateway or proxy. */
  baseURL?: string;
  model: ModelSettings;
}

const DEFAULT_THINKING_BUDGET = 4096;

/**
 * `GATE_MODEL_THINKING`: `off` (default), `on` (budget 4096), `on:<tokens>` or just `<tokens>`
 * (a fixed budget, at least 1024), or `adaptive` (the model decides).
 */
const thinking = z
  .string()
  .trim()
  .toLowerCase()
  .default("off")
  .transform((raw, ctx): ThinkingSetting => {
    if (raw === "off" || raw === "false" || raw === "0") return { type: "off" };
    if (raw === "adaptive") return { type: "adaptive" };
    if (raw === "on" || raw === "true") return { type: "enabled", budgetTokens: DEFAULT_THINKING_BUDGET };
    const m = /^(?:on:)?(\d+)$/.exec(raw);
    const budget = m ? Number(m[1]) : NaN;
    if (Number.isInteger(budget) && budget >= 1024) return { type: "enabled", budgetTokens: budget };
    ctx.addIssue({ code: "custom", message: "use off, on, on:<tokens ≥ 1024>, <tokens ≥ 1024> or adaptive" });
    return z.NEVER;
  });

/** `GATE_PRICES`: JSON, USD per million tokens by model, merged over the built-in table. */
const prices = z
  .string()
  .optional()
  .transform((raw, ctx): PriceTable => {
    if (raw === undefined) return { ...DEFAULT_PRICES };
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      ctx.addIssue({
        code: "custom",
        message:
          'is not JSON; expected {"<model>": {"input": 3, "output": 15, "cache_write": 3.75, "cache_read": 0.3}}',
      });
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

/**
 * The Claude settings (README, Settings; docs/claude.md).
 *
 * @example claudeSchema.parse({ GATE_MODEL_THINKING: "on:2048" }).model.thinking // { type: "enabled", budgetTokens: 2048 }
 */
export const claudeSchema = z
  .object({
    ANTHROPIC_API_KEY: z.string().optional(),
    ANTHROPIC_BASE_URL: httpUrl.optional(),
    GATE_MODEL_SPECIALIST: z.string().trim().default(DEFAULT_MODEL),
    GATE_MODEL_INVESTIGATOR: z.string().trim().default(DEFAULT_MODEL),
    GATE_MODEL_THINKING: thinking,
    GATE_MODEL_EFFORT: z.string().trim().toLowerCase().pipe(z.enum(EFFORTS)).optional(),
    GATE_MODEL_MAX_TOKENS: integer(1).default(8192),
    GATE_MAX_INPUT_TOKENS: integer(1).default(60_000),
    GATE_PRICES: prices,
  })
  .transform((e, ctx): ClaudeSettings => {
    const t = e.GATE_MODEL_THINKING;
    if (t.type === "enabled" && t.budgetTokens >= e.GATE_MODEL_MAX_TOKENS) {
      ctx.addIssue({
        code: "custom",
        path: ["GATE_MODEL_THINKING"],
        message: `the thinking budget (${t.budgetTokens}) must be below GATE_MODEL_MAX_TOKENS (${e.GATE_MODEL_MAX_TOKENS})`,
      });
      return z.NEVER;
    }
    // A setting a configured model refuses would fail every call with a 400: refuse it at start.
    for (const [name, model] of [
      ["GATE_MODEL_SPECIALIST", e.GATE_MODEL_SPECIALIST],
      ["GATE_MODEL_INVESTIGATOR", e.GATE_MODEL_INVESTIGATOR],
    ] as const) {
      const problem = thinkingProblem(model, t, e.GATE_MODEL_EFFORT);
      if (problem) {
        ctx.addIssue({ code: "custom", path: ["GATE_MODEL_THINKING"], message: `${problem} (${name})` });
        return z.NEVER;
      }
    }
    return {
      ...(e.ANTHROPIC_API_KEY ? { apiKey: e.ANTHROPIC_API_KEY } : {}),
      ...(e.ANTHROPIC_BASE_URL ? { baseURL: e.ANTHROPIC_BASE_URL } : {}),
      model: {
        specialistModel: e.GATE_MODEL_SPECIALIST,
        investigatorModel: e.GATE_MODEL_INVESTIGATOR,
        thinking: t,
        ...(e.GATE_MODEL_EFFORT ? { effort: e.GATE_MODEL_EFFORT } : {}),
        maxTokens: e.GATE_MODEL_MAX_TOKENS,
        maxInputTokens: e.GATE_MAX_INPUT_TOKENS,
        prices: e.GATE_PRICES,
      },
    };
  });
