import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/package-paths.js";
import { testGate } from "./helpers/gate.js";

const readme = fs.readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
const gate = testGate();
afterAll(() => gate.close());

describe("README stays true", () => {
  it("embeds the Mermaid diagram drawn from the compiled graph", async () => {
    const drawn = (await gate.graph.getGraphAsync()).drawMermaid({ withStyles: false }).trim();
    const embedded = /```mermaid\n([\s\S]*?)\n```/.exec(readme)?.[1]?.trim();
    expect(embedded).toBe(drawn);
  });

  it("lists every policy of the corpus in force", () => {
    for (const p of gate.policies) expect(readme).toContain(`| ${p.id} | ${p.specialty} | ${p.blocking ? "yes" : "no"} |`);
  });

  it("documents every GATE_* setting the code reads", () => {
    const sources = ["src/config.ts", "src/server/server-config.ts", "src/github/github-settings.ts", "src/claude/settings.ts", "src/cli/context.ts"]
      .map((f) => fs.readFileSync(path.join(PACKAGE_ROOT, f), "utf8"))
      .join("\n");
    const names = new Set([...sources.matchAll(/\b(GATE_[A-Z_]+)\b/g)].map((m) => m[1]!));
    expect(names.size).toBeGreaterThan(20);
    for (const n of names) expect(readme, n).toContain(n);
  });
});
