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

describe("gate config check is strict about what can never work", { timeout: 120_000 }, () => {
  it("an exception range that is not semver, a malformed advisory id and a glob that matches nothing: errors at file:line:col", async () => {
    const file = write(
      "never.yml",
      [
        "version: 1",
        "exceptions:",
        "  - { policy: LIC-02, package: gpl-lib@not-a-range, reason: legal cleared it, granted_by: legal, expires: 2030-01-01 }",
        "  - { policy: SEC-07, advisory: GHSA-1234, reason: not reachable, granted_by: sec, expires: 2030-01-01 }",
        "  - { policy: SEC-01, path: /test/fixtures/**, reason: test keys, granted_by: sec, expires: 2030-01-01 }",
        "",
      ].join("\n"),
    );
    const r = await runGateCli(["config", "check", file], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:3:32: exceptions.0.package: not-a-range is not a semver range`);
    expect(r.stderr).toContain(`${file}:4:33: exceptions.1.advisory: must be an advisory id`);
    expect(r.stderr).toContain(`${file}:5:29: exceptions.2.path: can never match anything: it starts with /`);
  });

  it("an unknown policy id is an error at its key, not a note", async () => {
    const file = write(
      "unknown.yml",
      "version: 1\npolicies:\n  ACME-99: { blocking: true }\nexceptions:\n  - { policy: XYZ-01, path: docs/**, reason: docs only, granted_by: a, expires: 2030-01-01 }\n",
    );
    const r = await runGateCli(["config", "check", file], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:3:3: policies.ACME-99: ACME-99 has no policy file in the corpus in force`);
    expect(r.stderr).toContain(`${file}:5:15: exceptions.0.policy: XYZ-01 has no policy file`);
  });

  it("an expired exception is a warning with its date (exit 0), and fails with --strict", async () => {
    const file = write(
      "expired.yml",
      "version: 1\nexceptions:\n  - { policy: LIC-02, package: gpl-lib, reason: cleared in 2019, granted_by: legal, expires: 2020-06-30 }\n",
    );
    const lenient = await runGateCli(["config", "check", file], { env, cwd: dir });
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain(`${file}:3:94: exceptions.0.expires: expired on 2020-06-30`);
    expect(lenient.stdout).toContain(`${file}: ok (1 warning)`);
    // The warning the count names is printed, once; --strict prints it once too, and no "ok".
    const once = (text: string) => text.split("\n").filter((l) => l.includes("expired on 2020-06-30")).length;
    expect(once(lenient.stderr)).toBe(1);
    const strict = await runGateCli(["config", "check", file, "--strict"], { env, cwd: dir });
    expect(strict.code).toBe(1);
    expect(once(strict.stderr)).toBe(1);
    expect(strict.stdout).toBe("");
  });
});
