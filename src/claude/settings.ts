import type { PriceTable } from "./pricing.js";
import type { Effort, ThinkingSetting } from "./thinking-param.js";

/** The newest Sonnet id in @anthropic-ai/sdk 1.10's `Model` list. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";

export type { ThinkingSetting } from "./thinking-param.js";

/**
 * How the specialists and the investigator call Claude. Read from `GATE_MODEL_*`,
 * `GATE_MAX_INPUT_TOKENS` and `GATE_PRICES` by `loadSettings` (src/settings/).
 */
export interface ModelSettings {
  specialistModel: string;
  investigatorModel: string;
  thinking: ThinkingSetting;
  /** `output_config.effort`; unset is the model's default. */
  effort?: Effort;
  /** `max_tokens` of one answer. */
  maxTokens: number;
  /** Estimated input tokens one specialist call may send. */
  maxInputTokens: number;
  /** USD per million tokens, by model id. */
  prices: PriceTable;
}
