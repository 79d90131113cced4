import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createNpmResolver } from "../../src/licenses/npm-resolver.js";
import { startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";

describe("npm licence resolver against a fake registry", () => {
  let reg: FakeRegistry;
  beforeAll(async () => {
    reg = await startFakeRegistry();
    reg.npm.set("left-pad", {
      "dist-tags": { latest: "1.3.0" },
      versions: { "1.1.0": { license: "WTFPL" }, "1.3.0": { license: "MIT" } },
    });
    reg.npm.set("@acme/copyleft", { "dist-tags": { latest: "2.0.0" }, versions: { "2.0.0": { license: { type: "GPL-3.0-only" } } } });
    reg.npm.set("old-style", { "dist-tags": { latest: "0.1.0" }, versions: { "0.1.0": { licenses: [{ type: "MIT" }, { type: "Apache-2.0" }] } } });
    reg.npm.set("see-file", { "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { license: "SEE LICENSE IN LICENSE.md" } } });
    reg.npm.set("no-license", { "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": {} } });
  });
  afterAll(() => reg.close());
  beforeEach(() => {
    reg.mode = "ok";
    reg.requests.length = 0;
  });

  it("reads the requested version's licence, else the latest one's", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl });
    expect(await npm.resolve("npm", "left-pad", "1.1.0")).toBe("WTFPL");
    expect(await npm.resolve("npm", "left-pad", "^1.0.0")).toBe("MIT");
    expect(await npm.resolve("npm", "left-pad")).toBe("MIT");
  });

  it("encodes scoped names as @scope%2fname and reads { type } licences", async () => {
    const npm = createNpmResolver({ registryUrl: `${reg.npmUrl}/` });
    expect(await npm.resolve("npm", "@acme/copyleft")).toBe("GPL-3.0-only");
    expect(reg.requests).toEqual(["/npm/@acme%2Fcopyleft"]);
  });

  it("joins the old licenses array with OR", async () => {
    expect(await createNpmResolver({ registryUrl: reg.npmUrl }).resolve("npm", "old-style")).toBe("(MIT OR Apache-2.0)");
  });

  it("treats non-SPDX text, a missing licence and an unknown package as unknown", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl });
    expect(await npm.resolve("npm", "see-file")).toBeUndefined();
    expect(await npm.resolve("npm", "no-license")).toBeUndefined();
    expect(await npm.lookup("npm", "does-not-exist")).toEqual({ status: "unknown" });
  });

  it("never asks the registry about other ecosystems or malformed names", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl });
    expect(await npm.resolve("go", "github.com/x/y")).toBeUndefined();
    expect(await npm.resolve("cargo", "serde")).toBeUndefined();
    expect(await npm.resolve("npm", "../../admin")).toBeUndefined();
    expect(reg.requests).toEqual([]);
  });

  it("is unknown, never permissive, when the registry fails or hangs", async () => {
    const npm = createNpmResolver({ registryUrl: reg.npmUrl, timeoutMs: 200 });
    reg.mode = "fail";
    expect(await npm.lookup("npm", "left-pad")).toEqual({ status: "failed", reason: "registry answered 500" });
    reg.mode = "hang";
    const started = Date.now();
    const answer = await npm.lookup("npm", "left-pad");
    expect(answer.status).toBe("failed");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await npm.resolve("npm", "left-pad")).toBeUndefined();
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
    expect(await npm.resolve("npm", "left-pad")).toBe("MIT");
    expect(seen).toEqual([`${reg.npmUrl}/left-pad`]);
  });
});
