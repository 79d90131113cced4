import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGate } from "../../src/build-gate.js";
import { evalCommand } from "../../src/cli/commands/eval.js";
import { contextOver } from "../../src/cli/context.js";
import { loadSettings } from "../../src/settings/index.js";
import { listEvalFixtures } from "../../src/eval/expected.js";
import type { EvalReport, EvalRun } from "../../src/eval/score.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { startFakeAnthropic, textMessage, type FakeAnthropic } from "../fakes/anthropic-api.js";
import { silentLog, tempDir } from "../helpers/gate.js";
import { EMPTY_ANSWER, routeByCaller } from "./helpers.js";

const RESOLVED = {
  answers: ["No check was weakened."],
  evidence: [{ file: "src/auth/session.ts", line: 1, excerpt: "export" }],
  concerns: [],
  conclusive: true,
};

let api: FakeAnthropic;
let dir: string;
const closers: Array<() => void | Promise<void>> = [];
beforeEach(async () => {
  api = await startFakeAnthropic();
  dir = tempDir("gate-eval-cmd-");
});
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A CLI context as `createCliContext` builds it, with stdout and stderr captured. */
async function context(env: Record<string, string>) {
  const settings = loadSettings({ GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir, ...env }, dir);
  const gate = await buildGate(settings, silentLog);
  closers.push(() => gate.close());
  const out: string[] = [];
  const err: string[] = [];
  const ctx = contextOver(gate, { settings, log: silentLog, out: (t) => out.push(t), err: (t) => err.push(t) });
  return { ctx, out, err };
}

describe("gate eval (npm run eval)", () => {
  it("with a key and --rules makes no model call (rules mode)", async () => {
    const fixtures = tempDir("gate-eval-rules-");
    closers.push(() => fs.rmSync(fixtures, { recursive: true, force: true }));
    fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "003_auth_change"), path.join(fixtures, "003_auth_change"), {
      recursive: true,
    });
    const { ctx, out } = await context({ ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: api.url });
    expect(await evalCommand(ctx, { json: true, rules: true }, fixtures)).toBe(0);
    const report = JSON.parse(out[0] ?? "") as EvalRun;
    expect(report.mode).toBe("rules");
    expect(report.per_fixture[0]).toMatchObject({ fixture: "003_auth_change", route: "approved", route_ok: true });
    expect(api.requests).toHaveLength(0);
  });

  it("with a key reviews every fixture that has expected.json and prints one JSON report", async () => {
    routeByCaller(api, {}, (caller) => textMessage(caller === "investigator" ? RESOLVED : EMPTY_ANSWER));
    const { ctx, out, err } = await context({ ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: api.url });
    const code = await evalCommand(ctx, { json: true }, BUNDLED_FIXTURES_DIR);

    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const report = JSON.parse(out[0] ?? "") as EvalRun;
    expect(report.mode).toBe("model");
    const expectedFixtures = listEvalFixtures(BUNDLED_FIXTURES_DIR);
    expect(report.fixtures).toBe(expectedFixtures.length);
    expect(report.per_fixture.map((s) => s.fixture)).toEqual(expectedFixtures);
    expect(report.errors).toBe(0);
    expect(report.route_accuracy.total).toBe(expectedFixtures.length);
    expect(report.route_accuracy.correct).toBeGreaterThan(0);
    // Every call the fake answered is counted, and priced.
    expect(report.model_calls).toBe(api.requests.length);
    expect(report.model_calls).toBeGreaterThan(0);
    expect(report.cost_usd).toBeCloseTo(0.0059 * api.requests.length, 6);
    // The detectors still find the licence problems with a model that finds nothing.
    expect(report.policies.find((p) => p.policy === "LIC-02")).toMatchObject({ recall: 1, precision: 1 });
    // Auto-approved fixtures made no call.
    for (const s of report.per_fixture.filter((f) => f.expected_route === "auto_approved" && f.route_ok)) {
      expect(s.model_calls).toBe(0);
    }
    expect(err.filter((l) => l.startsWith("eval "))).toHaveLength(expectedFixtures.length);
    // The evaluation ran on its own store: none of its reviews is in the operator's.
    expect(await (await ctx.gate()).store.latestForPr("acme/web#101")).toBeUndefined();
  });

  it("prints a table without --json", async () => {
    routeByCaller(api, {}, (caller) => textMessage(caller === "investigator" ? RESOLVED : EMPTY_ANSWER));
    const fixtures = tempDir("gate-eval-fx-");
    closers.push(() => fs.rmSync(fixtures, { recursive: true, force: true }));
    fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency"), path.join(fixtures, "002_new_dependency"), {
      recursive: true,
    });
    const { ctx, out } = await context({ ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: api.url });
    const code = await evalCommand(ctx, { json: false }, fixtures);
    expect(code).toBe(0);
    const text = out.join("\n");
    expect(text).toMatch(/002_new_dependency\s+human\s+human\s+ok\s+ok \(LIC-02\)/);
    expect(text).toMatch(/route accuracy: 1\/1 \(100\.0%\)/);
    expect(text).toMatch(/LIC-02\s+1\s+0\s+0\s+0\s+100\.0%\s+100\.0%/);
    expect(text).toMatch(/model calls 1, tokens 1200 in \/ 150 out, cost \$0\.0059/);
  });

  it("fails when it selects no fixture, and when a fixture cannot be scored", async () => {
    const { ctx, err, out } = await context({ ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: api.url });
    const empty = tempDir("gate-eval-empty-");
    closers.push(() => fs.rmSync(empty, { recursive: true, force: true }));
    expect(await evalCommand(ctx, { json: true }, empty)).toBe(1);
    expect(err.join("\n")).toMatch(/no fixture with an expected\.json .*nothing was evaluated/);
    expect(out).toEqual([]);

    fs.mkdirSync(path.join(empty, "bad"));
    fs.writeFileSync(path.join(empty, "bad", "expected.json"), "{ nope");
    expect(await evalCommand(ctx, { json: true }, empty)).toBe(1);
    const report = JSON.parse(out[0] ?? "") as EvalReport;
    expect(report.errors).toBe(1);
    expect(report.per_fixture[0]?.error).toMatch(/expected\.json: not readable JSON/);
    expect(api.requests).toHaveLength(0);
  });
});
