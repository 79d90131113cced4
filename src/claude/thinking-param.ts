import type { ThinkingConfigParam } from "@anthropic-ai/sdk/resources/messages";
import type { ThinkingSetting } from "./settings.js";

/**
 * The `thinking` request field for a setting, or undefined to leave it out (off).
 *
 * @example thinkingParam({ type: "enabled", budgetTokens: 2048 }) // { type: "enabled", budget_tokens: 2048 }
 */
export function thinkingParam(setting: ThinkingSetting): ThinkingConfigParam | undefined {
  if (setting.type === "adaptive") return { type: "adaptive" };
  if (setting.type === "enabled") return { type: "enabled", budget_tokens: setting.budgetTokens };
  return undefined;
}
