import { expect } from "vitest";
import { addAuditor } from "../../src/review/auditor-tokens.js";
import { ACTION_APPROVE } from "../../src/slack/card.js";
import { defined } from "../helpers/defined.js";
import {
  APPROVER,
  postWebhook,
  pullRequestEvent,
  record,
  serveFixture,
  type ServedPr,
  type Stack,
  type StackOptions,
  waitFor,
} from "./helpers.js";
import { click, waitingReview } from "./slack-helpers.js";

/** GitHub's `pull_request` `closed` example for a served PR, merged by `by` at `at`. */
function mergedEvent(pr: ServedPr, by: string, at: string): Record<string, unknown> {
  const event = pullRequestEvent("closed", pr);
  return {
    ...event,
    pull_request: {
      ...record(event.pull_request),
      state: "closed",
      merged: true,
      merged_at: at,
      merged_by: { login: by, id: 77, type: "User" },
    },
  };
}

async function merge(s: Stack, pr: ServedPr, by: string, at: string): Promise<void> {
  expect((await postWebhook(s.base, JSON.stringify(mergedEvent(pr, by, at)))).status).toBe(202);
  await s.server.idle();
}

/** The two changes an auditor's page lists. */
export const MARCH_MERGE = "2027-03-02T10:15:00Z";
export const APRIL_MERGE = "2027-04-10T09:00:00Z";

/**
 * A Slack stack holding two changes: a PR approved in Slack by APPROVER then merged in March 2027 (after the approval),
 * and a second PR merged in April while it waited (merged past the gate); and an auditor `kim`.
 */
export async function stackWithEvidence(
  start: (opts: StackOptions) => Promise<Stack>,
  env: Record<string, string> = {},
) {
  const { s, pr, review, ts } = await waitingReview(start, env);
  await click(s, ACTION_APPROVE, APPROVER, review.id, ts);
  await waitFor("the approval", async () => (await s.server.gate.runner.result(review.id)).decision);
  await s.server.idle();
  await merge(s, pr, "octo-admin", MARCH_MERGE);
  const other = serveFixture(s, "002_new_dependency", { number: 9, headSha: "b".repeat(40) });
  expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", other)))).status).toBe(202);
  await s.server.idle();
  const otherReview = defined(await s.server.gate.store.latestForPr(`${other.owner}/${other.repo}#9`), "PR 9's review");
  await merge(s, other, "octo-admin", APRIL_MERGE);
  const token = await addAuditor(s.server.gate.store, "kim");
  return { s, pr, review, other, otherReview, token };
}
