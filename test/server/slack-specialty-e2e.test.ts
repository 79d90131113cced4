import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { ACTION_APPROVE, ACTION_REJECT } from "../../src/slack/card.js";
import { REASON_BLOCK, REASON_INPUT, REJECT_MODAL } from "../../src/slack/modals.js";
import { defined } from "../helpers/defined.js";
import { runGateCli } from "../helpers/run-cli.js";
import {
  APPROVER,
  AUTHOR_SLACK,
  checkRunsOn,
  openPr,
  record,
  serveFixture,
  stacksClosedAfterEach,
  waitFor,
  type Stack,
} from "./helpers.js";
import { blocksOf, click, clickForModal, command, hasButtons, submit } from "./slack-helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const SECURITY_APPROVER = "USECURITY";

const filesOf = (fixture: string): unknown[] =>
  JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, fixture, "files.json"), "utf8")) as unknown[];

/**
 * A Slack server with a security approvers list beside the general one, and a PR blocked by a
 * licensing finding (a GPL dependency, LIC-02) and a security finding (a hard-coded AWS key, SEC-01).
 */
async function blockedTwice() {
  const s = await start({
    slack: true,
    env: {
      GATE_GITHUB_TO_SLACK: `dev-priya=${AUTHOR_SLACK}`,
      GATE_APPROVERS: APPROVER,
      GATE_APPROVERS_BY_SPECIALTY: `security=${SECURITY_APPROVER}`,
    },
  });
  const pr = serveFixture(s, "002_new_dependency");
  const pull = JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency", "pr.json"), "utf8"));
  const files = [...filesOf("002_new_dependency"), ...filesOf("004_hardcoded_aws_key")];
  s.gh.setPull(pr.owner, pr.repo, pr.number, { pr: { ...pull, changed_files: files.length }, files });
  const review = await openPr(s, pr);
  expect(review.status).toBe("waiting_for_human");
  const result = await s.server.gate.runner.result(review.id);
  const blocking = result.findings.filter((f) => f.blocking);
  expect(blocking.map((f) => f.policy)).toEqual(expect.arrayContaining(["SEC-01", "LIC-02"]));
  return { s, slack: defined(s.slack, "the Slack fake"), pr, review, ts: defined(review.slackTs, "the card's ts") };
}

const statusJson = async (s: Stack, id: string) => {
  const out = await runGateCli(["status", id, "--json"], { env: s.env, cwd: s.dir });
  expect(out.code).toBe(0);
  return record(JSON.parse(out.stdout));
};

describe("approvers per specialty are required per specialty", () => {
  it("the security approver's Approve leaves the review waiting for a licensing (general) approver; the general approver's ends it human_approved; both are shown", async () => {
    const { s, slack, pr, review, ts } = await blockedTwice();

    expect((await click(s, ACTION_APPROVE, SECURITY_APPROVER, review.id, ts)).status).toBe(200);
    await waitFor("the partial approval", async () =>
      (await s.server.gate.store.auditFor(review.id)).find((e) => e.outcome === "partial"),
    );
    await s.server.idle();
    expect((await s.server.gate.store.get(review.id))?.status).toBe("waiting_for_human");
    const audit = await s.server.gate.store.auditFor(review.id);
    expect(audit.filter((e) => e.outcome === "partial")).toEqual([
      expect.objectContaining({
        actor: SECURITY_APPROVER,
        action: "approve",
        detail: { door: "slack", covers: ["security"], still_needed: ["licensing"] },
      }),
    ]);
    // The card says who approved what and who is still needed, and keeps its buttons.
    const card = await waitFor("the card to show the approval", () =>
      slack
        .callsTo("chat.update")
        .filter((c) => c.body.ts === ts)
        .find((c) => blocksOf(c).includes("security approved by")),
    );
    expect(blocksOf(card)).toContain(`security approved by <@${SECURITY_APPROVER}>`);
    expect(blocksOf(card)).toContain(`licensing still needs one of the general approvers: <@${APPROVER}>`);
    expect(hasButtons(card)).toBe(true);
    // So does the check run, still asking for a person.
    const run = defined(checkRunsOn(s.gh, pr.headSha)[0], "the check run");
    expect(run.fields.conclusion).toBe("action_required");
    const output = record(run.fields.output);
    expect(output.title).toBe("Partly approved; still needed: a licensing approver");
    expect(String(output.summary)).toContain(`- security approved by ${SECURITY_APPROVER}`);
    expect(String(output.summary)).toContain(`- licensing still needs one of the general approvers: ${APPROVER}`);
    // And `gate status`.
    const waiting = await statusJson(s, review.id);
    expect(waiting.status).toBe("waiting_for_human");
    expect(waiting.approvals).toEqual([{ by: SECURITY_APPROVER, at: expect.any(String), covers: ["security"] }]);
    expect(waiting.approvals_needed).toEqual([{ covers: "licensing", from: "general", ids: [APPROVER] }]);

    // `/gate list` names only who is still needed.
    await command(s, "list", "list");
    const [list] = await slack.waitFor("response_url");
    expect(String(list?.body.text)).toMatch(new RegExp(`may decide: <@${APPROVER}>$`, "m"));

    // The security approver again: refused, told what is still needed.
    await click(s, ACTION_APPROVE, SECURITY_APPROVER, review.id, ts);
    const [again] = await slack.waitFor("chat.postEphemeral");
    expect(String(again?.body.text)).toContain("it still waits for licensing (the general approvers)");

    await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
    await waitFor("the check run to pass", () => checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion === "success");
    await s.server.idle();
    const done = await statusJson(s, review.id);
    expect(done.route).toBe("human_approved");
    const approvals = [
      { by: SECURITY_APPROVER, at: expect.any(String), covers: ["security"] },
      { by: APPROVER, at: expect.any(String), covers: ["licensing"] },
    ];
    expect(done.approvals).toEqual(approvals);
    expect(record(done.decision)).toMatchObject({ kind: "approve", by: APPROVER, approvals });
    const summary = String(record(checkRunsOn(s.gh, pr.headSha)[0]?.fields.output).summary);
    expect(summary).toContain(`- security approved by ${SECURITY_APPROVER}`);
    expect(summary).toContain(`- licensing approved by ${APPROVER}`);
  }, 90_000);

  it("through the CLI: `gate decide --by` the security approver leaves it waiting; a Reject from the security approver rejects", async () => {
    const { s, slack, pr, review, ts } = await blockedTwice();
    const first = await runGateCli(["decide", review.id, "approve", "--by", SECURITY_APPROVER, "--json"], {
      env: s.env,
      cwd: s.dir,
    });
    expect(first.code).toBe(0);
    const partly = record(JSON.parse(first.stdout));
    expect(partly.status).toBe("waiting_for_human");
    expect(partly.approvals_needed).toEqual([{ covers: "licensing", from: "general", ids: [APPROVER] }]);
    const text = await runGateCli(["status", review.id], { env: s.env, cwd: s.dir });
    expect(text.stdout).toContain(`approval: security approved by ${SECURITY_APPROVER}`);
    expect(text.stdout).toContain(`approval: licensing still needs one of the general approvers: ${APPROVER}`);
    expect((await s.server.gate.store.auditFor(review.id)).filter((e) => e.outcome === "partial")).toHaveLength(1);

    // Anyone entitled to decide a blocking specialty may reject it.
    const view = await clickForModal(s, ACTION_REJECT, SECURITY_APPROVER, review.id, ts, REJECT_MODAL);
    await submit(s, REJECT_MODAL, SECURITY_APPROVER, String(view.private_metadata), {
      [REASON_BLOCK]: { [REASON_INPUT]: "the key must be rotated first" },
    });
    await waitFor("the check run to fail", () => checkRunsOn(s.gh, pr.headSha)[0]?.fields.conclusion === "failure");
    await s.server.idle();
    expect((await statusJson(s, review.id)).route).toBe("human_rejected");
    expect(slack.callsTo("chat.postEphemeral")).toHaveLength(0);
  }, 90_000);
});
