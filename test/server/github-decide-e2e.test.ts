import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { ACTION_APPROVE } from "../../src/slack/card.js";
import { rawTarball } from "../fakes/github-api.js";
import { defined } from "../helpers/defined.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  OTHER_APPROVER,
  checkRunsOn,
  latestReview,
  openPr,
  postWebhook,
  pullRequestEvent,
  record,
  rows,
  serveFixture,
  stacksClosedAfterEach,
  type ServedPr,
  type Stack,
} from "./helpers.js";
import { blocksOf, click, hasButtons, waitingReview } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

/** The PR's author (in the fixture), and the GitHub logins the gate maps to Slack approvers. */
const AUTHOR_LOGIN = "dev-priya";
const APPROVER_LOGIN = "dana-sec";
const OUTSIDER_LOGIN = "sam-outsider";
const OUTSIDER_SLACK = "UOUTSIDER";
/** The author is an approver too: their own PR is the one thing they may not decide. */
const ENV = {
  GATE_APPROVERS: `${APPROVER},${OTHER_APPROVER},${AUTHOR_SLACK}`,
  GATE_GITHUB_TO_SLACK: `${AUTHOR_LOGIN}=${AUTHOR_SLACK},${APPROVER_LOGIN}=${APPROVER},${OUTSIDER_LOGIN}=${OUTSIDER_SLACK}`,
};

const examples = z
  .array(z.object({ name: z.string(), examples: z.array(z.record(z.string(), z.unknown())) }))
  .parse(JSON.parse(fs.readFileSync(createRequire(import.meta.url).resolve("@octokit/webhooks-examples"), "utf8")));

/** GitHub's own `check_run` `requested_action` example, retargeted at the gate's check run of a served PR. */
function requestedAction(
  pr: ServedPr,
  run: { id: number; externalId: string },
  identifier: string,
  login: string,
): Record<string, unknown> {
  const found = defined(
    examples.find((e) => e.name === "check_run")?.examples.find((e) => e.action === "requested_action"),
    "a check_run.requested_action example",
  );
  const payload = structuredClone(found);
  const repository = record(payload.repository);
  return {
    ...payload,
    requested_action: { identifier },
    check_run: {
      ...record(payload.check_run),
      id: run.id,
      name: "compliance-gate",
      head_sha: pr.headSha,
      external_id: run.externalId,
      pull_requests: [{ number: pr.number, head: { sha: pr.headSha }, base: {} }],
    },
    repository: {
      ...repository,
      name: pr.repo,
      full_name: `${pr.owner}/${pr.repo}`,
      owner: { ...record(repository.owner), login: pr.owner },
    },
    sender: { ...record(payload.sender), login },
  };
}

/** The gate's check run on the served PR's head. */
function gateRun(s: Stack, pr: ServedPr) {
  const runs = checkRunsOn(s.gh, pr.headSha);
  expect(runs).toHaveLength(1);
  const run = defined(runs[0], "the check run");
  return { run, id: run.id, externalId: String(run.fields.external_id) };
}

/** A click on the check run's button, delivered signed as GitHub delivers it. */
function clickOnGitHub(s: Stack, pr: ServedPr, identifier: string, login: string, id = randomUUID()) {
  const body = JSON.stringify(requestedAction(pr, gateRun(s, pr), identifier, login));
  return postWebhook(s.base, body, { event: "check_run", id });
}

const labels = (fields: Record<string, unknown>) =>
  (Array.isArray(fields.actions) ? fields.actions : []).map(record).map((a) => [a.label, a.identifier]);

const FIXTURE = path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency");
const fixtureJson = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(FIXTURE, name), "utf8"));

/** Pushes a README fix onto the GPL-dependency PR (GitHub's compare says only README.md changed); the PR's new review. */
async function pushReadme(
  s: Stack,
  pr: ServedPr,
  headSha: string,
): Promise<{ pr: ServedPr; id: string; status: string }> {
  const pull = record(fixtureJson("pr.json"));
  const files = [
    ...(fixtureJson("files.json") as unknown[]),
    {
      filename: "README.md",
      status: "modified",
      additions: 1,
      deletions: 1,
      changes: 2,
      patch: "@@ -1 +1 @@\n-Teh\n+The\n",
    },
  ];
  s.gh.setPull(pr.owner, pr.repo, pr.number, {
    pr: { ...pull, head: { ...record(pull.head), sha: headSha }, changed_files: files.length },
    files,
  });
  const top = `${pr.owner}-${pr.repo}-${headSha.slice(0, 7)}`;
  const file = (rel: string) => fs.readFileSync(path.join(FIXTURE, "repo", rel));
  s.gh.setTarball(
    pr.owner,
    pr.repo,
    headSha,
    rawTarball([
      { path: `${top}/`, type: "Directory" },
      { path: `${top}/README.md`, type: "File", body: "The\n" },
      { path: `${top}/package.json`, type: "File", body: file("package.json") },
      { path: `${top}/src/overview/revenue.ts`, type: "File", body: file("src/overview/revenue.ts") },
    ]),
  );
  s.gh.setCompare(pr.owner, pr.repo, pr.headSha, headSha, { status: "ahead", files: ["README.md"] });
  const pushed = { ...pr, headSha };
  expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", pushed)))).status).toBe(202);
  await s.server.idle();
  const review = await latestReview(s, pushed);
  expect(review.headSha).toBe(headSha);
  return { pr: pushed, id: review.id, status: review.status };
}

describe("deciding from GitHub: the check run's Approve and Reject", () => {
  it("an approver's Approve ends the review human_approved: check run success without buttons, card updated, audited as the github door", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, ENV);
    // The waiting review's check run offers the two buttons, within GitHub's limits (the fake holds them to it).
    const { run } = gateRun(s, pr);
    expect(run.fields.conclusion).toBe("action_required");
    expect(labels(run.fields)).toEqual([
      ["Approve", "approve"],
      ["Reject", "reject"],
    ]);
    expect(run.fields.external_id).toBe(review.id);
    const updatesBefore = slack.callsTo("chat.update").length;

    const res = await clickOnGitHub(s, pr, "approve", APPROVER_LOGIN);
    expect(res).toMatchObject({ status: 202, text: "accepted" });
    // GitHub is answered once the decision is stored durably: it is on record at the answer.
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({
        actor: APPROVER,
        action: "approve",
        outcome: "received",
        detail: expect.objectContaining({ door: "github" }),
      }),
    );
    await s.server.idle();

    expect((await s.server.gate.store.get(review.id))?.status).toBe("done");
    const result = await s.server.gate.runner.result(review.id);
    expect(result.route).toBe("human_approved");
    expect(result.decision).toMatchObject({ kind: "approve", by: APPROVER });
    // The check run passes, names the decider, and its buttons are gone.
    const after = gateRun(s, pr).run;
    expect(after.fields.conclusion).toBe("success");
    expect(JSON.stringify(after.fields.output)).toContain(`Approved by @${APPROVER_LOGIN}`);
    expect(after.fields.actions).toEqual([]);
    // The Slack card is updated once, in place, without buttons.
    const updates = slack.callsTo("chat.update").slice(updatesBefore);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.body.ts).toBe(ts);
    expect(blocksOf(updates[0])).toContain("Approved");
    // Named as Slack cards name a person whose login is mapped (no display name recorded yet).
    expect(blocksOf(updates[0])).toContain(`*Approved* by @${APPROVER_LOGIN}`);
    expect(hasButtons(updates[0])).toBe(false);
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "applied")).toEqual([
      expect.objectContaining({ actor: APPROVER, action: "approve", detail: { result: "human_approved" } }),
    ]);

    // The same delivery again (GitHub redelivers): recorded once, decided once.
    const again = await postWebhook(
      s.base,
      JSON.stringify(requestedAction(pr, gateRun(s, pr), "approve", APPROVER_LOGIN)),
      { event: "check_run", id: "redelivered-1" },
    );
    // A new delivery id: a second click, refused as already decided.
    expect(again).toMatchObject({ status: 200, text: expect.stringMatching(/^refused: Already decided: approved/) });
    const redelivered = await postWebhook(
      s.base,
      JSON.stringify(requestedAction(pr, gateRun(s, pr), "approve", APPROVER_LOGIN)),
      { event: "check_run", id: "redelivered-1" },
    );
    expect(redelivered).toEqual(expect.objectContaining({ status: 200, text: "duplicate" }));
  });

  it("an approver's Reject ends it human_rejected: check run failure, the note says it came from GitHub", async () => {
    const { s, pr, review } = await waitingReview(start, ENV);
    expect((await clickOnGitHub(s, pr, "reject", APPROVER_LOGIN)).status).toBe(202);
    await s.server.idle();
    const result = await s.server.gate.runner.result(review.id);
    expect(result.route).toBe("human_rejected");
    expect(result.decision).toMatchObject({ kind: "reject", by: APPROVER });
    expect(result.decision?.note).toContain(`@${APPROVER_LOGIN}`);
    const { run } = gateRun(s, pr);
    expect(run.fields.conclusion).toBe("failure");
    expect(run.fields.actions).toEqual([]);
  });

  it("the PR's author, an approver too, is refused and audited; the review still waits with its buttons", async () => {
    const { s, slack, pr, review } = await waitingReview(start, ENV);
    const updatesBefore = slack.callsTo("chat.update").length;
    const res = await clickOnGitHub(s, pr, "approve", AUTHOR_LOGIN);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^refused: You may not decide on .*you opened this pull request/);
    // Not mapped, the author's login is still the author (any case).
    const unmapped = await clickOnGitHub(s, pr, "approve", AUTHOR_LOGIN.toUpperCase());
    expect(unmapped.text).toMatch(/you opened this pull request/);
    await s.server.idle();

    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "refused:not_allowed")).toEqual([
      expect.objectContaining({
        actor: AUTHOR_SLACK,
        action: "approve",
        detail: expect.objectContaining({ door: "github", login: AUTHOR_LOGIN }),
      }),
      expect.objectContaining({
        detail: expect.objectContaining({ door: "github", login: AUTHOR_LOGIN.toUpperCase() }),
      }),
    ]);
    expect(audit.map((e) => e.outcome)).not.toContain("received");
    const { run } = gateRun(s, pr);
    expect(run.fields.conclusion).toBe("action_required");
    expect(labels(run.fields)).toHaveLength(2);
    expect(slack.callsTo("chat.update").length).toBe(updatesBefore);
  });

  it("a non-approver is refused and audited, mapped to a Slack id or not", async () => {
    const { s, pr, review } = await waitingReview(start, ENV);
    for (const login of [OUTSIDER_LOGIN, "drive-by-dev"]) {
      const res = await clickOnGitHub(s, pr, "approve", login);
      expect(res.status).toBe(200);
      expect(res.text).toContain("you are not among the configured approvers");
    }
    const reject = await clickOnGitHub(s, pr, "reject", "drive-by-dev");
    expect(reject.text).toContain("you are not among the configured approvers");
    await s.server.idle();
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    const refused = (await s.server.gate.store.auditFor(review.id)).filter((e) => e.outcome === "refused:not_allowed");
    expect(refused.map((e) => [e.actor, e.action, record(e.detail).door, record(e.detail).login])).toEqual([
      [OUTSIDER_SLACK, "approve", "github", OUTSIDER_LOGIN],
      ["drive-by-dev", "approve", "github", "drive-by-dev"],
      ["drive-by-dev", "reject", "github", "drive-by-dev"],
    ]);
  });

  it("an unsigned, wrongly signed or malformed delivery gets a 4xx and nothing is stored", async () => {
    const { s, pr, review } = await waitingReview(start, ENV);
    const deliveries = await rows(s.server, "gate_deliveries");
    const audits = await rows(s.server, "gate_audit");
    const body = JSON.stringify(requestedAction(pr, gateRun(s, pr), "approve", APPROVER_LOGIN));
    expect((await postWebhook(s.base, body, { event: "check_run", signature: null })).status).toBe(401);
    expect(
      (await postWebhook(s.base, body, { event: "check_run", signature: `sha256=${"0".repeat(64)}` })).status,
    ).toBe(401);
    const malformed = [
      requestedAction(pr, gateRun(s, pr), "merge-anyway", APPROVER_LOGIN), // a button the gate never offered
      { ...requestedAction(pr, gateRun(s, pr), "approve", APPROVER_LOGIN), sender: undefined },
      requestedAction(pr, { ...gateRun(s, pr), externalId: "" }, "approve", APPROVER_LOGIN),
      { ...requestedAction(pr, gateRun(s, pr), "approve", APPROVER_LOGIN), requested_action: "approve" },
    ];
    for (const payload of malformed) {
      const res = await postWebhook(s.base, JSON.stringify(payload), { event: "check_run" });
      expect(res.status).toBe(400);
    }
    expect(await rows(s.server, "gate_deliveries")).toBe(deliveries);
    expect(await rows(s.server, "gate_audit")).toBe(audits);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
  });

  it("a check run naming a review of another head decides nothing (refused, audited)", async () => {
    const { s, pr, review } = await waitingReview(start, ENV);
    const other = { ...pr, headSha: "f".repeat(40) };
    const body = JSON.stringify(requestedAction(other, gateRun(s, pr), "approve", APPROVER_LOGIN));
    const res = await postWebhook(s.base, body, { event: "check_run" });
    expect(res).toMatchObject({ status: 200 });
    expect(res.text).toMatch(/^refused: No review/);
    await s.server.idle();
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
      expect.objectContaining({ actor: APPROVER, outcome: "refused:not_found" }),
    );
  });

  it("already decided in Slack: GitHub's Approve is refused as already decided, and the decision is applied once", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, ENV);
    expect((await click(s, ACTION_APPROVE, OTHER_APPROVER, review.id, ts)).status).toBe(200);
    await s.server.idle();
    expect((await s.server.gate.runner.result(review.id)).route).toBe("human_approved");
    const updates = slack.callsTo("chat.update").length;

    const res = await clickOnGitHub(s, pr, "reject", APPROVER_LOGIN);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^refused: Already decided: approved by UOTHER/);
    await s.server.idle();
    const result = await s.server.gate.runner.result(review.id);
    expect(result).toMatchObject({ route: "human_approved", decision: { kind: "approve", by: OTHER_APPROVER } });
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "applied")).toHaveLength(1);
    expect(audit).toContainEqual(
      expect.objectContaining({
        actor: APPROVER,
        action: "reject",
        outcome: "refused:already_decided",
        detail: expect.objectContaining({ door: "github", login: APPROVER_LOGIN }),
      }),
    );
    expect(slack.callsTo("chat.update").length).toBe(updates);
    expect(gateRun(s, pr).run.fields.conclusion).toBe("success");
  });

  it("a Slack click and a GitHub click at once: exactly one is applied, the other refused and audited", async () => {
    const { s, slack, pr, review, ts } = await waitingReview(start, ENV);
    const [fromSlack, fromGitHub] = await Promise.all([
      click(s, ACTION_APPROVE, OTHER_APPROVER, review.id, ts),
      clickOnGitHub(s, pr, "reject", APPROVER_LOGIN),
    ]);
    expect(fromSlack.status).toBe(200);
    expect([200, 202]).toContain(fromGitHub.status);
    await s.server.idle();
    const audit = await s.server.gate.store.auditFor(review.id);
    const received = audit.filter((e) => e.outcome === "received");
    const refused = audit.filter((e) => e.outcome.startsWith("refused"));
    expect(received).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(audit.filter((e) => e.outcome === "applied")).toHaveLength(1);
    const result = await s.server.gate.runner.result(review.id);
    if (fromGitHub.status === 202) {
      expect(result.route).toBe("human_rejected");
      expect(refused[0]?.actor).toBe(OTHER_APPROVER);
      // Slack's loser is told, as ever.
      const [eph] = await slack.waitFor("chat.postEphemeral");
      expect(String(eph?.body.text)).toMatch(/already decided|not waiting|being decided/i);
    } else {
      expect(result.route).toBe("human_approved");
      expect(refused[0]).toMatchObject({ actor: APPROVER, detail: expect.objectContaining({ door: "github" }) });
      expect(fromGitHub.text).toMatch(/^refused: /);
    }
    const completions = s.gh
      .find("PATCH", /check-runs\/\d+$/)
      .filter((r) => ["success", "failure"].includes(String(record(r.body).conclusion)));
    expect(completions).toHaveLength(1);
  });

  it("without Slack: an approver decides on GitHub alone; with no approver configured nobody may (it fails closed)", async () => {
    for (const approvers of [APPROVER, ""]) {
      const s = await start({ env: { GATE_APPROVERS: approvers, GATE_GITHUB_TO_SLACK: ENV.GATE_GITHUB_TO_SLACK } });
      const pr = serveFixture(s, "002_new_dependency");
      const review = await openPr(s, pr);
      expect(review.status).toBe("waiting_for_human");
      expect(labels(gateRun(s, pr).run.fields)).toHaveLength(2);
      const res = await clickOnGitHub(s, pr, "approve", APPROVER_LOGIN);
      await s.server.idle();
      const result = await s.server.gate.runner.result(review.id);
      if (approvers) {
        expect(res.status).toBe(202);
        expect(result).toMatchObject({ route: "human_approved", decision: { by: APPROVER } });
        expect(gateRun(s, pr).run.fields).toMatchObject({ conclusion: "success", actions: [] });
      } else {
        expect(res.text).toContain("no approvers are configured for this gate");
        expect(result.status).toBe("waiting_for_human");
        expect(await s.server.gate.store.auditFor(review.id)).toContainEqual(
          expect.objectContaining({ actor: APPROVER, outcome: "refused:not_allowed" }),
        );
      }
    }
  });

  it("an approver by user group decides from GitHub; the approval carries across a README push while Slack says they are in the group", async () => {
    const { s, slack, pr, review } = await waitingReview(start, { ...ENV, GATE_APPROVERS: "SAPPROVERS" });
    slack.userGroups.set("SAPPROVERS", [APPROVER]);
    // Not in the group: refused; in it: taken.
    expect((await clickOnGitHub(s, pr, "approve", OUTSIDER_LOGIN)).text).toMatch(/^refused: /);
    expect((await clickOnGitHub(s, pr, "approve", APPROVER_LOGIN)).status).toBe(202);
    await s.server.idle();
    expect((await s.server.gate.runner.result(review.id)).decision).toMatchObject({
      by: APPROVER,
      via: { kind: "github", groups: ["SAPPROVERS"] },
    });
    const carried = await pushReadme(s, pr, "2".repeat(40));
    expect(carried.status).toBe("done");
    expect(checkRunsOn(s.gh, carried.pr.headSha)[0]?.fields).toMatchObject({ conclusion: "success", actions: [] });

    // Out of the group since: the decision made on GitHub is judged with the groups Slack gives now.
    slack.userGroups.set("SAPPROVERS", [OTHER_APPROVER]);
    await s.server.close();
    await s.restart();
    const asked = await pushReadme(s, carried.pr, "3".repeat(40));
    expect(asked.status).toBe("waiting_for_human");
    expect((await s.server.gate.runner.result(asked.id)).since_decision?.changes.join("\n")).toContain(
      `${APPROVER} may not decide on it now`,
    );
    expect(labels(defined(checkRunsOn(s.gh, asked.pr.headSha)[0], "the new head's run").fields)).toHaveLength(2);
  }, 30_000);
});
