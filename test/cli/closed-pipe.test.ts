import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/gate.js";
import { runGateCli, runGateCliIntoClosedPipe } from "../helpers/run-cli.js";

const dir = tempDir("gate-cli-pipe-");
const env = { ...process.env, GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "silent" };
delete (env as Record<string, string | undefined>).ANTHROPIC_API_KEY;

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// `gate status … | head -1`: the reader goes away; the CLI must end quietly with its own exit code.
describe("gate output into a closed pipe", { timeout: 120_000 }, () => {
  it("status of a review exits 0 with nothing on stderr (no EPIPE crash)", async () => {
    const reviewed = await runGateCli(["review", "002_new_dependency", "--json"], { env, cwd: dir });
    expect(reviewed.code).toBe(0);
    const { pr } = JSON.parse(reviewed.stdout) as { pr: string };

    const r = await runGateCliIntoClosedPipe(["status", pr], { env, cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
  });

  it("a long output (the demo's Slack cards as JSON) ends the same way", async () => {
    const r = await runGateCliIntoClosedPipe(["demo", "--blocks"], { env, cwd: dir });
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.code).toBe(0);
  });

  it("a refusal still says why on stderr and keeps its exit code", async () => {
    const r = await runGateCliIntoClosedPipe(["status", "acme/nothing#9"], { env, cwd: dir });
    expect(r.stderr).toMatch(/no review "acme\/nothing#9"/);
    expect(r.code).toBe(1);
  });
});
