import path from "node:path";
import type { AdvisorySource } from "../domain/advisory-source.js";
import type { Clock } from "../domain/clock.js";
import type { ReviewSource } from "../domain/review-source.js";
import type { ReviewStore } from "../domain/review-store.js";
import { fixtureOsvRecords, osvDirRecords } from "./offline-records.js";
import { storeOsvCache } from "./osv-cache.js";
import { advisorySourceOver, type RecordSource } from "./record-source.js";

/** Where live reviews' advisories come from (settings `GATE_OSV_URL`, `GATE_OSV_DIR`, `GATE_OSV_CACHE_TTL`). */
export interface AdvisorySettings {
  osvUrl?: string;
  osvDir?: string;
  cacheTtlMs: number;
  /** `GATE_MAX_ANSWER_BYTES`: the most of one OSV answer read (32 MiB when unset). */
  maxAnswerBytes?: number;
}

/**
 * Each review's advisory source: a fixture reads its own `osv.json` (no network, ever); a live
 * review reads the `GATE_OSV_DIR` folder when one is set (loaded once per process), else OSV's
 * API with answers cached in the store. The live source is made on first use.
 *
 * @example const advisories = advisorySourcesFor(settings.advisories, store, clock); advisories(review.source)
 */
export function advisorySourcesFor(
  settings: AdvisorySettings,
  store: Pick<ReviewStore, "cachedLicense" | "cacheLicense">,
  clock: Clock,
): (source: ReviewSource) => AdvisorySource {
  let live: AdvisorySource | undefined;
  const api = settings.osvUrl ? { baseUrl: settings.osvUrl } : {};
  // The HTTP client (and p-retry) is loaded by the first live review that asks OSV.
  let client: Promise<RecordSource> | undefined;
  const lazyApi: RecordSource = {
    name: `OSV ${(settings.osvUrl ?? "https://api.osv.dev").replace(/\/+$/, "")}`,
    async records(queries) {
      client ??= import("./osv-api-records.js").then(({ osvApiRecords }) =>
        osvApiRecords({
          ...api,
          cache: storeOsvCache(store),
          cacheTtlMs: settings.cacheTtlMs,
          ...(settings.maxAnswerBytes !== undefined ? { maxBytes: settings.maxAnswerBytes } : {}),
          now: () => clock().getTime(),
        }),
      );
      return (await client).records(queries);
    },
  };
  const liveSource = (): AdvisorySource =>
    advisorySourceOver(settings.osvDir ? osvDirRecords(settings.osvDir) : lazyApi);
  return (source) => {
    if (source.kind === "fixture") {
      return advisorySourceOver(fixtureOsvRecords(path.join(source.fixturesDir, source.name, "osv.json")));
    }
    live ??= liveSource();
    return live;
  };
}
