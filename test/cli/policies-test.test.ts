import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";
import { ACME_01, corpusWith, legacyFixture } from "../detectors/rules/rule-policies.js";

const env = { PATH: process.env.PATH ?? "", GATE_LOG_LEVEL: "silent" };

describe("a team's ast-grep rule policy, through the real CLI", { timeout: 120_000 }, () => {
  it("in GATE_POLICIES_DIR it raises its finding in a review; the review goes to a person citing it", async () => {
    const policies = corpusWith({ "ACME-01.md": ACME_01 });
    const data = tempDir("gate-rules-data-");
    const r = await runGateCli(["review", legacyFixture(), "--json"], {
      env: { ...env, GATE_POLICIES_DIR: policies, GATE_DB: path.join(data, "gate.db"), GATE_DATA_DIR: data },
      cwd: data,
    });
    expect(r.stderr).not.toContain("gate:");
    const result = JSON.parse(r.stdout) as {
      route: string;
      findings: { policy: string; file: string; line: number; message: string }[];
    };
    expect(result.findings.filter((f) => f.policy === "ACME-01")).toEqual([
      expect.objectContaining({
        file: "app/session.py",
        line: 5,
        message: expect.stringContaining("legacy_auth is retired"),
      }),
      expect.objectContaining({
        file: "src/admin/session.ts",
        line: 4,
        message: expect.stringContaining("legacyAuth is retired"),
      }),
    ]);
    expect(result.route).toBe("human");
  });

  it("in a fixture's base-policies/ (the repository's own, at the base commit) it raises its findings too", async () => {
    const fixture = legacyFixture();
    fs.mkdirSync(path.join(fixture, "base-policies"));
    fs.writeFileSync(path.join(fixture, "base-policies", "ACME-01.md"), ACME_01);
    const data = tempDir("gate-rules-data-");
    const r = await runGateCli(["review", fixture, "--json"], {
      env: { ...env, GATE_DB: path.join(data, "gate.db"), GATE_DATA_DIR: data },
      cwd: data,
    });
    const result = JSON.parse(r.stdout) as {
      route: string;
      findings: { policy: string; file: string; line: number }[];
    };
    expect(result.findings.filter((f) => f.policy === "ACME-01").map((f) => `${f.file}:${f.line}`)).toEqual([
      "app/session.py:5",
      "src/admin/session.ts:4",
    ]);
    expect(result.route).toBe("human");
  });

  it("a broken rule stops the CLI at start, naming the file, the line and the rule", async () => {
    const policies = corpusWith({
      "ACME-01.md": ACME_01.replace('{ pattern: "legacyAuth($$$ARGS)" }', "{ kind: not_a_kind }"),
    });
    const data = tempDir("gate-rules-data-");
    const r = await runGateCli(["review", "001_readme_typo", "--json"], {
      env: { ...env, GATE_POLICIES_DIR: policies, GATE_DB: path.join(data, "gate.db"), GATE_DATA_DIR: data },
      cwd: data,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      `${path.join(policies, "ACME-01.md")}:9: rule no-legacy-auth of ACME-01: ast-grep refuses it`,
    );
  });

  it("gate policies test runs one policy over a fixture or a folder and prints its findings", async () => {
    const policyFile = path.join(tempDir("gate-rules-"), "ACME-01.md");
    fs.writeFileSync(policyFile, ACME_01);
    const onFixture = await runGateCli(["policies", "test", policyFile, legacyFixture()], { env, cwd: tempDir() });
    expect(onFixture.code).toBe(0);
    expect(onFixture.stdout).toContain("src/admin/session.ts:4: ACME-01: legacyAuth is retired");
    expect(onFixture.stdout).toContain("app/session.py:5: ACME-01: legacy_auth is retired");
    expect(onFixture.stdout).toContain("2 findings of ACME-01 in 2 files");

    const folder = tempDir("gate-rules-src-");
    fs.mkdirSync(path.join(folder, "lib"));
    fs.writeFileSync(path.join(folder, "lib", "views.py"), "def view(request):\n    return legacy_auth(request)\n");
    const onFolder = await runGateCli(["policies", "test", policyFile, folder, "--json"], { env, cwd: tempDir() });
    expect(onFolder.code).toBe(0);
    expect(JSON.parse(onFolder.stdout)).toEqual([
      expect.objectContaining({ policy: "ACME-01", file: "lib/views.py", line: 2, blocking: true }),
    ]);
  });
});
