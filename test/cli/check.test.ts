import fs from "node:fs";
import path from "node:path";
import { create as createTar } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";
import { githubIngestionErrors, sarifSchemaErrors } from "../helpers/sarif-schema.js";

const dir = tempDir("gate-cli-check-");
let github: FakeGitHub;

function fixtureJson(name: string, file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "fixtures", name, file), "utf8"));
}

/** The head snapshot of a fixture without a repo/ folder: each added or changed file as its patch shows it. */
async function headTarball(fixture: string, prefix: string): Promise<Buffer> {
  const root = fs.mkdtempSync(path.join(dir, "head-"));
  const files = fixtureJson(fixture, "files.json") as Array<{ filename: string; patch?: string; status: string }>;
  for (const f of files.filter((x) => x.status !== "removed")) {
    const lines = (f.patch ?? "").split("\n").filter((l) => !l.startsWith("@@") && !l.startsWith("-"));
    fs.mkdirSync(path.dirname(path.join(root, f.filename)), { recursive: true });
    fs.writeFileSync(path.join(root, f.filename), `${lines.map((l) => l.slice(1)).join("\n")}\n`);
  }
  const chunks: Buffer[] = [];
  for await (const c of createTar({ gzip: true, cwd: root, prefix }, fs.readdirSync(root)) as AsyncIterable<Buffer>) {
    chunks.push(Buffer.from(c));
  }
  return Buffer.concat(chunks);
}

/** Serves a bundled fixture's pull request and its head from the fake GitHub, as `owner/repo#number`. */
async function servePull(owner: string, repo: string, fixture: string): Promise<string> {
  const pr = fixtureJson(fixture, "pr.json") as { number: number; head: { sha: string } };
  github.setPull(owner, repo, pr.number, { pr, files: fixtureJson(fixture, "files.json") as unknown[] });
  const prefix = `${owner}-${repo}-${pr.head.sha.slice(0, 7)}/`;
  github.setTarball(owner, repo, pr.head.sha, await headTarball(fixture, prefix));
  return `${owner}/${repo}#${pr.number}`;
}

/** The CLI with a token for the fake GitHub, one retry at most, from `cwd`, with no GATE_DB unless given. */
async function gate(args: string[], env: Record<string, string> = {}, cwd = dir) {
  return runGateCli(args, {
    env: {
      PATH: process.env.PATH ?? "",
      GATE_LOG_LEVEL: "silent",
      GITHUB_TOKEN: "ghp_test",
      GATE_GITHUB_API_URL: github.url,
      GATE_GITHUB_RETRIES: "0",
      ...env,
    },
    cwd,
  });
}

const read = (file: string) => fs.readFileSync(file, "utf8");

let clean: string;
let blocked: string;
beforeAll(async () => {
  github = await startFakeGitHub();
  clean = await servePull("acme", "web", "001_readme_typo");
  blocked = await servePull("acme", "payments-api", "004_hardcoded_aws_key");
});
afterAll(async () => {
  await github.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("gate check <owner/repo#n>: a live PR reviewed for CI, exit code by the verdict", { timeout: 120_000 }, () => {
  it("exits 0 on a clean PR, prints the result as review does, and leaves no database behind", async () => {
    const cwd = fs.mkdtempSync(path.join(dir, "clean-"));
    const r = await gate(["check", clean, "--sarif", "out/gate.sarif", "--summary", "summary.md"], {}, cwd);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("acme/web#101");
    expect(r.stdout).toContain("auto-approved");
    // SQLite in a temp folder, removed after: nothing in the working directory but what was asked for.
    expect(fs.readdirSync(cwd).sort()).toEqual(["out", "summary.md"]);
    const sarif = JSON.parse(read(path.join(cwd, "out/gate.sarif")));
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    expect(githubIngestionErrors(sarif)).toEqual([]);
    expect(sarif.runs[0].results).toEqual([]);
    const summary = read(path.join(cwd, "summary.md"));
    expect(summary).toMatch(/^## compliance-gate: Low risk: approved without review\n/);
    expect(summary).toContain("**Route:** auto-approved");
    expect(summary).toContain("No findings.");
    expect(summary).toContain("Nothing to decide.");
  });

  it("exits 1 on a blocked PR; the SARIF and the summary carry the finding, the summary who can decide", async () => {
    const cwd = fs.mkdtempSync(path.join(dir, "blocked-"));
    const r = await gate(
      [
        "check",
        `https://github.com/${blocked.replace("#", "/pull/")}`,
        "--json",
        "--sarif",
        "gate.sarif",
        "--summary",
        "summary.md",
      ],
      { GATE_APPROVERS: "U0SECLEAD,S0APPSEC" },
      cwd,
    );
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result.pr).toBe("acme/payments-api#4");
    expect(result.route).toBe("human");
    expect(result.escalation.reason).toBe("blocking_finding");
    const sec01 = result.findings.find((f: { policy: string }) => f.policy === "SEC-01");
    expect(sec01).toMatchObject({ blocking: true, file: expect.any(String), line: expect.any(Number) });

    const sarif = JSON.parse(read(path.join(cwd, "gate.sarif")));
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    expect(githubIngestionErrors(sarif)).toEqual([]);
    const located = sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === "SEC-01");
    expect(located).toMatchObject({
      level: "error",
      message: { text: sec01.message },
      locations: [{ physicalLocation: { artifactLocation: { uri: sec01.file }, region: { startLine: sec01.line } } }],
      partialFingerprints: { "complianceGateFingerprint/v1": sec01.fingerprint },
    });

    const summary = read(path.join(cwd, "summary.md"));
    expect(summary).toMatch(/^## compliance-gate: Waiting for a person/);
    expect(summary).toContain("| Policy | File | Line | Message |");
    const row = summary.split("\n").find((l) => l.startsWith("| SEC-01 **blocking** |"));
    expect(row).toBe(
      `| SEC-01 **blocking** | \`${sec01.file}\` | ${sec01.line} | ${sec01.message.replace(/\|/g, "\\|")} |`,
    );
    expect(summary).toContain("### Coverage\n\n- Read 1 of 1 changed file that need reading.");
    expect(summary).toContain("### Who can decide\n\n- security: `U0SECLEAD`, `S0APPSEC`");
  });

  it("exits 2 when GitHub answers 500, and the summary says it could not review", async () => {
    const cwd = fs.mkdtempSync(path.join(dir, "error-"));
    github.failNext("GET", /\/repos\/acme\/web\/pulls\/101$/, 1, { status: 500 });
    const r = await gate(["check", clean, "--sarif", "gate.sarif", "--summary", "summary.md"], {}, cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot read pull request acme/web#101: GitHub answered 500");
    expect(fs.existsSync(path.join(cwd, "gate.sarif"))).toBe(false);
    expect(read(path.join(cwd, "summary.md"))).toMatch(
      /^## compliance-gate: could not review acme\/web#101\n\n.*GitHub answered 500/,
    );
  });

  it.each([
    ["no pull request", ["check"], /usage: gate check <owner\/repo#n \| PR URL>/],
    ["a fixture instead of a pull request", ["check", "001_readme_typo"], /usage: gate check/],
    ["two pull requests", ["check", "acme/web#101", "acme/web#2"], /usage: gate check/],
    ["a malformed reference", ["check", "acme/web#0"], /"acme\/web#0" is not a pull request reference/],
    ["an unknown flag", ["check", "acme/web#101", "--frobnicate"], /Unknown option '--frobnicate'/],
  ])("exits 2 on bad arguments: %s", async (_what, args, said) => {
    const asked = github.requests.length;
    const r = await gate(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(said);
    expect(github.requests.length).toBe(asked); // refused before GitHub was asked
  });

  it("exits 2 without credentials", async () => {
    const r = await gate(["check", "acme/web#101"], { GITHUB_TOKEN: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("GITHUB_TOKEN");
  });
});

describe("gate sarif <review-id|owner/repo#n>: a stored review's SARIF", { timeout: 120_000 }, () => {
  it("prints the same log gate check wrote, by the review's id or its pull request", async () => {
    const cwd = fs.mkdtempSync(path.join(dir, "stored-"));
    const env = { GATE_DB: path.join(cwd, "state", "gate.db"), GATE_DATA_DIR: path.join(cwd, "state", "data") };
    const checked = await gate(["check", blocked, "--json", "--sarif", "gate.sarif"], env, cwd);
    expect(checked.code).toBe(1);
    const reviewId = JSON.parse(checked.stdout).review_id as string;
    const written = read(path.join(cwd, "gate.sarif"));

    const byPr = await gate(["sarif", blocked], env, cwd);
    expect(byPr.code).toBe(0);
    expect(`${byPr.stdout}`).toBe(written);
    const byId = await gate(["sarif", reviewId], env, cwd);
    expect(byId.stdout).toBe(written);
    const log = JSON.parse(byId.stdout);
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].properties.review_id).toBe(reviewId);
    expect(log.runs[0].results.map((x: { ruleId: string }) => x.ruleId)).toContain("SEC-01");

    const unknown = await gate(["sarif", "r-000000000000"], env, cwd);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no review "r-000000000000"');
    expect((await gate(["sarif"], env, cwd)).code).toBe(2);
  });
});
