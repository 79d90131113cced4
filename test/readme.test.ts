import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/package-paths.js";
import { SETTING_NAMES } from "../src/settings/index.js";
import { testGate } from "./helpers/gate.js";

const readme = fs.readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
const gate = await testGate();
afterAll(() => gate.close());

describe("README stays true", () => {
  it("embeds the Mermaid diagram drawn from the compiled graph", async () => {
    const drawn = (await gate.graph.getGraphAsync()).drawMermaid({ withStyles: false }).trim();
    const embedded = /```mermaid\n([\s\S]*?)\n```/.exec(readme)?.[1]?.trim();
    expect(embedded).toBe(drawn);
  });

  it("lists every policy of the corpus in force", () => {
    for (const p of gate.policies)
      expect(readme).toContain(`| ${p.id} | ${p.specialty} | ${p.blocking ? "yes" : "no"} |`);
  });

  it("lists exactly the settings the settings module reads, in its Settings table", () => {
    const section = readme.split("\n## Settings\n")[1]?.split("\n## ")[0] ?? "";
    const rows = section.split("\n").filter((l) => l.startsWith("| `"));
    const documented = rows.flatMap((row) =>
      [...(row.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] ?? ""),
    );
    expect(documented.length).toBeGreaterThan(30);
    expect([...documented].sort()).toEqual([...SETTING_NAMES].sort());
  });

  it("names no GATE_* setting in the source that the settings module does not read", () => {
    const files = fs
      .readdirSync(path.join(PACKAGE_ROOT, "src"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"));
    const source = files.map((f) => fs.readFileSync(path.join(PACKAGE_ROOT, "src", f), "utf8")).join("\n");
    // A constant named GATE_… in the code is not a setting.
    const constants = new Set([...source.matchAll(/\bconst (GATE_[A-Z0-9_]+)/g)].map((m) => m[1] ?? ""));
    const named = new Set(
      [...source.matchAll(/\b(GATE_[A-Z0-9_]*[A-Z0-9])(?![A-Z0-9_*])/g)]
        .map((m) => m[1] ?? "")
        .filter((n) => !constants.has(n)),
    );
    expect(named.size).toBeGreaterThan(20);
    for (const name of named) expect(SETTING_NAMES, name).toContain(name);
  });
});
