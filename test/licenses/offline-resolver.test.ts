import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { createOfflineResolver, loadRegistryFile, registryKey } from "../../src/licenses/offline-resolver.js";
import { licenseOf } from "./license-of.js";

describe("createOfflineResolver", () => {
  const resolver = createOfflineResolver({
    "npm:gpl-chart-lib": { license: "GPL-3.0-only" },
    "npm:@acme/ui": { license: "MIT" },
    "pypi:Typing_Extensions": { license: "Python-2.0" },
    "go:github.com/acme/gplkit": { license: "AGPL-3.0-only" },
    "cargo:serde_json": { license: "MIT OR Apache-2.0" },
    "npm:no-licence": {},
    "maven:junit": { license: "EPL-1.0" },
  });

  it("resolves each ecosystem by its key", async () => {
    expect(await licenseOf(resolver.lookup("npm", "gpl-chart-lib", "2.1.0"))).toBe("GPL-3.0-only");
    expect(await licenseOf(resolver.lookup("npm", "@acme/ui"))).toBe("MIT");
    expect(await licenseOf(resolver.lookup("go", "github.com/acme/gplkit", "v0.3.1"))).toBe("AGPL-3.0-only");
  });

  it("compares PyPI names per PEP 503 and crate names ignoring - and _", async () => {
    expect(await licenseOf(resolver.lookup("pypi", "typing.extensions"))).toBe("Python-2.0");
    expect(await licenseOf(resolver.lookup("pypi", "TYPING-EXTENSIONS"))).toBe("Python-2.0");
    expect(await licenseOf(resolver.lookup("cargo", "serde-json"))).toBe("MIT OR Apache-2.0");
  });

  it("leaves unknown what it does not list, or lists without a licence", async () => {
    expect(await licenseOf(resolver.lookup("npm", "left-pad"))).toBeUndefined();
    expect(await licenseOf(resolver.lookup("npm", "no-licence"))).toBeUndefined();
    expect(await licenseOf(resolver.lookup("npm", "GPL-CHART-LIB"))).toBeUndefined(); // npm names are case-sensitive
  });

  it("builds keys the way docs/fixtures.md writes them", () => {
    expect(registryKey("pypi", "Django_REST.framework")).toBe("pypi:django-rest-framework");
    expect(registryKey("npm", "@scope/pkg")).toBe("npm:@scope/pkg");
  });
});

describe("loadRegistryFile", () => {
  async function temp(name: string, text?: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "registry-"));
    const file = path.join(dir, name);
    if (text !== undefined) await writeFile(file, text);
    return file;
  }

  it("reads and validates a registry.json", async () => {
    const file = await temp("registry.json", JSON.stringify({ "npm:x": { license: "MIT", homepage: "https://x" } }));
    const registry = await loadRegistryFile(file);
    expect(await licenseOf(createOfflineResolver(registry).lookup("npm", "x"))).toBe("MIT");
  });

  it("treats a missing file as an empty registry: every licence unknown", async () => {
    const registry = await loadRegistryFile(await temp("registry.json"));
    expect(registry).toEqual({});
    expect(await licenseOf(createOfflineResolver(registry).lookup("npm", "x"))).toBeUndefined();
  });

  it("refuses malformed JSON and the wrong shape with FIXTURE_INVALID", async () => {
    const broken = await temp("registry.json", "{ nope");
    await expect(loadRegistryFile(broken)).rejects.toMatchObject({ code: "FIXTURE_INVALID" });
    const wrong = await temp("registry.json", JSON.stringify({ "npm:x": { license: 42 } }));
    const error = await loadRegistryFile(wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GateError);
    expect(String((error as GateError).message)).toContain("npm:x.license");
  });
});
