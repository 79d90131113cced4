import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { BUNDLED_FIXTURES_DIR } from "../src/package-paths.js";
import { reviewFixture, testGate } from "./helpers/gate.js";

const Expected = z.object({
  route: z.enum(["auto_approved", "approved", "human"]),
  must_cite: z.array(z.string()).default([]),
  must_not_cite: z.array(z.string()).default([]),
  max_model_calls: z.number().int().nonnegative().default(0),
});

const names = fs
  .readdirSync(BUNDLED_FIXTURES_DIR)
  .filter((n) => fs.existsSync(path.join(BUNDLED_FIXTURES_DIR, n, "expected.json")))
  .sort();

const gate = await testGate();
afterAll(() => gate.close());

describe("every fixture against its expected.json (rules reviewer, no model)", () => {
  it("has the fixtures the contract names", () => {
    for (const n of ["001_readme_typo", "002_new_dependency", "003_auth_change"]) expect(names).toContain(n);
    expect(names.length).toBeGreaterThanOrEqual(14);
  });

  it.each(names)("%s", async (name) => {
    const expected = Expected.parse(
      JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, name, "expected.json"), "utf8")),
    );
    const result = await reviewFixture(gate, name);
    const cited = new Set(result.findings.map((f) => f.policy));
    expect(result.route, JSON.stringify(result.findings.map((f) => [f.policy, f.blocking]))).toBe(expected.route);
    for (const id of expected.must_cite) expect(cited, `must cite ${id}`).toContain(id);
    for (const id of expected.must_not_cite) expect(cited, `must not cite ${id}`).not.toContain(id);
    expect(result.budget.model_calls).toBeLessThanOrEqual(expected.max_model_calls);
    expect(result.status).toBe(expected.route === "human" ? "waiting_for_human" : "done");
  });
});
