import { describe, expect, it } from "vitest";
import { PR_COMMENT_MARKER } from "../../src/github/pr-comment.js";
import type { FakeComment, FakeGitHub } from "../fakes/github-api.js";
import { defined } from "../helpers/defined.js";
import { checkRunsOn, openPr, type ServedPr, serveFixture, stacksClosedAfterEach } from "./helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const NEW_HEAD = "b".repeat(40);
const COMMENTS = /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/;
const A_COMMENT = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+$/;

/** The comments the fake holds on a served PR, oldest first. */
function commentsOn(gh: FakeGitHub, pr: ServedPr): FakeComment[] {
  return [...gh.comments.values()].filter((c) => c.owner === pr.owner && c.repo === pr.repo && c.number === pr.number);
}

/** The gate's one summary comment on the PR (the test fails unless there is exactly one). */
function summaryOn(gh: FakeGitHub, pr: ServedPr): FakeComment {
  const ours = commentsOn(gh, pr).filter((c) => c.body.startsWith(PR_COMMENT_MARKER));
  expect(ours).toHaveLength(1);
  return defined(ours[0], "the summary comment");
}

describe("the PR's summary comment, through the server (GATE_SLACK=off)", () => {
  it("opens with one comment naming the route, the findings, the coverage and who can decide; a push and a decision edit the same comment", async () => {
    const s = await start({ env: { GATE_APPROVERS: "UAPPROVER" } });
    const pr = serveFixture(s, "002_new_dependency");
    const first = await openPr(s, pr);
    expect(first.status).toBe("waiting_for_human");

    const comment = summaryOn(s.gh, pr);
    expect(commentsOn(s.gh, pr)).toHaveLength(1);
    expect(comment.user.type).toBe("Bot");
    expect(comment.body).toContain(`**Head:** ${pr.headSha}`);
    expect(comment.body).toContain("**Route:** waiting for a person");
    expect(comment.body).toMatch(/\| LIC-02 \*\*blocking\*\* \| `package\.json` \| \d+ \| [^|]*GPL/);
    expect(comment.body).toContain("### Coverage");
    expect(comment.body).toMatch(/Read \d+ of \d+ changed file/);
    expect(comment.body).toMatch(/### Who can decide\n\n- [^\n]*`UAPPROVER`/);
    // Only the settled result was shown: one create, no edit for the queued or running ones.
    expect(s.gh.find("POST", COMMENTS)).toHaveLength(1);
    expect(s.gh.find("PATCH", A_COMMENT)).toHaveLength(0);
    // The check run stands as it did without the comment.
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["action_required"]);

    const moved = serveFixture(s, "002_new_dependency", { headSha: NEW_HEAD });
    const second = await openPr(s, moved, "synchronize");
    expect(second.headSha).toBe(NEW_HEAD);
    expect(second.status).toBe("waiting_for_human");

    const edited = summaryOn(s.gh, pr);
    expect(commentsOn(s.gh, pr)).toHaveLength(1);
    expect(edited.id).toBe(comment.id);
    expect(edited.body).toContain(`**Head:** ${NEW_HEAD}`);
    expect(edited.body).not.toContain(pr.headSha);
    expect(edited.body).toContain(`\`${second.id}\``);
    expect(s.gh.find("POST", COMMENTS)).toHaveLength(1);
    expect(s.gh.find("PATCH", A_COMMENT)).toHaveLength(1);
    expect(await s.server.gate.store.unpublished()).toHaveLength(0);

    // A decision is a new result: the same comment says who decided.
    expect((await s.server.gate.runner.decide(second.id, { kind: "approve", by: "UAPPROVER" })).ok).toBe(true);
    await s.server.idle();
    const decided = summaryOn(s.gh, pr);
    expect(decided.id).toBe(comment.id);
    expect(decided.body).toContain("**Route:** approved by a person");
    expect(decided.body).toMatch(/### Who can decide\n\nApproved by UAPPROVER at /);
    expect(commentsOn(s.gh, pr)).toHaveLength(1);
    expect(s.gh.find("PATCH", A_COMMENT)).toHaveLength(2);
  });

  it("GATE_PR_COMMENT=off: no comment, not even a look at the PR's comments; the check run as before", async () => {
    const s = await start({ env: { GATE_PR_COMMENT: "off" } });
    const pr = serveFixture(s, "002_new_dependency");
    expect((await openPr(s, pr)).status).toBe("waiting_for_human");
    expect(s.gh.comments.size).toBe(0);
    expect(s.gh.requests.filter((r) => r.path.includes("/issues/"))).toHaveLength(0);
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["action_required"]);
  });

  it("a create whose answer is lost is found again, not doubled", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    s.gh.failNext("POST", COMMENTS, 1, { status: 502, afterApplying: true });
    expect((await openPr(s, pr)).status).toBe("done");
    expect(s.gh.find("POST", COMMENTS)).toHaveLength(1);
    const comment = summaryOn(s.gh, pr);
    expect(comment.body).toContain("**Route:** auto-approved");
    expect(comment.body).toContain("No findings.");
    expect(comment.body).toContain("Nothing to decide.");
    expect(await s.server.gate.store.unpublished()).toHaveLength(0);
  });

  it("a failing comment leaves the verdict and the check run alone, and is shown when the review is published again", async () => {
    // No client retries: the one listing of the PR's comments fails, and with it this publish of the comment.
    const s = await start({ env: { GATE_GITHUB_RETRIES: "0" } });
    const pr = serveFixture(s, "002_new_dependency");
    s.gh.failNext("GET", COMMENTS, 1, { status: 500 });
    const review = await openPr(s, pr);
    expect(review.status).toBe("waiting_for_human");
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["action_required"]);
    expect(s.gh.comments.size).toBe(0);
    expect((await s.server.gate.store.unpublished()).map((r) => r.id)).toEqual([review.id]);
    const metrics = await (await fetch(`${s.base}/metrics`)).text();
    expect(metrics).toMatch(/^gate_publish_failures_total\{target="github-comment"\} 1$/m);

    // GitHub answers again; a restart publishes what was left unpublished.
    await s.server.close();
    await s.restart();
    await s.server.idle();
    expect(summaryOn(s.gh, pr).body).toContain("LIC-02");
    expect(await s.server.gate.store.unpublished()).toHaveLength(0);
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    expect(checkRunsOn(s.gh, pr.headSha)).toHaveLength(1);
  });

  it("a person's comment carrying the marker is neither taken for the gate's nor edited", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    const spoof = s.gh.addComment(
      pr.owner,
      pr.repo,
      pr.number,
      `${PR_COMMENT_MARKER}\nAll clear, merge it.`,
      "mallory",
    );
    await openPr(s, pr);
    expect(s.gh.comments.get(spoof.id)?.body).toBe(`${PR_COMMENT_MARKER}\nAll clear, merge it.`);
    const ours = commentsOn(s.gh, pr).filter((c) => c.user.type === "Bot");
    expect(ours).toHaveLength(1);
    expect(ours[0]?.body).toContain("**Route:** auto-approved");
    expect(s.gh.find("PATCH", A_COMMENT)).toHaveLength(0);
  });

  it("an App registered without the permission: the review is published, the comment skipped with a warning", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    s.gh.failNext("GET", COMMENTS, 1, { status: 403, body: { message: "Resource not accessible by integration" } });
    expect((await openPr(s, pr)).status).toBe("done");
    expect(s.gh.comments.size).toBe(0);
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["success"]);
    expect(await s.server.gate.store.unpublished()).toHaveLength(0);
  });

  it("token mode keeps one comment too, written as the token's user; another user's copy of the marker is left alone", async () => {
    const s = await start({ mode: "token" });
    const pr = serveFixture(s, "002_new_dependency");
    const planted = s.gh.addComment(pr.owner, pr.repo, pr.number, `${PR_COMMENT_MARKER}\nLooks fine.`, "mallory");
    await openPr(s, pr);
    await openPr(s, serveFixture(s, "002_new_dependency", { headSha: NEW_HEAD }), "synchronize");
    expect(s.gh.comments.get(planted.id)?.body).toBe(`${PR_COMMENT_MARKER}\nLooks fine.`);
    const ours = commentsOn(s.gh, pr).filter((c) => c.user.login === "fake-user");
    expect(commentsOn(s.gh, pr)).toHaveLength(2);
    expect(ours).toHaveLength(1);
    const comment = defined(ours[0], "the gate's comment");
    expect(s.gh.find("PATCH", A_COMMENT).map((r) => r.path)).toEqual([
      `/repos/${pr.owner}/${pr.repo}/issues/comments/${comment.id}`,
    ]);
    expect(comment.body).toContain(`**Head:** ${NEW_HEAD}`);
  });
});
