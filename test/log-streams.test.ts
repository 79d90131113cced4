import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/package-paths.js";
import { startFakeAnthropic } from "./fakes/anthropic-api.js";
import { tempDir } from "./helpers/gate.js";
import { runGateCli } from "./helpers/run-cli.js";
import { startChildServer } from "./server/child-server.js";
import { startFakes, stackEnv } from "./server/helpers.js";

const dir = tempDir("gate-log-streams-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const jsonLines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("where the logs go, as the README says", () => {
  it("the README's GATE_LOG_LEVEL row names stdout for the server and stderr for the CLI", () => {
    const readme = fs.readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
    const row = readme.split("\n").find((l) => l.startsWith("| `GATE_LOG_LEVEL`")) ?? "";
    expect(row).toMatch(/server writes its logs .*to stdout, the CLI to stderr/);
  });

  it("the server (src/main.ts in its own process) writes pino's JSON lines to stdout", async () => {
    const fakes = await startFakes({ mode: "token" });
    const child = await startChildServer(stackEnv(fakes, path.join(dir, "data"), { mode: "token" }));
    try {
      // startChildServer reads "gate listening" from stdout only; the line is pino's JSON.
      const listening = child.logs.find((l) => l.msg === "gate listening");
      expect(listening).toMatchObject({ level: 30, port: child.port });
    } finally {
      child.kill("SIGTERM");
      await child.exited;
      await Promise.all([fakes.gh.close(), fakes.registry.close(), fakes.osv.close()]);
    }
  });

  it("the CLI writes its logs to stderr, and stdout holds only the result", async () => {
    // A model with no price is warned about at start (the review itself calls no model).
    const api = await startFakeAnthropic();
    api.models.add("claude-gate-test-model");
    try {
      const r = await runGateCli(["review", "001_readme_typo", "--json"], {
        env: {
          PATH: process.env.PATH ?? "",
          GATE_DB: path.join(dir, "cli.db"),
          ANTHROPIC_API_KEY: "sk-ant-test",
          ANTHROPIC_BASE_URL: api.url,
          GATE_MODEL_SPECIALIST: "claude-gate-test-model",
        },
        cwd: dir,
      });
      expect(r.code).toBe(0);
      expect(jsonLines(r.stderr)).toEqual([
        expect.objectContaining({ level: 40, model: "claude-gate-test-model", msg: expect.stringMatching(/no price/) }),
      ]);
      expect(JSON.parse(r.stdout)).toMatchObject({ route: "auto_approved" });
    } finally {
      await api.close();
    }
  });
});
