import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { ACTION_APPROVE } from "../../src/slack/card.js";
import { rawTarball, type RawEntry } from "../fakes/github-api.js";
import { defined } from "../helpers/defined.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  checkRunsOn,
  latestReview,
  openPr,
  postWebhook,
  pullRequestEvent,
  record,
  serveFixture,
  stacksClosedAfterEach,
  waitFor,
  type ServedPr,
  type Stack,
} from "./helpers.js";
import { cardPosts, click, waitingReview } from "./slack-helpers.js";

/**
 * The attacks of issue 43 on a carried decision, end to end: a person approves one head, a push
 * changes what made the finding dangerous (or who may decide, or the base branch), and the
 * approval must not carry to it.
 */
const start = stacksClosedAfterEach();

const H2 = "2".repeat(40);
const SECURITY_APPROVER = "USECURITY";

/** One file a head adds, as GitHub's PR files list shows it. */
const added = (filename: string, text: string) => {
  const lines = text.split("\n");
  return {
    filename,
    status: "added",
    additions: lines.length,
    deletions: 0,
    changes: lines.length,
    patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join("\n"),
  };
};

const README_EDIT = {
  filename: "README.md",
  status: "modified",
  additions: 1,
  deletions: 1,
  changes: 2,
  patch: "@@ -1,3 +1,3 @@\n # dashboard\n-Teh dashboard.\n+The dashboard.\n",
};

const readFixture = (fixture: string, name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, fixture, name), "utf8"));

/** The files of a fixture's `repo/` folder, by path. */
function repoOf(
  fixture: string,
  dir = path.join(BUNDLED_FIXTURES_DIR, fixture, "repo"),
  prefix = "",
): Record<string, string> {
  if (!fs.existsSync(dir)) return {};
  return Object.assign(
    {},
    ...fs.readdirSync(dir, { withFileTypes: true }).map((d) => {
      const rel = prefix ? `${prefix}/${d.name}` : d.name;
      return d.isDirectory()
        ? repoOf(fixture, path.join(dir, d.name), rel)
        : { [rel]: fs.readFileSync(path.join(dir, d.name), "utf8") };
    }),
  );
}

/** A package-lock.json (v3) of the dashboard resolving gpl-chart-lib to `version`. */
const lockfile = (version: string) =>
  JSON.stringify(
    {
      name: "web-dashboard",
      version: "2.3.0",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "web-dashboard", version: "2.3.0", dependencies: { "gpl-chart-lib": "^2.1.0" } },
        "node_modules/gpl-chart-lib": {
          version,
          resolved: `https://registry.npmjs.org/gpl-chart-lib/-/gpl-chart-lib-${version}.tgz`,
        },
      },
    },
    null,
    2,
  );

/**
 * Serves a head of the PR: its files list, its snapshot (the given files), and GitHub's compare of
 * the previous head with it (`ahead`, with the files that changed); the PR's base ref as given.
 */
function serveHead(
  s: Stack,
  pr: ServedPr,
  headSha: string,
  head: { files: unknown[]; tree: Record<string, string>; from?: string; changed?: string[]; baseRef?: string },
): ServedPr {
  const pull = record(readFixture("002_new_dependency", "pr.json"));
  const base = record(pull.base);
  s.gh.setPull(pr.owner, pr.repo, pr.number, {
    pr: {
      ...pull,
      base: { ...base, ref: head.baseRef ?? base.ref },
      head: { ...record(pull.head), sha: headSha },
      changed_files: head.files.length,
    },
    files: head.files,
  });
  const top = `${pr.owner}-${pr.repo}-${headSha.slice(0, 7)}`;
  const entries: RawEntry[] = [
    { path: `${top}/`, type: "Directory" },
    ...Object.entries(head.tree).map(([p, body]): RawEntry => ({ path: `${top}/${p}`, type: "File", body })),
  ];
  s.gh.setTarball(pr.owner, pr.repo, headSha, rawTarball(entries));
  if (head.from) s.gh.setCompare(pr.owner, pr.repo, head.from, headSha, { status: "ahead", files: head.changed ?? [] });
  return { ...pr, headSha };
}

/** Sends the push's synchronize event and waits until the server is idle; the PR's newest review. */
async function deliver(s: Stack, pr: ServedPr) {
  expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", pr)))).status).toBe(202);
  await s.server.idle();
  const review = await latestReview(s, pr);
  expect(review.headSha).toBe(pr.headSha);
  return review;
}

const conclusion = (s: Stack, sha: string) => checkRunsOn(s.gh, sha).at(-1)?.fields.conclusion;

/** A person's Approve on the waiting review's card; waits until the audit log has it and the server is idle. */
async function approve(s: Stack, by: string, review: { id: string; slackTs?: string }) {
  expect((await click(s, ACTION_APPROVE, by, review.id, defined(review.slackTs, "the card"))).status).toBe(200);
  await waitFor(`${by}'s approval`, async () => {
    await s.server.idle();
    return (await s.server.gate.store.auditFor(review.id)).some((e) => e.actor === by && e.action === "approve");
  });
  await s.server.idle();
}

/** A stack with Slack, and a PR (the GPL-dependency fixture's number) whose first head adds these files. */
async function openWith(env: Record<string, string>, files: Record<string, string>) {
  const s = await start({ slack: true, env: { GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}`, ...env } });
  const served = serveFixture(s, "002_new_dependency");
  const pr = serveHead(s, served, served.headSha, {
    files: Object.entries(files).map(([f, t]) => added(f, t)),
    tree: { "README.md": "# dashboard\n", ...files },
  });
  const review = await openPr(s, pr);
  expect(review.status).toBe("waiting_for_human");
  return { s, pr, review };
}

/**
 * A PR blocked by a GPL dependency (licensing: the general approvers) and a hard-coded AWS key
 * (security: its own list), approved by the security approver, then by the general one.
 */
async function approvedTwice() {
  const env = {
    GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}`,
    GATE_APPROVERS: APPROVER,
    GATE_APPROVERS_BY_SPECIALTY: `security=${SECURITY_APPROVER}`,
  };
  const s = await start({ slack: true, env });
  const pr = serveFixture(s, "002_new_dependency");
  const files = [
    ...(readFixture("002_new_dependency", "files.json") as unknown[]),
    ...(readFixture("004_hardcoded_aws_key", "files.json") as unknown[]),
  ];
  const tree = { "README.md": "# dashboard\n", ...repoOf("002_new_dependency"), ...repoOf("004_hardcoded_aws_key") };
  serveHead(s, pr, pr.headSha, { files, tree });
  const review = await openPr(s, pr);
  expect(review.status).toBe("waiting_for_human");
  await approve(s, SECURITY_APPROVER, review);
  expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
  await approve(s, APPROVER, review);
  expect(conclusion(s, pr.headSha)).toBe("success");
  const decided = await s.server.gate.runner.result(review.id);
  expect(decided.decision?.approvals?.map((a) => a.by)).toEqual([SECURITY_APPROVER, APPROVER]);
  return { s, pr, review, files, tree };
}

describe("a push that changes what a decision was about does not carry it (issue 43)", () => {
  it("SEC-06: after an approved harmless edit of .github/gate.yml, a push that disables SEC-01/02/04 and adds an approver asks again", async () => {
    const harmless = "version: 1\ndecisions:\n  carry_forward: unchanged_findings\n";
    const { s, pr, review } = await openWith({ GATE_APPROVERS: APPROVER }, { ".github/gate.yml": harmless });
    const first = await s.server.gate.runner.result(review.id);
    expect(first.findings.filter((f) => f.blocking).map((f) => f.policy)).toEqual(["SEC-06"]);
    await approve(s, APPROVER, review);
    expect(conclusion(s, pr.headSha)).toBe("success");

    const evil = [
      harmless.trimEnd(),
      "approvers:",
      "  - UEVIL",
      "policies:",
      "  SEC-01: { enabled: false }",
      "  SEC-02: { enabled: false }",
      "  SEC-04: { enabled: false }",
    ].join("\n");
    const pushed = serveHead(s, pr, H2, {
      files: [added(".github/gate.yml", evil)],
      tree: { "README.md": "# dashboard\n", ".github/gate.yml": evil },
      from: pr.headSha,
      changed: [".github/gate.yml"],
    });
    const asked = await deliver(s, pushed);
    expect(asked.status).toBe("waiting_for_human");
    expect(conclusion(s, H2)).toBe("action_required");
    const since = (await s.server.gate.runner.result(asked.id)).since_decision;
    expect(since?.changes.join("\n")).toContain("SEC-06 in .github/gate.yml: the code it cites changed");
    expect((await s.server.gate.store.auditFor(asked.id)).map((e) => e.outcome)).not.toContain("carried_forward");
    expect(cardPosts(s)).toHaveLength(2);
  }, 60_000);

  it("SEC-04: a pull_request_target job that gains a deploy step using PROD_DEPLOY_KEY asks again", async () => {
    const workflow = [
      "name: PR checks",
      "on: pull_request_target",
      "jobs:",
      "  test:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "        with:",
      "          ref: ${{ github.event.pull_request.head.sha }}",
      "      - run: npm ci",
      "        env:",
      "          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    ].join("\n");
    const file = ".github/workflows/pr.yml";
    const { s, pr, review } = await openWith({ GATE_APPROVERS: APPROVER }, { [file]: workflow });
    const first = await s.server.gate.runner.result(review.id);
    expect(first.findings.filter((f) => f.blocking).map((f) => f.policy)).toEqual(["SEC-04", "SEC-04"]);
    await approve(s, APPROVER, review);
    expect(conclusion(s, pr.headSha)).toBe("success");

    const deploy = `${workflow}\n      - run: ./deploy.sh production\n        env:\n          DEPLOY_KEY: \${{ secrets.PROD_DEPLOY_KEY }}`;
    const pushed = serveHead(s, pr, H2, {
      files: [added(file, deploy)],
      tree: { "README.md": "# dashboard\n", [file]: deploy },
      from: pr.headSha,
      changed: [file],
    });
    const asked = await deliver(s, pushed);
    expect(asked.status).toBe("waiting_for_human");
    expect(conclusion(s, H2)).toBe("action_required");
    const blocking = (await s.server.gate.runner.result(asked.id)).findings.filter((f) => f.blocking);
    // The same lines are cited as before; the job is not the one approved.
    expect(blocking.map((f) => f.line)).toEqual(first.findings.filter((f) => f.blocking).map((f) => f.line));
    expect(blocking.map((f) => f.fingerprint)).not.toEqual(
      first.findings.filter((f) => f.blocking).map((f) => f.fingerprint),
    );
    expect((await s.server.gate.store.auditFor(asked.id)).map((e) => e.outcome)).not.toContain("carried_forward");
  }, 60_000);

  it("LIC-02: a lockfile-only move of a GPL dependency to a version the registry lists as AGPL asks again (the licence of the version the new head resolves, not the range's)", async () => {
    const s = await start({
      slack: true,
      env: { GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}`, GATE_APPROVERS: APPROVER },
    });
    const served = serveFixture(s, "002_new_dependency");
    // The registry at the first review: 2.1.0 is the newest version, under the GPL.
    s.registry.npm.set("gpl-chart-lib", {
      "dist-tags": { latest: "2.1.0" },
      versions: { "2.1.0": { license: "GPL-3.0-only" } },
    });
    const files = readFixture("002_new_dependency", "files.json") as Array<{ filename: string }>;
    const manifest = files.filter((f) => f.filename === "package.json");
    const tree = { "README.md": "# dashboard\n", ...repoOf("002_new_dependency") };
    const pr = serveHead(s, served, served.headSha, {
      files: [...manifest, added("package-lock.json", lockfile("2.1.0"))],
      tree: { ...tree, "package-lock.json": lockfile("2.1.0") },
    });
    const review = await openPr(s, pr);
    expect(review.status).toBe("waiting_for_human");
    const first = (await s.server.gate.runner.result(review.id)).findings.filter((f) => f.blocking);
    expect(first.map((f) => f.policy)).toEqual(["LIC-02"]);
    expect(first[0]?.message).toContain("licensed GPL-3.0-only");
    await approve(s, APPROVER, review);
    expect(conclusion(s, pr.headSha)).toBe("success");

    // 2.2.0 is published under the AGPL; a push changes only the lockfile to resolve it.
    s.registry.npm.set("gpl-chart-lib", {
      "dist-tags": { latest: "2.2.0" },
      versions: { "2.1.0": { license: "GPL-3.0-only" }, "2.2.0": { license: "AGPL-3.0-only" } },
    });
    const pushed = serveHead(s, pr, H2, {
      files: [...manifest, added("package-lock.json", lockfile("2.2.0"))],
      tree: { ...tree, "package-lock.json": lockfile("2.2.0") },
      from: pr.headSha,
      changed: ["package-lock.json"],
    });
    const asked = await deliver(s, pushed);
    expect(asked.status).toBe("waiting_for_human");
    expect(conclusion(s, H2)).toBe("action_required");
    const blocking = (await s.server.gate.runner.result(asked.id)).findings.filter((f) => f.blocking);
    expect(blocking.map((f) => f.policy)).toEqual(["LIC-02"]);
    expect(blocking[0]?.message).toContain("licensed AGPL-3.0-only");
    expect(blocking[0]?.fingerprint).not.toBe(first[0]?.fingerprint);
    expect((await s.server.gate.store.auditFor(asked.id)).map((e) => e.outcome)).not.toContain("carried_forward");
    expect(cardPosts(s)).toHaveLength(2);
  }, 60_000);

  it("an approval that needed a security and a licensing approver carries while both may decide, with both approvals", async () => {
    const { s, pr, review, files, tree } = await approvedTwice();
    const readme = serveHead(s, pr, H2, {
      files: [...files, README_EDIT],
      tree: { ...tree, "README.md": "# dashboard\nThe dashboard.\n" },
      from: pr.headSha,
      changed: ["README.md"],
    });
    const carried = await deliver(s, readme);
    expect(carried.status).toBe("done");
    expect(conclusion(s, H2)).toBe("success");
    const result = await s.server.gate.runner.result(carried.id);
    expect(result.decision?.carried_from?.review_id).toBe(review.id);
    // The carried decision keeps every approval it needed: the next head checks each again.
    expect(result.decision?.approvals?.map((a) => a.by)).toEqual([SECURITY_APPROVER, APPROVER]);
  }, 90_000);

  it("an approval that needed two approvers does not carry once the security approver is taken off its list (the general one still may decide)", async () => {
    const { s, pr, files, tree } = await approvedTwice();
    await s.server.close();
    s.env.GATE_APPROVERS_BY_SPECIALTY = "security=UOTHER";
    await s.restart();
    const pushed = serveHead(s, pr, H2, {
      files: [...files, README_EDIT],
      tree: { ...tree, "README.md": "# dashboard\nThe dashboard.\n" },
      from: pr.headSha,
      changed: ["README.md"],
    });
    const asked = await deliver(s, pushed);
    expect(asked.status).toBe("waiting_for_human");
    expect(conclusion(s, H2)).toBe("action_required");
    const since = (await s.server.gate.runner.result(asked.id)).since_decision;
    expect(since?.changes.join("\n")).toContain(`${SECURITY_APPROVER} may not decide on it now`);
    expect(since?.changes.join("\n")).not.toContain(`${APPROVER} may not decide`);
  }, 90_000);

  it("a retarget to another base branch asks again, and the next push does not carry the approval given before it", async () => {
    const { s, pr, review } = await waitingReview(start);
    expect((await click(s, ACTION_APPROVE, APPROVER, review.id, defined(review.slackTs, "the card"))).status).toBe(200);
    await waitFor("the approval", () => conclusion(s, pr.headSha) === "success");
    await s.server.idle();
    const files = readFixture("002_new_dependency", "files.json") as unknown[];
    const tree = { "README.md": "# dashboard\n", ...repoOf("002_new_dependency") };

    // Moved from main to release: the same head has another diff, a review of it waits again.
    serveHead(s, pr, pr.headSha, { files, tree, baseRef: "release" });
    const edited = {
      ...pullRequestEvent("opened", pr),
      action: "edited",
      changes: { base: { ref: { from: "main" }, sha: { from: "c".repeat(40) } } },
    };
    expect((await postWebhook(s.base, JSON.stringify(edited))).status).toBe(202);
    await s.server.idle();
    const retargeted = await latestReview(s, pr);
    expect(retargeted.id).not.toBe(review.id);
    expect(retargeted.status).toBe("waiting_for_human");

    // The next push (a README edit): the approval given against main does not carry.
    const pushed = serveHead(s, pr, H2, {
      files: [...files, README_EDIT],
      tree: { ...tree, "README.md": "# dashboard\nThe dashboard.\n" },
      from: pr.headSha,
      changed: ["README.md"],
      baseRef: "release",
    });
    const asked = await deliver(s, pushed);
    expect(asked.status).toBe("waiting_for_human");
    expect(conclusion(s, H2)).toBe("action_required");
    const since = (await s.server.gate.runner.result(asked.id)).since_decision;
    expect(since?.changes.join("\n")).toContain("moved to another base branch");
    expect((await s.server.gate.store.auditFor(asked.id)).map((e) => e.outcome)).not.toContain("carried_forward");
  }, 60_000);
});
