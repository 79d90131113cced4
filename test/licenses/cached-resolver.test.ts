import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LicenseResolver } from "../../src/domain/license-resolver.js";
import { createCachedResolver, licenseCacheKey, type LicenseCache } from "../../src/licenses/cached-resolver.js";
import { createNpmResolver } from "../../src/ecosystems/npm/npm-resolver.js";
import { FAST_RETRY, startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";
import { licenseOf } from "./license-of.js";

function mapCache(): LicenseCache & { map: Map<string, string | null> } {
  const map = new Map<string, string | null>();
  return {
    map,
    get: async (k) => map.get(k),
    set: async (k, v) => {
      map.set(k, v);
    },
  };
}

describe("cached licence resolver", () => {
  let reg: FakeRegistry;
  beforeAll(async () => {
    reg = await startFakeRegistry();
    reg.npm.set("left-pad", { "dist-tags": { latest: "1.3.0" }, versions: { "1.3.0": { license: "MIT" } } });
    reg.npm.set("mystery", { "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": {} } });
  });
  afterAll(() => reg.close());

  it("answers the second call from the cache", async () => {
    const cache = mapCache();
    const licenses = createCachedResolver(createNpmResolver({ registryUrl: reg.npmUrl }), cache);
    reg.requests.length = 0;
    expect(await licenseOf(licenses.lookup("npm", "left-pad", "1.3.0"))).toBe("MIT");
    expect(await licenseOf(licenses.lookup("npm", "left-pad", "1.3.0"))).toBe("MIT");
    expect(reg.requests).toHaveLength(1);
    expect(cache.map.get(licenseCacheKey("npm", "left-pad", "1.3.0"))).toBe("MIT");
  });

  it("caches a known-unknown as null, and does not ask again", async () => {
    const cache = mapCache();
    const licenses = createCachedResolver(createNpmResolver({ registryUrl: reg.npmUrl }), cache);
    reg.requests.length = 0;
    expect(await licenseOf(licenses.lookup("npm", "mystery"))).toBeUndefined();
    expect(await licenseOf(licenses.lookup("npm", "mystery"))).toBeUndefined();
    expect(cache.map.get("npm:mystery@")).toBeNull();
    expect(reg.requests).toHaveLength(1);
  });

  it("never caches a failure: the next call asks again and can succeed", async () => {
    const cache = mapCache();
    const licenses = createCachedResolver(
      createNpmResolver({ registryUrl: reg.npmUrl, timeoutMs: 200, retry: FAST_RETRY }),
      cache,
    );
    reg.mode = "fail";
    expect(await licenses.lookup("npm", "left-pad")).toMatchObject({ status: "failed" });
    expect(cache.map.size).toBe(0);
    reg.mode = "ok";
    expect(await licenseOf(licenses.lookup("npm", "left-pad"))).toBe("MIT");
    expect(cache.map.get("npm:left-pad@")).toBe("MIT");
  });

  it("answers a cached unknown as unknown and a cached licence as found, without asking the inner resolver", async () => {
    let calls = 0;
    const inner: LicenseResolver = {
      lookup: async (_eco, name) => {
        calls += 1;
        return name === "known" ? { status: "found", license: "ISC" } : { status: "unknown" };
      },
    };
    const cache = mapCache();
    const licenses = createCachedResolver(inner, cache);
    await licenses.lookup("cargo", "known");
    expect(await licenses.lookup("cargo", "known")).toEqual({ status: "found", license: "ISC" });
    await licenses.lookup("cargo", "unknown");
    expect(await licenses.lookup("cargo", "unknown")).toEqual({ status: "unknown" });
    expect(calls).toBe(2);
    expect([...cache.map.entries()]).toEqual([
      ["cargo:known@", "ISC"],
      ["cargo:unknown@", null],
    ]);
  });
});
