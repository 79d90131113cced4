import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";
import { defined } from "../helpers/defined.js";

const dir = tempDir("gate-cli-");
const env = { ...process.env, GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "silent" };
delete (env as Record<string, string | undefined>).ANTHROPIC_API_KEY;

/** Runs the real CLI in its own process (tsx on the source), from a directory that is not the package. */
async function gate(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return runGateCli(args, { env: env, cwd: dir });
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Each test starts the CLI in new processes (several seconds each on a loaded machine): a generous limit.
describe("gate CLI, each command in its own process", { timeout: 120_000 }, () => {
  it("review --json prints exactly one JSON object on stdout: a README typo is auto-approved with 0 model calls", async () => {
    const r = await gate("review", path.join(PACKAGE_ROOT, "fixtures/001_readme_typo"), "--json");
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.route).toBe("auto_approved");
    expect(result.budget.model_calls).toBe(0);
    expect(Object.keys(result).sort()).toEqual(
      [
        "budget",
        "coverage",
        "escalation",
        "findings",
        "investigations",
        "pr",
        "review_id",
        "risk",
        "route",
        "status",
      ].sort(),
    );
    // The README is read (by the credentials detector), and nothing is left unread.
    expect(result.coverage).toEqual({
      complete: true,
      read: [{ by: ["SEC-01", "DATA-02"], language: "md", files: ["README.md"] }],
      unread: [],
      exempt: [],
    });
  });

  it("a bundled fixture resolves by name from any directory (packaged assets)", async () => {
    const r = await gate("review", "001_readme_typo", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).pr).toBe("acme/web#101");
  });

  it("review → decide in a second process → status shows human_approved and the audit entry", async () => {
    const reviewed = await gate("review", path.join(PACKAGE_ROOT, "fixtures/002_new_dependency"), "--json");
    const waiting = JSON.parse(reviewed.stdout);
    expect(waiting.route).toBe("human");
    expect(waiting.status).toBe("waiting_for_human");
    expect(
      waiting.findings.some((f: { policy: string; blocking: boolean }) => f.policy === "LIC-02" && f.blocking),
    ).toBe(true);

    const decided = await gate("decide", waiting.review_id, "approve", "--by", "alice", "--note", "legal signed off");
    expect(decided.code).toBe(0);

    const status = await gate("status", waiting.review_id, "--json");
    const result = JSON.parse(status.stdout);
    expect(result.route).toBe("human_approved");
    expect(result.status).toBe("done");
    expect(result.decision).toMatchObject({ kind: "approve", by: "alice", note: "legal signed off" });

    const text = await gate("status", waiting.review_id);
    expect(text.stdout).toMatch(/alice approve: received[\s\S]*alice approve: applied/);

    const again = await gate("decide", waiting.review_id, "reject", "--by", "bob");
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Already decided: approved by alice/);
  });

  it("decide --by the PR's author is refused by the decision policy, in any case and through the login map", async () => {
    const reviewed = await gate("review", "002_new_dependency", "--json");
    const waiting = JSON.parse(reviewed.stdout);
    const reason = `You may not decide on ${waiting.pr}: you opened this pull request, and its author can never decide on it. Nothing was changed.`;

    const byLogin = await gate("decide", waiting.review_id, "approve", "--by", "DEV-Priya");
    expect(byLogin.code).toBe(1);
    expect(byLogin.stderr.trim()).toBe(`gate decide: refused: ${reason}`);

    // The author's Slack id, named by GATE_GITHUB_TO_SLACK, is the author too (an approver or not).
    const mapped = await runGateCli(["decide", waiting.review_id, "approve", "--by", "UPRIYA"], {
      env: { ...env, GATE_GITHUB_TO_SLACK: "dev-priya=UPRIYA", GATE_APPROVERS: "UPRIYA,ULEGAL" },
      cwd: dir,
    });
    expect(mapped.code).toBe(1);
    expect(mapped.stderr.trim()).toBe(`gate decide: refused: ${reason}`);
  });

  it("a missing or malformed fixture is one clear line naming the file, and a non-zero exit", async () => {
    const bad = path.join(dir, "bad_fixture");
    fs.mkdirSync(bad, { recursive: true });
    fs.writeFileSync(path.join(bad, "pr.json"), "{ not json");
    const r = await gate("review", bad, "--json");
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/pr\.json: not valid JSON/);

    fs.writeFileSync(
      path.join(bad, "pr.json"),
      JSON.stringify({
        number: 1,
        title: "x",
        base: { ref: "main", sha: "a" },
        head: { ref: "b", sha: "b" },
        repo: "acme/x",
      }),
    );
    const noFiles = await gate("review", bad);
    expect(noFiles.stderr).toMatch(/files\.json: missing/);
  });

  it("a misspelt bundled fixture name is refused with the names it most likely meant, writing nothing", async () => {
    const r = await gate("review", "001_readme_tpyo", "--json");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain('no fixture "001_readme_tpyo"');
    expect(r.stderr).toContain("did you mean 001_readme_typo?");
    const number = await gate("review", "018");
    expect(number.stderr).toContain("did you mean 018_vulnerable_dependency?");
    const nothing = await gate("review", "zzzzzzzz");
    expect(nothing.stderr).toContain('no fixture "zzzzzzzz"');
    expect(nothing.stderr).not.toContain("did you mean");
  });

  it("refuses a fixture name that is not plain before touching the disk", async () => {
    const r = await gate("review", "evil name;rm -rf", "--json");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/refused fixture name/);
  });

  it("status of an unknown review is a clear error", async () => {
    const r = await gate("status", "acme/nothing#9");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no review "acme\/nothing#9"/);
  });

  it("graph prints the Mermaid diagram drawn from the compiled graph", async () => {
    const r = await gate("graph");
    expect(r.stdout).toMatch(/^(%%\{init|graph TD|flowchart)/m);
    for (const node of [
      "intake",
      "detect",
      "assess_risk",
      "security",
      "licensing",
      "data",
      "reconcile",
      "investigate",
      "human_gate",
      "verdict",
    ]) {
      expect(r.stdout).toContain(node);
    }
  });

  it("policies lists all twelve policies of the catalogue, all enforced under the bundled configuration", async () => {
    const r = await gate("policies", "--json");
    const view = JSON.parse(r.stdout);
    expect(view.not_enforced).toEqual([]);
    expect(view.sources).toEqual([path.join(PACKAGE_ROOT, "config", "gate.default.yml")]);
    const ids = view.policies.map((p: { id: string }) => p.id);
    expect(ids).toEqual([
      "DATA-01",
      "DATA-02",
      "DATA-03",
      "LIC-01",
      "LIC-02",
      "LIC-03",
      "SEC-01",
      "SEC-02",
      "SEC-03",
      "SEC-04",
      "SEC-05",
      "SEC-06",
      "SEC-07",
    ]);
  });
});

describe("gate demo", { timeout: 120_000 }, () => {
  it("--blocks prints only JSON on stdout: each waiting review's card as the Slack publisher sends it", async () => {
    const r = await gate("demo", "--blocks");
    expect(r.code).toBe(0);
    const cards = JSON.parse(r.stdout) as { fixture: string; review_id: string; blocks: { type: string }[] }[];
    expect(cards.map((c) => c.fixture)).toEqual([
      "002_new_dependency",
      "018_vulnerable_dependency",
      "003b_auth_change_logs_token",
    ]);
    expect(r.stderr).toMatch(/6 reviews in .* s, 0 model calls/);

    // The same card, rendered in-process from the same SQLite file by the Slack module.
    const { buildGate } = await import("../../src/build-gate.js");
    const { loadSettings } = await import("../../src/settings/index.js");
    const { renderCard } = await import("../../src/slack/card.js");
    const { silentLog } = await import("../helpers/gate.js");
    const g = await buildGate(loadSettings(env, dir), silentLog);
    try {
      for (const card of cards) {
        const review = defined(await g.store.get(card.review_id), card.review_id);
        const result = await g.runner.result(card.review_id);
        expect(result.status).toBe("waiting_for_human");
        expect(card.blocks).toEqual(renderCard({ review, result, checkRunUrl: `${review.url}/checks` }).blocks);
      }
      const first = defined(cards[0], "a card");
      const actions = first.blocks.find((b) => b.type === "actions") as unknown as {
        elements: { action_id: string; value: string }[];
      };
      const id = first.review_id;
      expect(actions.elements.map((e) => [e.action_id, e.value])).toEqual([
        ["gate_approve", id],
        ["gate_reject", id],
        ["gate_request_info", id],
        ["gate_approve_note", id],
        ["gate_rerun", id],
      ]);
    } finally {
      await g.close();
    }
  }, 60_000);

  it("the text shows each waiting review's card and the exact command that resumes it", async () => {
    const r = await gate("demo");
    expect(r.code).toBe(0);
    const section =
      defined(r.stdout.split("=== 002_new_dependency ===")[1], "the 002 section").split("\n=== ")[0] ?? "";
    const reviewId = defined(/\[(r-[0-9a-f]{12})\]/.exec(section)?.[1], "a review id");
    expect(section).toMatch(/\n {2}\| .*LIC-02/);
    expect(section).toContain(`npx gate decide ${reviewId} approve --by alice`);
    // The known-vulnerability review: the advisory, its fix, on the card.
    const vulnerable =
      defined(r.stdout.split("=== 018_vulnerable_dependency ===")[1], "the 018 section").split("\n=== ")[0] ?? "";
    expect(vulnerable).toMatch(/\n {2}\| .*\*SEC-07\* · high · :no_entry: \*blocking\*/);
    expect(vulnerable).toMatch(/\n {2}\| lodash@4\.17\.20 .*GHSA-35jh-r3h4-6jhm \(CVE-2021-23337\)/);
    expect(vulnerable).toContain("Upgrade to 4.17.21");
    expect(r.stdout).toMatch(/6 reviews in .* s, 0 model calls/);
  }, 60_000);

  it("refuses --json with --blocks: each prints one JSON document", async () => {
    const r = await gate("demo", "--json", "--blocks");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/choose one of --json .* and --blocks/);
  });
});

describe("gate status of a pull request with several reviews", () => {
  const own = tempDir("gate-cli-status-");
  const ownEnv = { ...env, GATE_DB: path.join(own, "gate.db"), GATE_DATA_DIR: own };
  afterAll(() => fs.rmSync(own, { recursive: true, force: true }));
  const run = (...args: string[]) => runGateCli(args, { env: ownEnv, cwd: own });

  it("lists every review of the PR, newest first; --json prints the newest", async () => {
    const first = JSON.parse((await run("review", "002_new_dependency", "--json")).stdout);
    const second = JSON.parse((await run("review", "002_new_dependency", "--json")).stdout);
    expect(first.review_id).not.toBe(second.review_id);
    expect(first.pr).toBe(second.pr);
    const decided = await run("decide", first.review_id, "reject", "--by", "alice", "--note", "first try");
    expect(decided.code).toBe(0);

    const text = await run("status", first.pr);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${first.pr}: 2 reviews, newest first`);
    const newestAt = text.stdout.indexOf(`[${second.review_id}]`);
    const olderAt = text.stdout.indexOf(`[${first.review_id}]`);
    expect(newestAt).toBeGreaterThan(0);
    expect(olderAt).toBeGreaterThan(newestAt);
    expect(text.stdout.slice(olderAt)).toMatch(/rejected by a person[\s\S]*alice reject/);

    const json = JSON.parse((await run("status", first.pr, "--json")).stdout);
    expect(json.review_id).toBe(second.review_id);
    expect(json.status).toBe("waiting_for_human");

    const one = await run("status", first.review_id);
    expect(one.stdout).not.toContain(second.review_id);
    expect(one.stdout).not.toMatch(/reviews, newest first/);
  }, 120_000);
});
