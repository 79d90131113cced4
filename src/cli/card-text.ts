import type { ReviewResult } from "../review/result.js";
import type { CliContext } from "./context.js";
import { formatResult } from "./format-result.js";

/** The escalation as the Slack card would read it (placeholder until the Slack card lands). */
export function cardText(_ctx: CliContext, result: ReviewResult, _blocks: boolean): string {
  return formatResult(result);
}
