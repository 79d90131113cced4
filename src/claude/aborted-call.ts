import { addUsage, type Usage } from "../domain/usage.js";
import { estimateTokens } from "./input-budget.js";
import { ModelCallAborted } from "./model-output-error.js";
import { costOf, type PriceTable } from "./pricing.js";

/**
 * The error of a model call cut off after it was sent (a specialist's clock, the investigation's
 * harness), with what it may have cost counted: the text sent, as uncached input, added to what
 * the review had spent so far. The one accounting of a cut-off call, for the specialists and the
 * investigator alike.
 *
 * @example throw abortedCall("the security model call", { model, sent }, usage, prices, error);
 */
export function abortedCall(
  what: string,
  call: { model: string; sent: string },
  spentBefore: Usage,
  prices: PriceTable,
  cause: unknown,
): ModelCallAborted {
  const input_tokens = estimateTokens(call.sent);
  const spent = { model_calls: 1, input_tokens, cost_usd: costOf(call.model, { input_tokens }, prices) };
  return new ModelCallAborted(`${what} was aborted`, { usage: addUsage(spentBefore, spent), cause });
}
