import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGate } from "../../src/build-gate.js";
import { defaultEvalCorpus, evalCommand } from "../../src/cli/commands/eval.js";
import { contextOver } from "../../src/cli/context.js";
import { loadSettings } from "../../src/settings/index.js";
import type { EvalRun } from "../../src/eval/score.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { silentLog, tempDir } from "../helpers/gate.js";

let dir: string;
const closers: Array<() => void | Promise<void>> = [];
beforeEach(() => {
  dir = tempDir("gate-eval-rules-");
});
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A CLI context with no API key, stdout and stderr captured. */
async function context() {
  const settings = loadSettings({ GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir }, dir);
  const gate = await buildGate(settings, silentLog);
  closers.push(() => gate.close());
  const out: string[] = [];
  const err: string[] = [];
  const ctx = contextOver(gate, { settings, log: silentLog, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { ctx, out, err };
}

/** A corpus folder with copies of bundled fixtures, optionally with a changed expected.json. */
function corpus(name: string, fixtures: Record<string, object | undefined>): string {
  const root = path.join(dir, name);
  for (const [fixture, expected] of Object.entries(fixtures)) {
    fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, fixture), path.join(root, fixture), { recursive: true });
    if (expected) fs.writeFileSync(path.join(root, fixture, "expected.json"), JSON.stringify(expected));
  }
  return root;
}

describe("gate eval in rules mode (no key)", () => {
  it("reviews every fixture of the folders with no model call and reports routes, unsafe passes and needless escalations", async () => {
    const main = corpus("corpus", { "001_readme_typo": undefined, "002_new_dependency": undefined });
    // A second folder inside the first, as fixtures/eval/ is: names are relative to the common parent.
    fs.cpSync(
      path.join(BUNDLED_FIXTURES_DIR, "003b_auth_change_logs_token"),
      path.join(main, "eval", "003b_auth_change_logs_token"),
      {
        recursive: true,
      },
    );
    // A deliberately wrong expectation: a clean typo fix that "should" go to a person cannot be an unsafe pass...
    fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "016_tests_only"), path.join(main, "eval", "016_tests_only"), {
      recursive: true,
    });
    fs.writeFileSync(path.join(main, "eval", "016_tests_only", "expected.json"), JSON.stringify({ route: "human" }));
    const { ctx, out, err } = await context();

    const code = await evalCommand(ctx, { json: true }, [main, path.join(main, "eval")]);

    expect(code).toBe(0);
    const report = JSON.parse(out[0] ?? "") as EvalRun;
    expect(report.mode).toBe("rules");
    expect(report.corpus).toEqual([main, path.join(main, "eval")]);
    expect(report.per_fixture.map((s) => [s.fixture, s.route])).toEqual([
      ["001_readme_typo", "auto_approved"],
      ["002_new_dependency", "human"],
      ["eval/003b_auth_change_logs_token", "human"],
      ["eval/016_tests_only", "auto_approved"],
    ]);
    // ...it is one: a risky-labelled fixture that passed is counted, by name.
    expect(report.unsafe_passes).toEqual({ count: 1, of: 3, rate: 1 / 3, fixtures: ["eval/016_tests_only"] });
    expect(report.needless_escalations).toEqual({ count: 0, of: 1, rate: 0, fixtures: [] });
    expect(report.model_calls).toBe(0);
    expect(report.cost_usd).toBe(0);
    expect(report.policies.find((p) => p.policy === "LIC-02")).toMatchObject({ tp: 1, recall: 1 });
    // Each fixture's findings are printed with their place, so a score can ask which finding cited a policy.
    const auth = report.per_fixture.find((s) => s.fixture === "eval/003b_auth_change_logs_token");
    expect(auth?.findings.length).toBeGreaterThan(0);
    expect([...new Set(auth?.findings.map((f) => f.policy))].sort()).toEqual(auth?.cited);
    expect(auth?.findings.every((f) => typeof f.message === "string" && f.message !== "")).toBe(true);
    expect(auth?.findings.some((f) => f.file !== undefined && typeof f.line === "number")).toBe(true);
    expect(err[0]).toMatch(/rules mode \(no model\): 4 fixtures/);
  });

  it("prints the unsafe passes and needless escalations in the table", async () => {
    const main = corpus("table", {
      "001_readme_typo": { route: "human" },
      "002_new_dependency": { route: "approved" },
    });
    const { ctx, out } = await context();
    expect(await evalCommand(ctx, { json: false }, main)).toBe(0);
    const text = out.join("\n");
    expect(text).toMatch(/^mode: rules \(no model\)/);
    expect(text).toMatch(/unsafe passes: 1 of 1 risky fixtures \(100\.0%\): 001_readme_typo/);
    expect(text).toMatch(/needless escalations: 1 of 1 clean fixtures \(100\.0%\): 002_new_dependency/);
  });

  it("refuses a folder that does not exist, and a folder with no fixture", async () => {
    const { ctx, out, err } = await context();
    expect(await evalCommand(ctx, { json: true }, path.join(dir, "nope"))).toBe(1);
    expect(err.join("\n")).toMatch(/not a folder: .*nope; nothing was evaluated/);
    fs.mkdirSync(path.join(dir, "empty"));
    expect(await evalCommand(ctx, { json: true }, path.join(dir, "empty"))).toBe(1);
    expect(err.join("\n")).toMatch(/no fixture with an expected\.json/);
    expect(out).toEqual([]);
  });

  it("by default scores the package's fixtures/ and, when present, fixtures/eval/", () => {
    expect(defaultEvalCorpus(path.join(dir, "none"))).toEqual([path.join(dir, "none")]);
    fs.mkdirSync(path.join(dir, "fx", "eval"), { recursive: true });
    expect(defaultEvalCorpus(path.join(dir, "fx"))).toEqual([path.join(dir, "fx"), path.join(dir, "fx", "eval")]);
    expect(defaultEvalCorpus()[0]).toBe(BUNDLED_FIXTURES_DIR);
  });
});
