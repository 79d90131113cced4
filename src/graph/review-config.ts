import { createHash } from "node:crypto";
import type { EffectiveConfig } from "../gate-file/effective.js";
import { GateError } from "../domain/errors.js";
import type { ReviewStore } from "../domain/review-store.js";

/** Where review configurations are kept, by digest (the review store's part that holds them). */
type ConfigKeeper = Pick<ReviewStore, "keepConfig" | "configJson">;

/** How many parsed configurations a process keeps in memory (there are few: one per repository file). */
const REMEMBERED = 64;

/**
 * A review's configuration kept once, outside the graph's checkpoints: the state holds its digest
 * (sha256 of its JSON), and reviews that ran with the same configuration share one stored copy.
 * A settled review's last checkpoint still names it, so `status`, the audit and a re-run read it back.
 *
 * @example const shelf = configShelf(store); const ref = await shelf.keep(config); (await shelf.get(ref)).risk.threshold
 */
export function configShelf(keeper: ConfigKeeper) {
  const parsed = new Map<string, EffectiveConfig>();
  const remember = (digest: string, config: EffectiveConfig) => {
    parsed.delete(digest);
    parsed.set(digest, config);
    if (parsed.size > REMEMBERED) parsed.delete(parsed.keys().next().value as string);
    return config;
  };
  return {
    /** Stores the configuration (once per distinct content) and returns its digest. */
    async keep(config: EffectiveConfig): Promise<string> {
      const json = JSON.stringify(config);
      const digest = createHash("sha256").update(json).digest("hex");
      if (!parsed.has(digest)) await keeper.keepConfig(digest, json);
      remember(digest, config);
      return digest;
    },
    /** The configuration kept under a digest; a digest with nothing kept is an error, never a default. */
    async get(digest: string): Promise<EffectiveConfig> {
      const known = parsed.get(digest);
      if (known) return remember(digest, known);
      const json = await keeper.configJson(digest);
      if (json === undefined) {
        throw new GateError("REVIEW_CONFIG_MISSING", `the review's configuration ${digest.slice(0, 12)} is not stored`);
      }
      return remember(digest, JSON.parse(json) as EffectiveConfig);
    },
    /**
     * The configuration a review's graph state names: by digest, or held whole by reviews
     * checkpointed before digests; undefined for a state that names none (before intake).
     */
    async of(state: {
      configRef?: string | null;
      config?: EffectiveConfig | null;
    }): Promise<EffectiveConfig | undefined> {
      return state.configRef ? this.get(state.configRef) : (state.config ?? undefined);
    },
  };
}

export type ConfigShelf = ReturnType<typeof configShelf>;
