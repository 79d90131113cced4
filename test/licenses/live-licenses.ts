import { systemClock } from "../../src/domain/clock.js";
import { createRegistryResolver } from "../../src/licenses/registry-resolver.js";
import { openDatabase } from "../../src/store/database.js";
import { SqliteReviewStore } from "../../src/store/review-store.js";
import { FAST_RETRY, type FakeRegistry } from "../fakes/registry.js";

/**
 * The live resolver of every ecosystem, pointed at the loopback fake, with its cache in an
 * in-memory store: what `main` builds, fast retries and a short timeout.
 *
 * @example const { store, licenses } = liveLicenses(reg);
 */
export function liveLicenses(reg: FakeRegistry) {
  const store = new SqliteReviewStore(openDatabase(":memory:"), systemClock);
  const licenses = createRegistryResolver({
    store,
    npmRegistryUrl: reg.npmUrl,
    pypiUrl: reg.pypiUrl,
    cratesUrl: reg.cratesUrl,
    goLicenseUrl: reg.goUrl,
    mavenLicenseUrl: reg.mavenUrl,
    nugetLicenseUrl: reg.nugetUrl,
    packagistUrl: reg.packagistUrl,
    rubygemsUrl: reg.rubygemsUrl,
    retry: FAST_RETRY,
    timeoutMs: 150,
  });
  return { store, licenses };
}
