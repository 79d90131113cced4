import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACTION_APPROVE, ACTION_REJECT } from "../../src/slack/card.js";
import { REASON_BLOCK, REASON_INPUT, REJECT_MODAL } from "../../src/slack/modals.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { rawTarball, type RawEntry } from "../fakes/github-api.js";
import { defined } from "../helpers/defined.js";
import {
  APPROVER,
  checkRunsOn,
  latestReview,
  postWebhook,
  prKey,
  pullRequestEvent,
  record,
  stacksClosedAfterEach,
  waitFor,
  type ServedPr,
  type Stack,
} from "./helpers.js";
import {
  blocksOf,
  buttonValues,
  cardPosts,
  click,
  clickForModal,
  command,
  hasButtons,
  submit,
  threadNotes,
  waitingReview,
} from "./slack-helpers.js";

const start = stacksClosedAfterEach();
const FIXTURE = path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency");
const readJson = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(FIXTURE, name), "utf8"));

const H2 = "2".repeat(40);
const H3 = "3".repeat(40);
const H4 = "4".repeat(40);

/**
 * Serves a new head of the GPL-dependency PR: optionally a README edit added to the PR, and the
 * dependency at another version (in the patch and the head's package.json); GitHub's compare of
 * the previous head with it says `ahead` (or `diverged`) with the files that changed.
 */
function push(
  s: Stack,
  pr: ServedPr,
  headSha: string,
  change: { from: string; readme?: boolean; version?: string; status?: "ahead" | "diverged"; changed: string[] },
): ServedPr {
  const pull = record(readJson("pr.json"));
  const version = change.version ?? "^2.1.0";
  const files = (readJson("files.json") as Array<Record<string, unknown>>).map((f) =>
    f.filename === "package.json" ? { ...f, patch: String(f.patch).replace("^2.1.0", version) } : f,
  );
  if (change.readme) {
    files.push({
      filename: "README.md",
      status: "modified",
      additions: 1,
      deletions: 1,
      changes: 2,
      patch: "@@ -1,3 +1,3 @@\n # dashboard\n-Teh dashboard.\n+The dashboard.\n",
    });
  }
  s.gh.setPull(pr.owner, pr.repo, pr.number, {
    pr: { ...pull, head: { ...record(pull.head), sha: headSha }, changed_files: files.length },
    files,
  });
  const top = `${pr.owner}-${pr.repo}-${headSha.slice(0, 7)}`;
  const manifest = fs.readFileSync(path.join(FIXTURE, "repo", "package.json"), "utf8").replace("^2.1.0", version);
  const source = fs.readFileSync(path.join(FIXTURE, "repo", "src", "overview", "revenue.ts"));
  const entries: RawEntry[] = [
    { path: `${top}/`, type: "Directory" },
    { path: `${top}/README.md`, type: "File", body: "# dashboard\nThe dashboard.\n" },
    { path: `${top}/package.json`, type: "File", body: manifest },
    { path: `${top}/src/overview/revenue.ts`, type: "File", body: source },
  ];
  s.gh.setTarball(pr.owner, pr.repo, headSha, rawTarball(entries));
  s.gh.setCompare(pr.owner, pr.repo, change.from, headSha, { status: change.status ?? "ahead", files: change.changed });
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

const runOn = (s: Stack, sha: string) => defined(checkRunsOn(s.gh, sha)[0], `a check run on ${sha.slice(0, 7)}`);

/** An approver's approval of the waiting GPL-dependency PR, through the card's button. */
async function approved(s: Stack, review: { id: string; slackTs?: string }, sha: string) {
  expect((await click(s, ACTION_APPROVE, APPROVER, review.id, defined(review.slackTs, "the card"))).status).toBe(200);
  await waitFor("the approval", () => runOn(s, sha).fields.conclusion === "success");
  await s.server.idle();
}

describe("a decision survives a push that does not touch it", () => {
  it("carries an approval across a README push (success, one thread line, no card, audited) and asks again when the GPL dependency's version changes", async () => {
    const { s, pr, review } = await waitingReview(start);
    await approved(s, review, pr.headSha);
    const notesBefore = threadNotes(s).length;

    const readme = push(s, pr, H2, { from: pr.headSha, readme: true, changed: ["README.md"] });
    const carried = await deliver(s, readme);
    expect(carried.status).toBe("done");
    const result = await s.server.gate.runner.result(carried.id);
    expect(result.route).toBe("human_approved");
    expect(result.decision?.carried_from).toEqual(
      expect.objectContaining({ review_id: review.id, head_sha: pr.headSha }),
    );
    const run = runOn(s, H2);
    expect(run.fields.conclusion).toBe("success");
    expect(String(record(run.fields.output).title)).toBe(
      `Approved by ${APPROVER} at ${pr.headSha.slice(0, 7)}, carried forward: no change to the approved findings`,
    );
    // No second card with buttons: one line in the PR's thread.
    expect(cardPosts(s)).toHaveLength(1);
    const lines = threadNotes(s).slice(notesBefore);
    expect(lines).toHaveLength(1);
    expect(String(lines[0]?.body.text)).toContain("carried forward");
    expect(lines[0]?.body.thread_ts).toBe(review.slackTs);
    expect(await s.server.gate.store.auditFor(carried.id)).toContainEqual(
      expect.objectContaining({
        actor: APPROVER,
        action: "approve",
        outcome: "carried_forward",
        detail: expect.objectContaining({ from_head: pr.headSha, to_head: H2 }),
      }),
    );
    // `/gate status` names the carried decision's origin.
    await command(s, `status ${prKey(pr)}`, "status-carried");
    const answers = await defined(s.slack, "the Slack fake").waitFor("response_url");
    const answer = answers.find((a) => a.responseId === "status-carried");
    expect(String(answer?.body.text)).toContain(`Carried forward from review \`${review.id}\``);
    expect(String(answer?.body.text)).toContain(pr.headSha.slice(0, 7));

    // The dependency's version changes: a new decision, and the card says what changed.
    const bumped = push(s, pr, H3, { from: H2, readme: true, version: "^2.2.0", changed: ["package.json"] });
    const asked = await deliver(s, bumped);
    expect(asked.status).toBe("waiting_for_human");
    expect(runOn(s, H3).fields.conclusion).toBe("action_required");
    const cards = cardPosts(s);
    expect(cards).toHaveLength(2);
    expect(hasButtons(cards[1])).toBe(true);
    expect(buttonValues(cards[1]).map(([, v]) => v)).toContain(asked.id);
    expect(blocksOf(cards[1])).toContain("Changed since the approval");
    expect(blocksOf(cards[1])).toContain("gpl-chart-lib changed from gpl-chart-lib@^2.1.0 to gpl-chart-lib@^2.2.0");
    expect((await s.server.gate.runner.result(asked.id)).since_decision?.head_sha).toBe(pr.headSha);
    expect((await s.server.gate.store.auditFor(asked.id)).map((e) => e.outcome)).not.toContain("carried_forward");

    // The version goes back while that card waits: the approval carries again, and the superseded
    // card points at the thread line that says so (the new head's state).
    const back = push(s, pr, H4, { from: H3, readme: true, changed: ["package.json"] });
    // The decision it carries is H2's (carried from the first head): compared with that head too.
    s.gh.setCompare(pr.owner, pr.repo, H2, H4, { status: "ahead", files: ["package.json"] });
    s.gh.setCompare(pr.owner, pr.repo, pr.headSha, H4, { status: "ahead", files: ["README.md", "package.json"] });
    const reverted = await deliver(s, back);
    expect(reverted.status).toBe("done");
    expect(runOn(s, H4).fields.conclusion).toBe("success");
    expect(cardPosts(s)).toHaveLength(2);
    const waitingCard = defined(asked.slackTs, "the second card");
    const oldCard = defined(s.slack, "the Slack fake")
      .callsTo("chat.update")
      .filter((c) => c.body.ts === waitingCard)
      .at(-1);
    const text = JSON.stringify(oldCard?.body.blocks);
    expect(text).toContain("Superseded by");
    expect(text).toContain("See the decision carried to it");
  });

  it("with decisions.carry_forward: never, the README push asks again", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-carry-never-"));
    const file = path.join(dir, "gate.yml");
    fs.writeFileSync(file, "version: 1\ndecisions:\n  carry_forward: never\n");
    try {
      const { s, pr, review } = await waitingReview(start, { GATE_CONFIG: file });
      await approved(s, review, pr.headSha);
      const again = await deliver(s, push(s, pr, H2, { from: pr.headSha, readme: true, changed: ["README.md"] }));
      expect(again.status).toBe("waiting_for_human");
      expect(runOn(s, H2).fields.conclusion).toBe("action_required");
      expect(cardPosts(s)).toHaveLength(2);
      expect(hasButtons(cardPosts(s)[1])).toBe(true);
      expect(blocksOf(cardPosts(s)[1])).toContain("decisions.carry_forward: never");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a force-push (the old head is no ancestor) starts over", async () => {
    const { s, pr, review } = await waitingReview(start);
    await approved(s, review, pr.headSha);
    const rewritten = push(s, pr, H2, { from: pr.headSha, readme: true, status: "diverged", changed: ["README.md"] });
    const again = await deliver(s, rewritten);
    expect(again.status).toBe("waiting_for_human");
    expect(blocksOf(cardPosts(s)[1])).toContain("history was rewritten");
  });

  it("a rejection carried forward keeps the check run failing across an unrelated push", async () => {
    const { s, pr, review, ts } = await waitingReview(start);
    const view = await clickForModal(s, ACTION_REJECT, APPROVER, review.id, ts, REJECT_MODAL);
    await submit(s, REJECT_MODAL, APPROVER, String(view.private_metadata), {
      [REASON_BLOCK]: { [REASON_INPUT]: "GPL code cannot ship in the dashboard" },
    });
    await waitFor("the rejection", () => runOn(s, pr.headSha).fields.conclusion === "failure");
    await s.server.idle();
    const carried = await deliver(s, push(s, pr, H2, { from: pr.headSha, readme: true, changed: ["README.md"] }));
    expect((await s.server.gate.runner.result(carried.id)).route).toBe("human_rejected");
    expect(runOn(s, H2).fields.conclusion).toBe("failure");
    expect(String(record(runOn(s, H2).fields.output).title)).toContain(
      "carried forward: no change to the rejected findings",
    );
    expect(cardPosts(s)).toHaveLength(1);
  });

  it("an approval a user group allowed carries while its maker is in the group, and not once Slack says they left it", async () => {
    const { s, slack, pr, review } = await waitingReview(start, { GATE_APPROVERS: "SAPPROVERS" });
    slack.userGroups.set("SAPPROVERS", [APPROVER]);
    await approved(s, review, pr.headSha);
    const carried = await deliver(s, push(s, pr, H2, { from: pr.headSha, readme: true, changed: ["README.md"] }));
    expect(carried.status).toBe("done");
    expect(runOn(s, H2).fields.conclusion).toBe("success");

    // Taken out of the group; a new process (its memory of the groups' members empty) sees it at once.
    slack.userGroups.set("SAPPROVERS", ["UOTHER"]);
    await s.server.close();
    await s.restart();
    const asked = await deliver(s, push(s, pr, H3, { from: H2, readme: true, changed: ["README.md"] }));
    expect(asked.status).toBe("waiting_for_human");
    const since = (await s.server.gate.runner.result(asked.id)).since_decision;
    expect(since?.changes.join("\n")).toContain(`${APPROVER} may not decide on it now`);
    expect(runOn(s, H3).fields.conclusion).toBe("action_required");
  });

  it("a carried decision whose maker's groups Slack does not give in time does not carry (counted as in none)", async () => {
    const { s, slack, pr, review } = await waitingReview(start, { GATE_APPROVERS: "SAPPROVERS" });
    slack.userGroups.set("SAPPROVERS", [APPROVER]);
    await approved(s, review, pr.headSha);
    await s.server.close();
    await s.restart();
    slack.delay("usergroups.users.list", 8000);
    const asked = await deliver(s, push(s, pr, H2, { from: pr.headSha, readme: true, changed: ["README.md"] }));
    slack.delay("usergroups.users.list", 0);
    expect(asked.status).toBe("waiting_for_human");
    expect(runOn(s, H2).fields.conclusion).toBe("action_required");
  }, 30_000);

  it("an approver removed from the list in between does not carry", async () => {
    const { s, pr, review } = await waitingReview(start);
    await approved(s, review, pr.headSha);
    await s.server.close();
    // The same database, now with another approver list.
    s.env.GATE_APPROVERS = "UOTHER";
    const next = await s.restart();
    expect(next).toBeDefined();
    const again = await deliver(s, push(s, pr, H2, { from: pr.headSha, readme: true, changed: ["README.md"] }));
    expect(again.status).toBe("waiting_for_human");
    const since = (await s.server.gate.runner.result(again.id)).since_decision;
    expect(since?.changes.join("\n")).toContain(`${APPROVER} may not decide on it now`);
  });
});
