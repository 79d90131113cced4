import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUNDLED_CONFIG_FILE } from "../../src/package-paths.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const dir = tempDir("gate-config-cli-");
const env = { ...process.env, GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "silent" };
delete (env as Record<string, string | undefined>).ANTHROPIC_API_KEY;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe("gate config check", { timeout: 120_000 }, () => {
  it("accepts the bundled default and exits 0", async () => {
    const r = await runGateCli(["config", "check", BUNDLED_CONFIG_FILE], { env, cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${BUNDLED_CONFIG_FILE}: ok`);
  });

  it("refuses an invalid file with one file:line:col: key line per problem, and exits 1", async () => {
    const file = write("bad.yml", "version: 1\nlicenses:\n  deny: GPL-3.0-only\n  runtime: { unknown: maybe }\n");
    const r = await runGateCli(["config", "check", file], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:3:9: licenses.deny:`);
    expect(r.stderr).toContain(`${file}:4:23: licenses.runtime.unknown:`);
  });

  it("works while the gate's own GATE_CONFIG is the broken file being fixed; other commands refuse to run", async () => {
    const broken = write("broken.yml", "version: 1\nrisk: { threshold: high }\n");
    const fixed = write("fixed.yml", "version: 1\nrisk: { threshold: 40 }\n");
    const check = await runGateCli(["config", "check", fixed], { env: { ...env, GATE_CONFIG: broken }, cwd: dir });
    expect(check.code).toBe(0);
    const review = await runGateCli(["review", "001_readme_typo", "--json"], {
      env: { ...env, GATE_CONFIG: broken },
      cwd: dir,
    });
    expect(review.code).toBe(1);
    expect(review.stdout).toBe("");
    expect(review.stderr).toContain(`${broken}:2:20: risk.threshold:`);
  });
});
