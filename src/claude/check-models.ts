import { APIConnectionError, APIError } from "@anthropic-ai/sdk";
import type { Logger } from "pino";
import { GateError, rootCauseMessage } from "../domain/errors.js";
import type { ModelClient } from "./client.js";
import { HIGHEST_KNOWN, priceFor, type PriceTable } from "./pricing.js";

/** A configured model id and the setting that named it. */
export interface ConfiguredModel {
  setting: string;
  id: string;
}

/**
 * Asks the Models API about every configured model once, at start: an id Anthropic does not know
 * stops the gate with the setting's name, instead of failing every review later. A model with no
 * price is allowed but warned about: it is charged the highest known prices. A refused key (401,
 * 403) and an unknown id (404) are `CONFIG_INVALID`; no route to Anthropic is `SERVICE_UNREACHABLE`,
 * naming the host it tried.
 *
 * @example await checkModels(client, [{ setting: "GATE_MODEL_SPECIALIST", id: "claude-sonnet-5-5" }], prices, log);
 */
export async function checkModels(
  client: ModelClient,
  models: ConfiguredModel[],
  prices: PriceTable,
  log: Logger,
): Promise<void> {
  const seen = new Set<string>();
  for (const { setting, id } of models) {
    if (seen.has(id)) continue;
    seen.add(id);
    try {
      await client.models.retrieve(id);
    } catch (error) {
      if (error instanceof APIError && error.status === 404) {
        throw new GateError(
          "CONFIG_INVALID",
          `${setting}: Anthropic has no model "${id}" (the Models API answered 404)`,
          { cause: error },
        );
      }
      if (error instanceof APIError && (error.status === 401 || error.status === 403)) {
        throw new GateError(
          "CONFIG_INVALID",
          `ANTHROPIC_API_KEY was refused by the Models API (${error.status}) while checking ${setting}`,
          { cause: error },
        );
      }
      const host = new URL(client.baseURL).host;
      // No answer at all (refused, DNS, timeout), or the service failing after the SDK's retries:
      // the key and the id are not known to be wrong, the route to Anthropic is.
      if (error instanceof APIConnectionError || (error instanceof APIError && (error.status ?? 0) >= 500)) {
        const what =
          error instanceof APIConnectionError
            ? `got no answer (${rootCauseMessage(error)})`
            : `answered ${error.status}`;
        throw new GateError(
          "SERVICE_UNREACHABLE",
          `cannot reach Anthropic at ${host} (ANTHROPIC_BASE_URL) to check ${setting} "${id}": the Models API ${what}`,
          { cause: error },
        );
      }
      const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new GateError("CONFIG_INVALID", `${setting}: cannot check model "${id}" with the Models API: ${why}`, {
        cause: error,
      });
    }
    if (!priceFor(id, prices).known) {
      log.warn(
        { model: id, setting, basis: HIGHEST_KNOWN },
        "no price for this model (GATE_PRICES); each call is charged the highest known prices",
      );
    }
  }
}
