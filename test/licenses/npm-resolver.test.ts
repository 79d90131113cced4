import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createNpmResolver } from "../../src/ecosystems/npm/npm-resolver.js";
import { FAST_RETRY, startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";
import { licenseOf } from "./license-of.js";

describe("npm licence resolver against a fake registry", () => {
  let reg: FakeRegistry;
  beforeAll(async () => {
    reg = await startFakeRegistry();
    reg.npm.set("left-pad", {
      "dist-tags": { latest: "1.3.0" },
      versions: { "1.1.0": { license: "WTFPL" }, "1.3.0": { license: "MIT" } },
    });
    reg.npm.set("@acme/copyleft", {
      "dist-tags": { latest: "2.0.0" },
      versions: { "2.0.0": { license: { type: "GPL-3.0-only" } } },
    });
    reg.npm.set("old-style", {
      "dist-tags": { latest: "0.1.0" },
      versions: { "0.1.0": { licenses: [{ type: "MIT" }, { type: "Apache-2.0" }] } },
    });
    reg.npm.set("see-file", {
      "dist-tags": { latest: "1.0.0" },
      versions: { "1.0.0": { license: "SEE LICENSE IN LICENSE.md" } },
    });
    reg.npm.set("no-license", { "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": {} } });
  });
  afterAll(() => reg.close());
  beforeEach(() => {
    reg.mode = "ok";
    reg.failNext = 0;
    reg.requests.length = 0;
  });

  it("reads the requested version's licence, else the latest one's", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl });
    expect(await licenseOf(npm.lookup("npm", "left-pad", "1.1.0"))).toBe("WTFPL");
    expect(await licenseOf(npm.lookup("npm", "left-pad", "^1.0.0"))).toBe("MIT");
    expect(await licenseOf(npm.lookup("npm", "left-pad"))).toBe("MIT");
  });

  it("encodes scoped names as @scope%2fname and reads { type } licences", async () => {
    const npm = createNpmResolver({ registryUrl: `${reg.npmUrl}/` });
    expect(await licenseOf(npm.lookup("npm", "@acme/copyleft"))).toBe("GPL-3.0-only");
    expect(reg.requests).toEqual(["/npm/@acme%2Fcopyleft"]);
  });

  it("joins the old licenses array with OR", async () => {
    expect(await licenseOf(createNpmResolver({ registryUrl: reg.npmUrl }).lookup("npm", "old-style"))).toBe(
      "(MIT OR Apache-2.0)",
    );
  });

  it("treats non-SPDX text, a missing licence and an unknown package as unknown", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl });
    expect(await licenseOf(npm.lookup("npm", "see-file"))).toBeUndefined();
    expect(await licenseOf(npm.lookup("npm", "no-license"))).toBeUndefined();
    expect(await npm.lookup("npm", "does-not-exist")).toEqual({ status: "unknown" });
  });

  it("never asks the registry about other ecosystems or malformed names", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl });
    expect(await licenseOf(npm.lookup("go", "github.com/x/y"))).toBeUndefined();
    expect(await licenseOf(npm.lookup("cargo", "serde"))).toBeUndefined();
    expect(await licenseOf(npm.lookup("npm", "../../admin"))).toBeUndefined();
    expect(reg.requests).toEqual([]);
  });

  it("a registry that fails, hangs or sends garbage is a failed lookup (naming the registry and the error), never unknown", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl, timeoutMs: 200, retry: FAST_RETRY });
    const registry = `npm registry ${reg.npmUrl}`;
    reg.mode = "fail";
    expect(await npm.lookup("npm", "left-pad")).toEqual({
      status: "failed",
      registry,
      reason: "answered 503 (3 attempts)",
    });
    expect(reg.requests).toEqual(["/npm/left-pad", "/npm/left-pad", "/npm/left-pad"]);
    reg.mode = "hang";
    const started = Date.now();
    expect(await npm.lookup("npm", "left-pad")).toEqual({
      status: "failed",
      registry,
      reason: "timed out after 200 ms (3 attempts)",
    });
    expect(Date.now() - started).toBeLessThan(3000);
    reg.mode = "garbage";
    expect(await npm.lookup("npm", "left-pad")).toEqual({
      status: "failed",
      registry,
      reason: "sent a document that is not JSON (3 attempts)",
    });
  });

  it("a registry that cannot be reached at all is a failed lookup", async () => {
    const npm = createNpmResolver({ registryUrl: "http://127.0.0.1:9", timeoutMs: 500, retry: FAST_RETRY });
    const answer = await npm.lookup("npm", "left-pad");
    expect(answer).toMatchObject({ status: "failed", registry: "npm registry http://127.0.0.1:9" });
    expect(answer.status === "failed" && answer.reason).toMatch(/^did not answer: .*\(3 attempts\)$/);
  });

  it("retries with backoff: a registry that recovers within the retries answers", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl, retry: FAST_RETRY });
    reg.failNext = 2;
    expect(await npm.lookup("npm", "left-pad", "1.3.0")).toEqual({ status: "found", license: "MIT" });
    expect(reg.requests).toHaveLength(3);
    // Without retries the first 503 is final.
    reg.failNext = 1;
    expect(
      (await createNpmResolver({ registryUrl: reg.npmUrl, retry: { retries: 0 } }).lookup("npm", "left-pad")).status,
    ).toBe("failed");
  });

  it("does not retry an answer that will not change (403), and says which", async () => {
    const npm = createNpmResolver({
      registryUrl: reg.npmUrl,
      retry: FAST_RETRY,
      fetch: async () => new Response("forbidden", { status: 403 }),
    });
    expect(await npm.lookup("npm", "left-pad")).toMatchObject({ status: "failed", reason: "answered 403 (1 attempt)" });
  });

  it("uses an injected fetch", async () => {
    const seen: string[] = [];
    const npm = createNpmResolver({
      registryUrl: reg.npmUrl,
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    expect(await licenseOf(npm.lookup("npm", "left-pad"))).toBe("MIT");
    expect(seen).toEqual([`${reg.npmUrl}/left-pad`]);
  });
});
