import fs from "node:fs";
import path from "node:path";
import { create as createTar } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const dir = tempDir("gate-cli-live-");
let github: FakeGitHub;

function fixtureJson(name: string, file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "fixtures", name, file), "utf8"));
}

async function gate(env: Record<string, string>, ...args: string[]) {
  return runGateCli(args, {
    env: {
      PATH: process.env.PATH ?? "",
      GATE_DB: path.join(dir, "gate.db"),
      GATE_DATA_DIR: dir,
      GATE_LOG_LEVEL: "silent",
      ...env,
    },
    cwd: dir,
  });
}

beforeAll(async () => {
  github = await startFakeGitHub();
  const pr = fixtureJson("003_auth_change", "pr.json") as { head: { sha: string }; number: number };
  github.setPull("acme", "accounts", pr.number, {
    pr,
    files: fixtureJson("003_auth_change", "files.json") as unknown[],
  });
  // The head snapshot: the fixture's repo/ folder, as GitHub's tarball (one top-level folder).
  const repoDir = path.join(PACKAGE_ROOT, "fixtures/003_auth_change/repo");
  const chunks: Buffer[] = [];
  const stream = createTar(
    { gzip: true, cwd: repoDir, prefix: `acme-accounts-${pr.head.sha.slice(0, 7)}/` },
    fs.readdirSync(repoDir),
  );
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(c));
  github.setTarball("acme", "accounts", pr.head.sha, Buffer.concat(chunks));
});
afterAll(async () => {
  await github.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("gate review owner/repo#n (live intake, the same PullRequest as a fixture)", () => {
  it("reviews a live PR through the REST API and its head tarball, and removes the snapshot after", async () => {
    const env = { GITHUB_TOKEN: "ghp_test", GATE_GITHUB_API_URL: github.url };
    const r = await gate(env, "review", "acme/accounts#214", "--json");
    expect(r.stderr).toMatch(/investigating: turn 1/); // progress goes to stderr, stdout holds only the result
    const result = JSON.parse(r.stdout);
    expect(result.pr).toBe("acme/accounts#214");
    // Same route as the fixture: the investigator read the snapshot extracted from the tarball.
    expect(result.route).toBe("approved");
    expect(result.budget.cycles_used).toBe(1);
    expect(result.investigations[0].evidence.length).toBeGreaterThan(0);
    expect(github.find("GET", /\/tarball\//).length).toBe(1);
    expect(fs.existsSync(path.join(dir, "snapshots", "acme", "accounts"))).toBe(true);
    expect(fs.readdirSync(path.join(dir, "snapshots", "acme", "accounts"))).toEqual([]);
  });

  it("a PR URL works the same way", async () => {
    const env = { GITHUB_TOKEN: "ghp_test", GATE_GITHUB_API_URL: github.url };
    const r = await gate(env, "review", "https://github.com/acme/accounts/pull/214", "--json");
    expect(JSON.parse(r.stdout).pr).toBe("acme/accounts#214");
  });

  it("without credentials it says which setting is missing", async () => {
    const r = await gate({}, "review", "acme/accounts#214");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/GITHUB_TOKEN/);
  });

  it("contradictory credentials fail naming the variables", async () => {
    const r = await gate({ GITHUB_TOKEN: "x", GATE_GITHUB_APP_ID: "12" }, "review", "acme/accounts#214");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/GATE_GITHUB_APP_ID/);
  });
});

describe("gate policies --repo owner/name", { timeout: 120_000 }, () => {
  it("prints the configuration a repository's pull requests get: its default branch's .github/gate.yml over the server's", async () => {
    github.setContent(
      "acme",
      "accounts",
      "",
      ".github/gate.yml",
      "version: 1\nrisk: { threshold: 12 }\nslack: { channel: CACCOUNTS }\n",
    );
    github.setContent("acme", "broken", "", ".github/gate.yml", "version: 1\nrisk:\n  threshold: twelve\n");
    const env = { GITHUB_TOKEN: "ghp_test", GATE_GITHUB_API_URL: github.url };
    const r = await gate(env, "policies", "--repo", "acme/accounts", "--json");
    expect(r.code).toBe(0);
    const view = JSON.parse(r.stdout);
    expect(view.risk.threshold).toBe(12);
    expect(view.slack_channel).toBe("CACCOUNTS");
    expect(view.sources.at(-1)).toBe("acme/accounts:.github/gate.yml@default branch");
    // A repository without a file gets the server's configuration; a broken file is an error naming its line.
    const none = JSON.parse((await gate(env, "policies", "--repo", "acme/other", "--json")).stdout);
    expect(none.risk.threshold).toBe(30);
    const broken = await gate(env, "policies", "--repo", "acme/broken");
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("acme/broken:.github/gate.yml@default branch:3:14: risk.threshold");
  });
});
