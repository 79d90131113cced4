import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";
import { ACME_01, corpusWith } from "../detectors/rules/rule-policies.js";

const env = { PATH: process.env.PATH ?? "", GATE_LOG_LEVEL: "silent" };

/** A fixture whose PR adds a TypeScript file that calls legacyAuth, and a Python one that does not. */
function legacyFixture(): string {
  const dir = path.join(tempDir("gate-rules-fixture-"), "legacy_auth_call");
  fs.mkdirSync(dir, { recursive: true });
  const pr = {
    number: 41,
    title: "Session check for the admin page",
    body: "",
    user: { login: "dev" },
    base: { ref: "main", sha: "a".repeat(40), repo: { full_name: "acme/portal" } },
    head: { ref: "admin-session", sha: "b".repeat(40) },
  };
  const ts = [
    "import { legacyAuth } from './legacy';",
    "",
    "export function admin(req: Request) {",
    "  return legacyAuth(req);",
    "}",
  ];
  const files = [
    {
      filename: "src/admin/session.ts",
      status: "added",
      additions: ts.length,
      deletions: 0,
      changes: ts.length,
      patch: [`@@ -0,0 +1,${ts.length} @@`, ...ts.map((l) => `+${l}`)].join("\n"),
    },
    {
      filename: "app/health.py",
      status: "added",
      additions: 1,
      deletions: 0,
      changes: 1,
      patch: "@@ -0,0 +1 @@\n+def health(): return 'ok'",
    },
  ];
  fs.writeFileSync(path.join(dir, "pr.json"), JSON.stringify(pr));
  fs.writeFileSync(path.join(dir, "files.json"), JSON.stringify(files));
  return dir;
}

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
        file: "src/admin/session.ts",
        line: 4,
        message: expect.stringContaining("legacyAuth is retired"),
      }),
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
    expect(onFixture.stdout).toContain("1 finding of ACME-01 in 2 files");

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
