import { describe, expect, it } from "vitest";
import { evidenceRow } from "../../src/review/evidence-row.js";
import { ACTION_APPROVE_AFTER_MERGE, ACTION_INCIDENT } from "../../src/slack/card.js";
import { defined } from "../helpers/defined.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  openPr,
  postWebhook,
  prKey,
  pullRequestEvent,
  record,
  serveFixture,
  stacksClosedAfterEach,
  waitFor,
} from "./helpers.js";
import { BEFORE, gateStatus, PUSHED_AT, PUSHER, push, pushEvent, pushReviews, servePush, sha } from "./push-helpers.js";
import { blocksOf, buttonValues, cardPosts, click, threadNotes } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

describe("a push with no pull request", () => {
  it("is reviewed after the fact: a 'changed without review' card, gate status and the audit log say so; a redelivery does nothing", async () => {
    const s = await start({ slack: true, env: { GATE_GITHUB_TO_SLACK: `${PUSHER}=${AUTHOR_SLACK}` } });
    const slack = defined(s.slack, "the Slack fake");
    const commits = [sha(1), sha(2)];
    const { pr, after } = servePush(s, commits);
    const id = "push-delivery-1";
    await push(s, pushEvent(pr, { after, commits }), { id });

    // GitHub was asked, per commit, which pull requests it belongs to.
    for (const c of commits) expect(s.gh.find("GET", new RegExp(`/commits/${c}/pulls$`))).toHaveLength(1);
    const [review, ...others] = await pushReviews(s);
    expect(others).toEqual([]);
    const r = defined(review, "the push's review");
    expect(r).toMatchObject({
      pr: `${pr.owner}/${pr.repo}@${after.slice(0, 7)}`,
      number: 0,
      headSha: after,
      author: PUSHER,
      status: "merged_unapproved",
    });
    const result = await s.server.gate.runner.result(r.id);
    expect(result).toMatchObject({
      status: "merged_unapproved",
      route: "merged_unapproved",
      merged: { by: PUSHER, at: PUSHED_AT, was: { status: "waiting_for_human", route: "human" } },
      pushed: { branch: "main", before: BEFORE, after, forced: false, commits },
    });
    // The change itself was reviewed: the fixture's licence finding is there.
    expect(result.findings.map((f) => f.policy)).toContain("LIC-02");

    // One card, saying so, with the decisions after the fact; no check run (there is no PR).
    const [card, ...more] = cardPosts(s);
    expect(more).toEqual([]);
    expect(blocksOf(card)).toContain("CHANGED WITHOUT REVIEW");
    expect(blocksOf(card)).toContain(PUSHER);
    expect(buttonValues(card)).toEqual([
      [ACTION_APPROVE_AFTER_MERGE, r.id],
      [ACTION_INCIDENT, r.id],
    ]);
    expect(s.gh.find("POST", /\/check-runs$/)).toEqual([]);
    const loud = threadNotes(s).find((n) => String(n.body.text).includes("Changed without review"));
    expect(String(loud?.body.text)).toContain(`<@${APPROVER}>`);

    // The audit log: the push (who, where, which commits) and the change past the gate.
    const audit = await s.server.gate.store.auditFor(r.id);
    expect(audit).toContainEqual(
      expect.objectContaining({
        actor: `github:${PUSHER}`,
        action: "push",
        outcome: "pushed",
        detail: expect.objectContaining({ branch: "main", before: BEFORE, after, forced: false, commits }),
      }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        actor: `github:${PUSHER}`,
        action: "push",
        outcome: "merged_unapproved",
        detail: expect.objectContaining({ pushed_by: PUSHER, pushed_at: PUSHED_AT, status: "waiting_for_human" }),
      }),
    );

    // `gate status` by the review's id and by the push's key.
    const json = await gateStatus(s, r.id, "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "merged_unapproved", pushed: { after, forced: false } });
    const text = await gateStatus(s, r.pr);
    expect(text.stdout).toContain("CHANGED WITHOUT REVIEW");
    expect(text.stdout).toContain(`pushed to main by ${PUSHER} at ${PUSHED_AT}, no pull request`);

    // A redelivery (same X-GitHub-Delivery) is a duplicate: nothing asked, nothing registered.
    const asked = s.gh.requests.length;
    const again = await push(s, pushEvent(pr, { after, commits }), { id, expect: 200 });
    expect(again.text).toBe("duplicate");
    expect(s.gh.requests.length).toBe(asked);
    expect(await pushReviews(s)).toHaveLength(1);
    expect(slack.callsTo("chat.postMessage").filter((c) => blocksOf(c).includes("CHANGED WITHOUT"))).toHaveLength(1);
  });

  it("approved after the fact on the card: recorded as such; the pusher may not approve their own push", async () => {
    const s = await start({ slack: true, env: { GATE_GITHUB_TO_SLACK: `${PUSHER}=${AUTHOR_SLACK}` } });
    const slack = defined(s.slack, "the Slack fake");
    const commits = [sha(3)];
    const { pr, after } = servePush(s, commits);
    await push(s, pushEvent(pr, { after, commits }));
    const r = defined((await pushReviews(s))[0], "the push's review");
    const ts = defined(r.slackTs, "the card's ts");
    // The evidence's row for the pushed commit: not reviewed until someone decides after the fact.
    const evidence = async () =>
      (await s.server.gate.store.changesPage({ repo: `${pr.owner}/${pr.repo}` }, undefined, 10)).map(evidenceRow);
    expect(await evidence()).toEqual([
      expect.objectContaining({
        change: `${pr.owner}/${pr.repo}@${after}`,
        kind: "push",
        commit_sha: after,
        branch: "main",
        merged_by: PUSHER,
        review_id: r.id,
        reviewed: false,
        decision: null,
      }),
    ]);

    await click(s, ACTION_APPROVE_AFTER_MERGE, AUTHOR_SLACK, r.id, ts);
    const [eph] = await slack.waitFor("chat.postEphemeral");
    expect(String(eph?.body.text)).toContain("you pushed this change");

    await click(s, ACTION_APPROVE_AFTER_MERGE, APPROVER, r.id, ts);
    await waitFor("the approval after the fact", async () => (await s.server.gate.runner.result(r.id)).after_the_fact);
    await s.server.idle();
    expect(await s.server.gate.runner.result(r.id)).toMatchObject({
      status: "merged_unapproved",
      pushed: { after },
      after_the_fact: { kind: "approve", by: APPROVER },
    });
    const audit = await s.server.gate.store.auditFor(r.id);
    expect(audit).toContainEqual(
      expect.objectContaining({ actor: AUTHOR_SLACK, action: "approve_after_merge", outcome: "refused:not_allowed" }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        actor: APPROVER,
        action: "approve_after_merge",
        outcome: "applied",
        detail: expect.objectContaining({ after_the_fact: true }),
      }),
    );
    expect(await evidence()).toEqual([
      expect.objectContaining({ kind: "push", reviewed: true, decision: "approve_after_merge", decided_by: APPROVER }),
    ]);
    await waitFor("the card approved after the fact", () =>
      slack
        .callsTo("chat.update")
        .find((c) => c.body.ts === ts && blocksOf(c).includes("changed without review, approved after the fact")),
    );
  });

  it("a force-push is recorded forced, and the card says the history was rewritten", async () => {
    const s = await start({ slack: true });
    const commits = [sha(4)];
    const { pr, after } = servePush(s, commits, { forced: true });
    await push(s, pushEvent(pr, { after, commits, forced: true }));
    const r = defined((await pushReviews(s))[0], "the push's review");
    const audit = await s.server.gate.store.auditFor(r.id);
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: "push",
        outcome: "forced",
        detail: expect.objectContaining({ forced: true, before: BEFORE, after }),
      }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: "push",
        outcome: "merged_unapproved",
        detail: expect.objectContaining({ forced: true }),
      }),
    );
    expect((await s.server.gate.runner.result(r.id)).pushed).toMatchObject({ forced: true });
    const [card] = cardPosts(s);
    expect(blocksOf(card)).toContain("FORCE-PUSHED, CHANGED WITHOUT REVIEW");
    expect(blocksOf(card)).toContain("history was rewritten");
  });

  it("fifty commits make one review of the range, not fifty", async () => {
    const s = await start({ slack: true });
    const commits = Array.from({ length: 50 }, (_, i) => sha(100 + i));
    const { pr, after } = servePush(s, commits);
    // The payload lists at most 20 commits; the compare API gives all 50.
    await push(s, pushEvent(pr, { after, commits: commits.slice(-20) }));
    expect(s.gh.find("GET", /\/commits\/[0-9a-f]{40}\/pulls$/)).toHaveLength(50);
    const reviews = await pushReviews(s);
    expect(reviews).toHaveLength(1);
    expect((await s.server.gate.runner.result(defined(reviews[0], "the review").id)).pushed?.commits).toEqual(commits);
    expect(cardPosts(s)).toHaveLength(1);
  });
});

describe("a push GitHub cannot fully answer for", () => {
  it("a commit whose pull requests cannot be listed counts as unreviewed; a diff that cannot be read goes to a person, still changed without review", async () => {
    const s = await start({ slack: true });
    const commits = [sha(11)];
    const after = sha(11);
    const pr = serveFixture(s, "001_readme_typo", { headSha: after });
    // No compare answer (404) and no pull requests answer (404, not retried).
    s.gh.failNext("GET", /\/commits\/[0-9a-f]{40}\/pulls$/, 5, { status: 404, body: { message: "Not Found" } });
    await push(s, pushEvent(pr, { after, commits }));
    const [r] = await pushReviews(s);
    const result = await s.server.gate.runner.result(defined(r, "the push's review").id);
    expect(result).toMatchObject({
      status: "merged_unapproved",
      pushed: { commits },
      merged: { was: { status: "waiting_for_human", route: "human" } },
    });
    expect(result.escalation?.reason).toBe("intake_failed");
    expect(blocksOf(cardPosts(s)[0])).toContain("CHANGED WITHOUT REVIEW");
  });
});

describe("pushes the gate leaves alone", () => {
  it("the merge commit of a pull request the gate approved: nothing is reviewed or posted", async () => {
    const s = await start({ slack: true });
    const pr = serveFixture(s, "001_readme_typo");
    const review = await openPr(s, pr);
    expect(review.status).toBe("done");
    const closed = pullRequestEvent("closed", pr);
    const inner = record(closed.pull_request);
    const merged = {
      ...closed,
      pull_request: { ...inner, state: "closed", merged: true, merged_at: PUSHED_AT, merged_by: { login: "octo" } },
    };
    expect((await postWebhook(s.base, JSON.stringify(merged))).status).toBe(202);
    await s.server.idle();
    const mergeCommit = sha(7);
    s.gh.setCommitPulls(pr.owner, pr.repo, mergeCommit, [{ number: pr.number, merged_at: PUSHED_AT }]);
    s.gh.setCompare(pr.owner, pr.repo, BEFORE, mergeCommit, {
      status: "ahead",
      files: ["README.md"],
      commits: [{ sha: mergeCommit, message: `Merge pull request #${pr.number}` }],
    });
    await push(s, pushEvent(pr, { after: mergeCommit, commits: [mergeCommit] }));
    expect(s.gh.find("GET", new RegExp(`/commits/${mergeCommit}/pulls$`))).toHaveLength(1);
    expect(await pushReviews(s)).toEqual([]);
    expect(cardPosts(s)).toEqual([]);
    expect(await s.server.gate.store.latestForPr(prKey(pr))).toMatchObject({ id: review.id, status: "done" });
  });

  it("a push to a branch that is not watched answers 'ignored' and stores nothing; a protected branch is watched", async () => {
    const s = await start({ slack: true, env: { GATE_PROTECTED_BRANCHES: "release, hotfix" } });
    const commits = [sha(8)];
    const { pr, after } = servePush(s, commits);
    const res = await push(s, pushEvent(pr, { after, commits, ref: "refs/heads/feature-x" }), {
      id: "push-feature",
      expect: 200,
    });
    expect(res.text).toBe("ignored");
    expect(await s.server.gate.store.hasDelivery("push-feature")).toBe(false);
    const tag = await push(s, pushEvent(pr, { after, commits, ref: "refs/tags/v1.0.0" }), { expect: 200 });
    expect(tag.text).toBe("ignored");
    expect(s.gh.find("GET", /\/pulls$/)).toEqual([]);
    expect(await pushReviews(s)).toEqual([]);

    await push(s, pushEvent(pr, { after, commits, ref: "refs/heads/release" }), { id: "push-release" });
    expect(await s.server.gate.store.hasDelivery("push-release")).toBe(true);
    const [r] = await pushReviews(s);
    expect((await s.server.gate.runner.result(defined(r, "the review").id)).pushed).toMatchObject({
      branch: "release",
    });
  });

  it("an unsigned or badly signed push gets 401 and nothing is stored", async () => {
    const s = await start({ slack: true });
    const commits = [sha(9)];
    const { pr, after } = servePush(s, commits);
    const body = JSON.stringify(pushEvent(pr, { after, commits }));
    const unsigned = await postWebhook(s.base, body, { event: "push", id: "push-unsigned", signature: null });
    expect(unsigned.status).toBe(401);
    const forged = await postWebhook(s.base, body, {
      event: "push",
      id: "push-forged",
      signature: `sha256=${"0".repeat(64)}`,
    });
    expect(forged.status).toBe(401);
    await s.server.idle();
    expect(await s.server.gate.store.hasDelivery("push-unsigned")).toBe(false);
    expect(await s.server.gate.store.hasDelivery("push-forged")).toBe(false);
    expect(s.gh.find("GET", /\/pulls$/)).toEqual([]);
    expect(await pushReviews(s)).toEqual([]);
  });

  it("a push payload missing fields the gate reads is refused with 400, nothing stored", async () => {
    const s = await start({ slack: true });
    const { pr, after } = servePush(s, [sha(10)]);
    const { before: _gone, ...event } = pushEvent(pr, { after, commits: [after] });
    const res = await push(s, event, { id: "push-broken", expect: 400 });
    expect(res.text).toContain("push payload is missing fields");
    expect(await s.server.gate.store.hasDelivery("push-broken")).toBe(false);
  });
});
