import { describe, expect, it } from "vitest";
import { cargoTomlParser } from "../../../../src/ecosystems/cargo/cargo-toml.js";
import { changedDependencies } from "../../../../src/ecosystems/common/changed-dependencies.js";
import { buildPr } from "../../pr-builder.js";

function file(patch: string) {
  const f = buildPr({ files: [{ filename: "Cargo.toml", patch }] }).files[0];
  if (!f) throw new Error("no file");
  return f;
}

const HEAD = `[package]
name = "svc"
version = "0.1.0"

[dependencies]
serde = { version = "1.0", features = ["derive"] }
json = { package = "serde_json", version = "1.0" }
local = { path = "../local" }

[dev-dependencies]
gpl_bench = "0.2"

[build-dependencies]
cc = "1.0"

[target.'cfg(unix)'.dependencies]
nix = "0.29"
`;

describe("cargoTomlParser", () => {
  it("reads every dependency table from the head file, with renames", () => {
    const scopes = cargoTomlParser.readHead(HEAD, "Cargo.toml");
    expect(scopes?.get("serde")).toBe("runtime");
    expect(scopes?.get("serde-json")).toBe("runtime");
    expect(scopes?.get("gpl-bench")).toBe("dev");
    expect(scopes?.get("cc")).toBe("runtime");
    expect(scopes?.get("nix")).toBe("runtime");
    expect(scopes?.has("json")).toBe(false);
  });

  it("tells [dev-dependencies] from [dependencies] and [build-dependencies] in hunks", () => {
    const patch = [
      "@@ -5,10 +5,13 @@",
      " [dependencies]",
      '+copyleft-core = "2.0"',
      " ",
      " [dev-dependencies]",
      '+gpl_bench = "0.2"',
      " ",
      " [build-dependencies]",
      '+cc = "1.0"',
    ].join("\n");
    expect(changedDependencies(cargoTomlParser, file(patch)).map((c) => [c.name, c.scope])).toEqual([
      ["copyleft-core", "runtime"],
      ["gpl_bench", "dev"],
      ["cc", "runtime"],
    ]);
  });

  it("reads inline tables, renames, sub-tables and skips path crates and package metadata", () => {
    const patch = [
      "@@ -1,6 +1,12 @@",
      " [package]",
      '-version = "0.1.0"',
      '+version = "0.2.0"',
      " [dependencies]",
      '+json = { package = "serde_json", version = "1.0" }',
      '+local = { path = "../local" }',
      "+",
      "+[dependencies.tokio]",
      '+version = "1.38"',
      '+features = ["full"]',
    ].join("\n");
    expect(changedDependencies(cargoTomlParser, file(patch)).map((c) => [c.name, c.version, c.scope])).toEqual([
      ["serde_json", "1.0", "runtime"],
      ["tokio", "1.38", "runtime"],
    ]);
  });

  it("treats an entry in an unseen table as runtime, but not package metadata", () => {
    const patch = ["@@ -40,2 +40,4 @@", ' a = "1"', '+copyleft-core = "2.0"', '+edition = "2021"'].join("\n");
    expect(changedDependencies(cargoTomlParser, file(patch)).map((c) => [c.name, c.scope])).toEqual([
      ["copyleft-core", "runtime"],
    ]);
  });

  it("reads a target-specific table", () => {
    const patch = ["@@ -16,1 +16,2 @@", " [target.'cfg(unix)'.dependencies]", '+nix = "0.29"'].join("\n");
    expect(changedDependencies(cargoTomlParser, file(patch))[0]).toMatchObject({ name: "nix", scope: "runtime" });
  });
});
