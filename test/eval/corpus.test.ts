import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGate } from "../../src/build-gate.js";
import { evalCommand } from "../../src/cli/commands/eval.js";
import { contextOver } from "../../src/cli/context.js";
import { loadSettings } from "../../src/settings/index.js";
import type { EvalRun } from "../../src/eval/score.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { silentLog, tempDir } from "../helpers/gate.js";

const CORPUS = path.join(BUNDLED_FIXTURES_DIR, "eval");

/**
 * The evaluation corpus, scored in rules mode (no key) exactly as `gate eval fixtures/eval` does:
 * a detector or investigator regression that lets a risky PR through, or sends many clean ones to
 * a person, fails here.
 */
describe("gate eval over fixtures/eval/ in rules mode", () => {
  let dir: string;
  let report: EvalRun;
  let code: number;
  beforeAll(async () => {
    dir = tempDir("gate-eval-corpus-");
    const settings = loadSettings({ GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir }, dir);
    const gate = await buildGate(settings, silentLog);
    const out: string[] = [];
    const ctx = contextOver(gate, { settings, log: silentLog, out: (t) => out.push(t), err: () => undefined });
    try {
      code = await evalCommand(ctx, { json: true }, CORPUS);
    } finally {
      await gate.close();
    }
    report = JSON.parse(out[0] ?? "null") as EvalRun;
  }, 600_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reviews at least 40 pull requests, 15 or more of them clean, every one without error or model call", () => {
    expect(code).toBe(0);
    expect(report.mode).toBe("rules");
    expect(report.errors).toBe(0);
    expect(report.fixtures).toBeGreaterThanOrEqual(40);
    expect(report.needless_escalations.of).toBeGreaterThanOrEqual(15);
    expect(report.model_calls).toBe(0);
  });

  it("lets no risky pull request through: 0 unsafe passes", () => {
    expect(report.unsafe_passes.fixtures).toEqual([]);
    expect(report.unsafe_passes.count).toBe(0);
  });

  it("sends at most 10% of the clean pull requests to a person", () => {
    expect(report.needless_escalations.rate ?? 1).toBeLessThanOrEqual(0.1);
  });

  it("cites every policy a fixture expects (recall 100%)", () => {
    const missed = report.per_fixture.filter((s) => s.fn.length > 0).map((s) => `${s.fixture}: ${s.fn.join(",")}`);
    expect(missed).toEqual([]);
  });
});
