import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { describe, expect, it } from "vitest";
import {
  INSTALLATION_ID,
  checkRunHistory,
  checkRunsOn,
  latestReview,
  postWebhook,
  pullRequestEvent,
  record,
  rows,
  serveFixture,
  signBody,
  stacksClosedAfterEach,
  treeOf,
} from "./helpers.js";
import { defined } from "../helpers/defined.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const NEW_HEAD = "b".repeat(40);

describe("the gate's server with GitHub (GATE_SLACK=off, App mode)", () => {
  it("passes a docs-only PR: 202 at once, then one check run in progress, then success, with no model call", async () => {
    const s = await start();
    const health = await fetch(`${s.base}/healthz`);
    expect(health.status).toBe(200);
    const pr = serveFixture(s, "001_readme_typo");

    const res = await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)));
    expect(res.status).toBe(202);
    expect(res.ms).toBeLessThan(5000);
    await s.server.idle();

    const runs = checkRunsOn(s.gh, pr.headSha);
    expect(runs).toHaveLength(1);
    const run = defined(runs[0], "the check run");
    expect(run.fields.name).toBe("compliance-gate");
    const history = checkRunHistory(s.gh, run);
    expect(history[0]?.status).toBe("in_progress");
    expect(run.fields.status).toBe("completed");
    expect(run.fields.conclusion).toBe("success");
    // The App authenticated as the installation named in the webhook.
    expect(s.gh.tokensIssued).toContain(INSTALLATION_ID);

    const review = await latestReview(s, pr);
    expect(review.checkRunId).toBe(run.id);
    const result = await s.server.gate.runner.result(review.id);
    expect(result.route).toBe("auto_approved");
    expect(result.budget.model_calls).toBe(0);
    expect(await s.server.gate.store.unpublished()).toHaveLength(0);
  });

  it("sends a GPL runtime dependency to a person: action_required with a LIC-02 annotation", async () => {
    const s = await start();
    const pr = serveFixture(s, "002_new_dependency");
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
    await s.server.idle();

    const [run, ...more] = checkRunsOn(s.gh, pr.headSha);
    expect(more).toHaveLength(0);
    expect(run?.fields.status).toBe("completed");
    expect(run?.fields.conclusion).toBe("action_required");
    expect(String(record(run?.fields.output).title)).toMatch(/^Waiting for a person/);
    expect(run?.annotations).toEqual([
      expect.objectContaining({
        path: "package.json",
        annotation_level: "failure",
        title: expect.stringContaining("LIC-02"),
      }),
    ]);
    expect(s.registry.requests).toContain("/npm/gpl-chart-lib");
    const review = await latestReview(s, pr);
    expect(review.status).toBe("waiting_for_human");
  });

  it("refuses bad signatures, missing headers, malformed JSON and a 10 MB body, recording nothing", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    const body = JSON.stringify(pullRequestEvent("opened", pr));

    const badSignature = await postWebhook(s.base, body, { signature: `sha256=${"0".repeat(64)}` });
    const wrongSecret = await postWebhook(s.base, body, { signature: await signBody(body, "another-secret") });
    const otherBody = await postWebhook(s.base, body.replace('"opened"', '"reopened"'), {
      signature: await signBody(body),
    });
    const noSignature = await postWebhook(s.base, body, { signature: null });
    const noDelivery = await postWebhook(s.base, body, { id: null });
    const noEvent = await postWebhook(s.base, body, { event: "" });
    const notJson = await postWebhook(s.base, "{ not json");
    const huge = await postWebhook(s.base, Buffer.alloc(10 * 1024 * 1024, 0x20), {
      signature: `sha256=${"1".repeat(64)}`,
    });

    expect(badSignature.status).toBe(401);
    expect(wrongSecret.status).toBe(401);
    expect(otherBody.status).toBe(401);
    expect(noSignature.status).toBe(401);
    expect(noDelivery.status).toBe(400);
    expect(noEvent.status).toBe(400);
    expect(notJson.status).toBe(400);
    expect(huge.status).toBe(413);
    await s.server.idle();
    expect(await rows(s.server, "gate_reviews")).toBe(0);
    expect(await rows(s.server, "gate_deliveries")).toBe(0);
    expect(s.gh.find("POST", /check-runs$/)).toHaveLength(0);
    // The server still works after all that.
    expect((await postWebhook(s.base, body)).status).toBe(202);
  });

  it("reviews a delivery GitHub sends three times once, with one check run", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    const body = JSON.stringify(pullRequestEvent("opened", pr));
    const id = randomUUID();
    const answers = await Promise.all([
      postWebhook(s.base, body, { id }),
      postWebhook(s.base, body, { id }),
      postWebhook(s.base, body, { id }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 202]);
    await s.server.idle();
    expect((await postWebhook(s.base, body, { id })).text).toBe("duplicate");
    expect(await rows(s.server, "gate_reviews")).toBe(1);
    expect(await rows(s.server, "gate_deliveries")).toBe(1);
    expect(s.gh.find("POST", /check-runs$/)).toHaveLength(1);
    expect(checkRunsOn(s.gh, pr.headSha)).toHaveLength(1);
  });

  it("supersedes a waiting review when a push moves the head; a decision on the old one is refused", async () => {
    const s = await start();
    const old = serveFixture(s, "002_new_dependency");
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", old)));
    await s.server.idle();
    const oldReview = await latestReview(s, old);
    expect(oldReview.status).toBe("waiting_for_human");

    const moved = serveFixture(s, "002_new_dependency", { headSha: NEW_HEAD });
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", moved)))).status).toBe(202);
    await s.server.idle();

    expect((await s.server.gate.store.get(oldReview.id))?.status).toBe("superseded");
    const [oldRun] = checkRunsOn(s.gh, old.headSha);
    expect(oldRun?.fields.conclusion).toBe("neutral");
    expect(record(oldRun?.fields.output).title).toBe(`Superseded by ${NEW_HEAD.slice(0, 7)}`);

    const newReview = await latestReview(s, old);
    expect(newReview.id).not.toBe(oldReview.id);
    expect(newReview.headSha).toBe(NEW_HEAD);
    expect(newReview.status).toBe("waiting_for_human");
    const newRuns = checkRunsOn(s.gh, NEW_HEAD);
    expect(newRuns.map((r) => r.fields.conclusion)).toEqual(["action_required"]);

    const late = await s.server.gate.runner.decide(oldReview.id, { kind: "approve", by: "late-reviewer" });
    expect(late).toMatchObject({ ok: false, code: "superseded" });
    expect(oldRun?.fields.conclusion).toBe("neutral");
    expect((await s.server.gate.store.get(newReview.id))?.status).toBe("waiting_for_human");
  });

  it("reviews again when the PR's base branch changes (same head, another diff): a stale success never stands", async () => {
    const s = await start();
    serveFixture(s, "002_new_dependency"); // its registry answers, for the diff below
    const pr = serveFixture(s, "001_readme_typo");
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)));
    await s.server.idle();
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["success"]);

    // Retargeted from a scratch branch to main: the same head now brings a GPL dependency.
    const gplFiles = JSON.parse(
      fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency", "files.json"), "utf8"),
    ) as unknown[];
    const pull = JSON.parse(
      fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, "001_readme_typo", "pr.json"), "utf8"),
    ) as Record<string, unknown>;
    s.gh.setPull(pr.owner, pr.repo, pr.number, { pr: { ...pull, changed_files: gplFiles.length }, files: gplFiles });
    const edited = {
      ...pullRequestEvent("opened", pr),
      action: "edited",
      changes: { base: { ref: { from: "scratch" }, sha: { from: "c".repeat(40) } } },
    };
    expect((await postWebhook(s.base, JSON.stringify(edited))).status).toBe(202);
    await s.server.idle();

    const latest = await latestReview(s, pr);
    expect(latest.headSha).toBe(pr.headSha);
    expect(latest.status).toBe("waiting_for_human");
    expect(checkRunsOn(s.gh, pr.headSha).at(-1)?.fields.conclusion).toBe("action_required");

    // A title edit is not a new diff: ignored.
    const retitled = { ...pullRequestEvent("opened", pr), action: "edited", changes: { title: { from: "old" } } };
    expect((await postWebhook(s.base, JSON.stringify(retitled))).status).toBe(200);
  });

  it("keeps one check run per head when a push lands while the first review still runs", async () => {
    const s = await start();
    const old = serveFixture(s, "002_new_dependency");
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", old)));
    const moved = serveFixture(s, "002_new_dependency", { headSha: NEW_HEAD });
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", moved)));
    await s.server.idle();

    const oldRuns = checkRunsOn(s.gh, old.headSha);
    expect(oldRuns.map((r) => [r.fields.status, r.fields.conclusion])).toEqual([["completed", "neutral"]]);
    expect(checkRunsOn(s.gh, NEW_HEAD).map((r) => r.fields.conclusion)).toEqual(["action_required"]);
    const statuses = await s.server.gate.state.query(
      "SELECT head_sha AS sha, status FROM gate_reviews ORDER BY created_at",
    );
    expect(statuses).toEqual([
      { sha: old.headSha, status: "superseded" },
      { sha: NEW_HEAD, status: "waiting_for_human" },
    ]);
  });

  it("GitHub answering 502 then 201 ends with one check run, published without a restart", async () => {
    const s = await start();
    const pr = serveFixture(s, "002_new_dependency");
    // The first create fails outright; the next one (a later state of the same review) is answered 502 after GitHub did it.
    s.gh.failNext("POST", /\/check-runs$/, 1);
    s.gh.failNext("PATCH", /\/check-runs\/\d+$/, 1, { afterApplying: true });
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
    await s.server.idle();

    const runs = checkRunsOn(s.gh, pr.headSha);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.fields).toMatchObject({ status: "completed", conclusion: "action_required" });
    expect(s.gh.find("POST", /\/check-runs$/)).toHaveLength(2);
    const review = await latestReview(s, pr);
    expect(review.checkRunId).toBe(runs[0]?.id);
    expect(await s.server.gate.store.unpublished()).toHaveLength(0);
  });

  it("finds the App's installation itself when a webhook names none (a repository webhook)", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    const { installation: _none, ...payload } = pullRequestEvent("opened", pr);
    expect((await postWebhook(s.base, JSON.stringify(payload))).status).toBe(202);
    await s.server.idle();
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["success"]);
    expect(s.gh.find("GET", /\/repos\/acme\/web\/installation$/).length).toBeGreaterThan(0);
    expect(await s.server.gate.store.unpublished()).toHaveLength(0);
  });

  it("skips a draft (GATE_REVIEW_DRAFTS=false) and reviews it once it is marked ready", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    const draft = pullRequestEvent("opened", pr);
    const asDraft = { ...draft, pull_request: { ...record(draft.pull_request), draft: true } };
    expect((await postWebhook(s.base, JSON.stringify(asDraft))).status).toBe(202);
    await s.server.idle();
    expect(await rows(s.server, "gate_deliveries")).toBe(1);
    expect(await rows(s.server, "gate_reviews")).toBe(0);

    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("ready_for_review", pr)))).status).toBe(202);
    await s.server.idle();
    expect(await rows(s.server, "gate_reviews")).toBe(1);
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["success"]);
  });

  it("sets commit statuses instead of check runs with a token", async () => {
    const s = await start({ mode: "token" });
    const pr = serveFixture(s, "001_readme_typo");
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
    await s.server.idle();
    const states = s.gh.statuses.filter((st) => st.sha === pr.headSha).map((st) => record(st.body));
    expect(states.length).toBeGreaterThanOrEqual(2);
    expect(states[0]).toMatchObject({ state: "pending", context: "compliance-gate" });
    expect(states.at(-1)).toMatchObject({ state: "success", context: "compliance-gate" });
    expect(s.gh.find("POST", /check-runs/)).toHaveLength(0);
    expect(s.gh.find("POST", /access_tokens/)).toHaveLength(0);
    expect(s.gh.requests.every((r) => r.authorization === "token ghp_e2e_token")).toBe(true);
  });

  it("runs, after a restart, the reviews that were queued or running when the server stopped", async () => {
    const s = await start();
    const docs = serveFixture(s, "001_readme_typo");
    const dep = serveFixture(s, "002_new_dependency");
    const first = s.server;
    await first.idle();
    // What the webhook sink does before answering 202, for two PRs; the process then stops
    // before the queue ran one, and mid-run for the other.
    const register = (pr: typeof docs) =>
      first.gate.runner.register({
        source: {
          kind: "github",
          owner: pr.owner,
          repo: pr.repo,
          number: pr.number,
          headSha: pr.headSha,
          installationId: INSTALLATION_ID,
        },
        repo: `${pr.owner}/${pr.repo}`,
        number: pr.number,
        headSha: pr.headSha,
        title: pr.title,
        url: pr.url,
        author: pr.author,
        installationId: INSTALLATION_ID,
      });
    const queued = await register(docs);
    const running = await register(dep);
    await first.gate.store.setStatus(running.id, "running");
    await first.close();
    expect(s.gh.find("POST", /check-runs$/)).toHaveLength(0);

    const second = await s.restart();
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
    await second.idle();
    expect((await second.gate.store.get(queued.id))?.status).toBe("done");
    expect((await second.gate.store.get(running.id))?.status).toBe("waiting_for_human");
    expect(checkRunsOn(s.gh, docs.headSha).map((r) => r.fields.conclusion)).toEqual(["success"]);
    expect(checkRunsOn(s.gh, dep.headSha).map((r) => r.fields.conclusion)).toEqual(["action_required"]);
  });

  it("refuses a hostile tarball's escaping entries, writes nothing outside the data dir, and still finishes", async () => {
    const s = await start();
    // A PR whose review reads its head (the investigator does), so the tarball is downloaded.
    const pr = serveFixture(s, "003_auth_change", {
      extraEntries: (top) => [
        { path: `${top}/../escaped.txt`, type: "File", body: "escaped" },
        { path: "../../escaped-too.txt", type: "File", body: "escaped" },
        { path: `${top}/../../../../tmp/escaped-abs.txt`, type: "File", body: "escaped" },
        { path: `${top}/up`, type: "SymbolicLink", linkpath: "../../../.." },
        { path: `${top}/etc`, type: "SymbolicLink", linkpath: "/etc" },
        { path: `${top}/passwd`, type: "Link", linkpath: "/etc/passwd" },
        { path: `${top}/up/escaped-through-link.txt`, type: "File", body: "escaped" },
      ],
    });
    const before = treeOf(s.dir).filter((p) => !p.startsWith("data"));
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
    await s.server.idle();

    expect(checkRunsOn(s.gh, pr.headSha).map((r) => [r.fields.status, r.fields.conclusion])).toEqual([
      ["completed", "success"],
    ]);
    expect(s.gh.find("GET", /\/tarball\//)).toHaveLength(1);
    expect(treeOf(s.dir).filter((p) => !p.startsWith("data"))).toEqual(before);
    expect(treeOf(s.dataDir).filter((p) => /escaped/.test(p))).toEqual([]);
    // The settled review's snapshot is gone.
    expect(treeOf(s.dataDir).filter((p) => p.includes(pr.headSha))).toEqual([]);
  });

  it("a licence registry answering 503 never turns a GPL dependency into a pass: the review goes to a person (lookup_failed), naming the registry and the error", async () => {
    const s = await start();
    const pr = serveFixture(s, "002_new_dependency");
    s.registry.mode = "fail";
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)));
    await s.server.idle();
    const review = await latestReview(s, pr);
    expect(review.status).toBe("waiting_for_human");
    const result = await s.server.gate.runner.result(review.id);
    expect(result.route).toBe("human");
    expect(result.escalation?.reason).toBe("lookup_failed");
    expect(result.escalation?.detail).toContain(
      `gpl-chart-lib@^2.1.0 (npm): npm registry ${s.registry.npmUrl} answered 503 (3 attempts)`,
    );
    // A failed lookup is not an unknown licence: no "the registry gives none".
    expect(result.findings.filter((f) => f.policy.startsWith("LIC-"))).toEqual([]);
    // Retried before giving up.
    expect(s.registry.requests.filter((r) => r === "/npm/gpl-chart-lib")).toHaveLength(3);
    // The check run blocks the merge and says why.
    const [run] = checkRunsOn(s.gh, pr.headSha);
    expect(run?.fields.conclusion).toBe("action_required");
    expect(JSON.stringify(run?.fields.output)).toMatch(/lookup_failed.*gpl-chart-lib.*answered 503/);
    expect(await s.server.gate.store.cachedLicense("npm:gpl-chart-lib@^2.1.0")).toBeUndefined();

    // A failure is not cached: once the registry answers, the next head gets the real licence.
    s.registry.mode = "ok";
    const moved = serveFixture(s, "002_new_dependency", { headSha: NEW_HEAD });
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", moved)));
    await s.server.idle();
    const next = await s.server.gate.runner.result((await latestReview(s, pr)).id);
    expect(next.findings.map((f) => f.policy)).toContain("LIC-02");
    expect(await s.server.gate.store.cachedLicense("npm:gpl-chart-lib@^2.1.0")).toBe("GPL-3.0-only");
  });
});
