import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { startFakeAnthropic, textMessage, type FakeAnthropic } from "../fakes/anthropic-api.js";
import { tempDir } from "../helpers/gate.js";
import { callerOf, routeByCaller } from "./helpers.js";
import { runGateCli } from "../helpers/run-cli.js";

const dir = tempDir("gate-model-cli-");
let api: FakeAnthropic;

/** The real CLI in its own process (tsx on the source), with Claude on and pointed at the fake. */
async function gate(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return gateWith({}, ...args);
}

async function gateWith(
  extra: Record<string, string>,
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GATE_DB: path.join(dir, "gate.db"),
    GATE_DATA_DIR: dir,
    GATE_LOG_LEVEL: "silent",
    ANTHROPIC_API_KEY: "test",
    ANTHROPIC_BASE_URL: api.url,
    ...extra,
  };
  return runGateCli(args, { env: env, cwd: dir });
}

beforeAll(async () => {
  api = await startFakeAnthropic();
});
afterAll(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const MODEL_LIC02 = "The new runtime dependency is GPL-3.0-only; GPL is not allowed at runtime.";

describe("gate review --json with Claude on (real CLI process, real SDK, fake Messages API)", () => {
  it("fixture 002: model calls, tokens and cost are reported with the LIC-02 finding", async () => {
    routeByCaller(api, {
      licensing: [
        textMessage({
          findings: [
            {
              policy: "LIC-02",
              severity: "high",
              blocking: true,
              needs_more_context: false,
              file: "package.json",
              message: MODEL_LIC02,
            },
          ],
          verdicts: [{ policy: "LIC-02", verdict: "violated", reason: "GPL-3.0 runtime dependency" }],
        }),
      ],
    });
    const before = api.requests.length;
    const r = await gate("review", path.join(PACKAGE_ROOT, "fixtures/002_new_dependency"), "--json");
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);

    const sent = api.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((q) => callerOf(q) !== undefined)).toBe(true);
    expect(result.budget.model_calls).toBe(sent.length);
    expect(result.budget.input_tokens).toBe(1200 * sent.length); // the fake's default usage per call
    expect(result.budget.output_tokens).toBe(150 * sent.length);
    // docs/claude.md: 1,200 × $2 + 800 × $2.50 (cache write) + 150 × $10 per million = $0.0059 a call
    expect(result.budget.cost_usd).toBeCloseTo(0.0059 * sent.length, 6);

    // The configured model was checked with the Models API before the review.
    expect(api.modelRequests.map((q) => q.path)).toContain("/v1/models/claude-sonnet-5-5");

    expect(result.route).toBe("human");
    expect(result.escalation.reason).toBe("blocking_finding");
    const lic02 = result.findings.filter((f: { policy: string }) => f.policy === "LIC-02");
    expect(lic02.some((f: { blocking: boolean }) => f.blocking)).toBe(true);
    expect(lic02.some((f: { message: string }) => f.message === MODEL_LIC02)).toBe(true);
  });

  it("an unknown model id stops `gate review` at start, naming the setting, before any model call", async () => {
    routeByCaller(api, {});
    const before = api.requests.length;
    const r = await gateWith(
      { GATE_MODEL_INVESTIGATOR: "claude-sonet-5-5" },
      "review",
      path.join(PACKAGE_ROOT, "fixtures/002_new_dependency"),
      "--json",
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/GATE_MODEL_INVESTIGATOR: Anthropic has no model "claude-sonet-5-5"/);
    expect(api.requests.length - before).toBe(0);
  });

  it("fixture 001: a README typo makes 0 model calls and the fake receives 0 requests", async () => {
    routeByCaller(api, {});
    const before = api.requests.length;
    const r = await gate("review", path.join(PACKAGE_ROOT, "fixtures/001_readme_typo"), "--json");
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.route).toBe("auto_approved");
    expect(result.budget.model_calls).toBe(0);
    expect(result.budget.cost_usd).toBe(0);
    expect(api.requests.length - before).toBe(0);
  });
});
