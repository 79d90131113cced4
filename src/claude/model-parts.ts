import type { Logger } from "pino";
import { checkModels } from "./check-models.js";
import { createModelClient } from "./client.js";
import { createModelStrategy } from "./investigator/strategy.js";
import type { ModelSettings } from "./settings.js";
import { createModelSpecialist } from "./specialist/index.js";
import { createTokenCounter } from "./token-counter.js";

/** What building the model parts needs: the key (set), the host, and how to call the models. */
export interface ModelPartsConfig {
  apiKey: string;
  baseURL?: string;
  model: ModelSettings;
}

/**
 * With ANTHROPIC_API_KEY set: one configured client (docs/design.md, reason 4), injected into the
 * specialists and the investigator's strategy, and a check that the configured models exist. The
 * one road from the gate's builder to the Anthropic SDK: `buildGate` imports this module only when
 * a key is set, so a run without one never loads the SDK.
 *
 * @example const model = (await import("./claude/model-parts.js")).modelParts({ ...settings.claude, apiKey }, log)
 */
export function modelParts(claude: ModelPartsConfig, log: Logger) {
  const client = createModelClient({
    apiKey: claude.apiKey,
    ...(claude.baseURL ? { baseURL: claude.baseURL } : {}),
  });
  // One cache of token counts for every specialist: the same request is counted once.
  const tokens = createTokenCounter(client, log);
  const deps = { client, settings: claude.model, prices: claude.model.prices, log, tokens };
  const models = [
    { setting: "GATE_MODEL_SPECIALIST", id: claude.model.specialistModel },
    { setting: "GATE_MODEL_INVESTIGATOR", id: claude.model.investigatorModel },
  ];
  return {
    specialist: createModelSpecialist(deps),
    newStrategy: () => createModelStrategy(deps),
    check: () => checkModels(client, models, claude.model.prices, log),
  };
}
