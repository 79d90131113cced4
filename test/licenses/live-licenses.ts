import { expect } from "vitest";
import type { LicenseLookup } from "../../src/domain/license-resolver.js";
import { systemClock } from "../../src/domain/clock.js";
import { createRegistryResolver } from "../../src/ecosystems/registry-resolver.js";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { FAST_RETRY, type FakeRegistry } from "../fakes/registry.js";

/**
 * The live resolver of every ecosystem, pointed at the loopback fake, with its cache in an
 * in-memory store: what `main` builds, fast retries and a short timeout.
 *
 * @example const { store, licenses } = liveLicenses(reg);
 */
export function liveLicenses(reg: FakeRegistry) {
  const store = sqliteStore(openDatabase(":memory:"), systemClock);
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

/**
 * Checks that one lookup fails closed, naming its registry, when the fake answers 503 and when it
 * never answers (the resolver must have a 150 ms timeout); the fake is left answering normally.
 *
 * @example await expectFailsClosed(reg, () => go.lookup("go", "github.com/a/b", "v1.0.0"), `Go module metadata ${reg.goUrl}`);
 */
export async function expectFailsClosed(
  reg: FakeRegistry,
  lookup: () => Promise<LicenseLookup>,
  registry: string,
): Promise<void> {
  reg.mode = "fail";
  expect(await lookup()).toEqual({ status: "failed", registry, reason: "answered 503 (3 attempts)" });
  reg.mode = "hang";
  expect(await lookup()).toEqual({ status: "failed", registry, reason: "timed out after 150 ms (3 attempts)" });
  reg.mode = "ok";
}
