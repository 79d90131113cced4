import { describe, expect, it } from "vitest";
import {
  refusalMessage,
  routeOfDecision,
  type ApproverConfig,
  type DecideRefusal,
  type DecisionDoor,
  type Refusal,
} from "../../src/domain/decision.js";
import { authorSlackId, decisionRefusal, isPrAuthor, type DecisionRequest } from "../../src/review/decision-policy.js";

const base: ApproverConfig = { approvers: ["U1", "SLEADS"], githubToSlack: { octocat: "UAUTHOR" } };
const withSecurity: ApproverConfig = { ...base, bySpecialty: { security: ["USEC", "SSEC"] } };
const withTwo: ApproverConfig = { ...base, bySpecialty: { security: ["USEC", "UBOTH"], licensing: ["ULIC", "UBOTH"] } };
const SLACK: DecisionDoor = { kind: "slack" };
const CLI: DecisionDoor = { kind: "cli" };

/** A review waiting for a person, approvable by U1 from Slack, with budget left. */
function request(overrides: Partial<DecisionRequest> = {}): DecisionRequest {
  return {
    kind: "approve",
    by: "U1",
    door: SLACK,
    review: { id: "r-1", pr: "acme/web#12", status: "waiting_for_human", author: "octocat" },
    blockingSpecialties: [],
    budget: { cyclesUsed: 0, cyclesMax: 2, costUsd: 0, maxCostUsd: 1 },
    gatePending: true,
    approvers: base,
    ...overrides,
  };
}
const review = (o: Partial<DecisionRequest["review"]>) => ({ ...request().review, ...o });

const rows: { name: string; req: DecisionRequest; code?: DecideRefusal; message?: RegExp }[] = [
  // whether
  { name: "a waiting review, an approver: allowed", req: request() },
  {
    name: "superseded",
    req: request({ review: review({ status: "superseded", supersededBy: "b".repeat(40) }) }),
    code: "superseded",
    message: /superseded by bbbb/,
  },
  {
    name: "superseded without the newer head's sha",
    req: request({ review: review({ status: "superseded" }) }),
    code: "superseded",
    message: /a newer push/,
  },
  {
    name: "already decided, with who and when",
    req: request({
      review: review({ status: "done" }),
      decision: { kind: "approve", by: "alice", at: "2026-03-02T09:00:00Z" },
    }),
    code: "already_decided",
    message: /^Already decided: approved by alice at 2026-03-02T09:00:00Z/,
  },
  {
    name: "done without a decision (it passed by itself)",
    req: request({ review: review({ status: "done" }) }),
    code: "already_decided",
    message: /already done/,
  },
  {
    name: "running (another decision is being applied)",
    req: request({ review: review({ status: "running" }) }),
    code: "not_waiting",
    message: /running.*not waiting for a decision/,
  },
  {
    name: "queued",
    req: request({ review: review({ status: "queued" }) }),
    code: "not_waiting",
    message: /queued, not waiting/,
  },
  // who
  {
    name: "the PR author by the login map, even if listed",
    req: request({ by: "UAUTHOR", approvers: { ...base, approvers: ["UAUTHOR"] } }),
    code: "not_allowed",
    message: /author can never decide/,
  },
  {
    name: "the login map is case-insensitive",
    req: request({ by: "UAUTHOR", approvers: { approvers: ["UAUTHOR"], githubToSlack: { OctoCat: "UAUTHOR" } } }),
    code: "not_allowed",
    message: /you opened this pull request/,
  },
  {
    name: "the PR author by their Slack profile",
    req: request({ door: { kind: "slack", namesAuthor: true } }),
    code: "not_allowed",
    message: /author can never decide/,
  },
  {
    name: "Slack: a click from another card than the review's own (a tampered button value)",
    req: request({ door: { kind: "slack", fromReviewCard: false } }),
    code: "wrong_card",
    message: /not the card of review/,
  },
  {
    name: "CLI: --by the author's login",
    req: request({ by: "octocat", door: CLI, approvers: { approvers: [] } }),
    code: "not_allowed",
    message: /author can never decide/,
  },
  {
    name: "CLI: --by the author's login in another case",
    req: request({ by: "OctoCat", door: CLI, approvers: { approvers: [] } }),
    code: "not_allowed",
  },
  {
    name: "CLI: --by the author's Slack id",
    req: request({ by: "UAUTHOR", door: CLI }),
    code: "not_allowed",
    message: /author can never decide/,
  },
  {
    name: "CLI: no approver configured, anyone else named decides",
    req: request({ by: "alice", door: CLI, approvers: { approvers: [] } }),
  },
  {
    name: "CLI: approver lists configured, --by must be on them",
    req: request({ by: "alice", door: CLI }),
    code: "not_allowed",
    message: /not among the configured approvers/,
  },
  { name: "CLI: an approver's id", req: request({ by: "U1", door: CLI }) },
  { name: "a member of a listed group", req: request({ by: "U7", door: { kind: "slack", groups: ["SLEADS"] } }) },
  {
    name: "not listed",
    req: request({ by: "U9" }),
    code: "not_allowed",
    message: /not among the configured approvers/,
  },
  {
    name: "Slack with no approvers configured fails closed",
    req: request({ approvers: { approvers: [] } }),
    code: "not_allowed",
    message: /no approvers are configured.*nobody may decide/,
  },
  {
    name: "security list applies to a blocking security finding",
    req: request({ by: "USEC", blockingSpecialties: ["security"], approvers: withSecurity }),
  },
  {
    name: "general approver refused when the security list applies",
    req: request({ blockingSpecialties: ["security"], approvers: withSecurity }),
    code: "not_allowed",
    message: /not among the security approvers/,
  },
  {
    name: "member of the security group",
    req: request({
      by: "U5",
      door: { kind: "slack", groups: ["SSEC"] },
      blockingSpecialties: ["security"],
      approvers: withSecurity,
    }),
  },
  {
    name: "security list ignored without a blocking security finding",
    req: request({ blockingSpecialties: ["data"], approvers: withSecurity }),
  },
  {
    name: "security list ignored for a non-approver without blocking",
    req: request({ by: "USEC", approvers: withSecurity }),
    code: "not_allowed",
  },
  {
    name: "two specialties: on one list, approves that one (the other still needs its approver)",
    req: request({ by: "USEC", blockingSpecialties: ["security", "licensing"], approvers: withTwo }),
  },
  {
    name: "two specialties: on neither list",
    req: request({ by: "U9", blockingSpecialties: ["security", "licensing"], approvers: withTwo }),
    code: "not_allowed",
    message: /not among the security\/licensing approvers/,
  },
  {
    name: "two specialties: in both lists",
    req: request({ by: "UBOTH", blockingSpecialties: ["security", "licensing"], approvers: withTwo }),
  },
  {
    name: "specialty lists only, no general list, not applicable",
    req: request({
      by: "USEC",
      blockingSpecialties: ["data"],
      approvers: { approvers: [], bySpecialty: { security: ["USEC"] } },
    }),
    code: "not_allowed",
    message: /nobody may decide/,
  },
  {
    name: "CLI: specialty lists only count as configured",
    req: request({
      by: "alice",
      door: CLI,
      blockingSpecialties: ["security"],
      approvers: { approvers: [], bySpecialty: { security: ["USEC"] } },
    }),
    code: "not_allowed",
    message: /security approvers/,
  },
  // budget
  { name: "info with cycles and money left", req: request({ kind: "info" }) },
  {
    name: "info with the cycles spent",
    req: request({ kind: "info", budget: { cyclesUsed: 2, cyclesMax: 2, costUsd: 0, maxCostUsd: 1 } }),
    code: "budget_spent",
    message: /budget of this review is spent \(2 of 2 cycles used\)/,
  },
  {
    name: "info with the money spent (cycles left)",
    req: request({ kind: "info", budget: { cyclesUsed: 0, cyclesMax: 2, costUsd: 1.2, maxCostUsd: 1 } }),
    code: "budget_spent",
    message: /spent \$1\.2000 of its \$1\.00/,
  },
  {
    name: "approve with the budget spent: still allowed",
    req: request({ budget: { cyclesUsed: 2, cyclesMax: 2, costUsd: 5, maxCostUsd: 1 } }),
  },
  {
    name: "no money cap",
    req: request({ kind: "info", budget: { cyclesUsed: 0, cyclesMax: 2, costUsd: 99, maxCostUsd: null } }),
  },
  {
    name: "info on a review that failed closed (no gate to resume)",
    req: request({ kind: "info", gatePending: false }),
    code: "cannot_investigate",
    message: /could not finish/,
  },
  { name: "reject on a review that failed closed", req: request({ kind: "reject", gatePending: false }) },
  // order: whether before who, who before budget
  {
    name: "the author on a superseded review hears it is superseded",
    req: request({ by: "UAUTHOR", review: review({ status: "superseded" }) }),
    code: "superseded",
  },
  {
    name: "a non-approver asking with the budget spent hears they may not decide",
    req: request({ kind: "info", by: "U9", budget: { cyclesUsed: 2, cyclesMax: 2, costUsd: 0, maxCostUsd: 1 } }),
    code: "not_allowed",
  },
];

describe("decisionRefusal: the one rule for every door", () => {
  for (const row of rows) {
    it(row.name, () => {
      const refusal = decisionRefusal(row.req);
      expect(refusal?.code).toBe(row.code);
      if (refusal && row.message) expect(refusalMessage(refusal)).toMatch(row.message);
    });
  }
});

describe("the author check", () => {
  it("matches logins in any case, and Slack ids through the login map's own keys only", () => {
    expect(authorSlackId("OctoCat", { octocat: "U1" })).toBe("U1");
    expect(authorSlackId("constructor", {})).toBeUndefined();
    expect(isPrAuthor("DEV-Priya", CLI, "dev-priya", undefined)).toBe(true);
    expect(isPrAuthor("U1", CLI, "octocat", { OCTOCAT: "U1" })).toBe(true);
    expect(isPrAuthor("U2", CLI, "octocat", { octocat: "U1" })).toBe(false);
    // A review without a known author bars nobody by name.
    expect(isPrAuthor("", CLI, "", undefined)).toBe(false);
  });
});

describe("one wording and one route per decision", () => {
  it("renders people and dates in the door's style, with the same words", () => {
    const refusal = {
      code: "already_decided" as const,
      reviewId: "r-1",
      decision: { kind: "reject" as const, by: "U1", at: "2026-03-02T09:00:00Z" },
    };
    expect(refusalMessage(refusal)).toBe(
      "Already decided: rejected by U1 at 2026-03-02T09:00:00Z; nothing was changed.",
    );
    expect(refusalMessage(refusal, { person: (id) => `<@${id}>`, date: () => "today" })).toBe(
      "Already decided: rejected by <@U1> at today; nothing was changed.",
    );
  });

  it("maps approve and reject to their routes", () => {
    expect(routeOfDecision("approve")).toBe("human_approved");
    expect(routeOfDecision("reject")).toBe("human_rejected");
  });
});

describe("every refusal code has its wording", () => {
  const decision = { kind: "approve" as const, by: "alice", at: "2026-03-02T09:00:00Z" };
  const one = {
    invalid: { code: "invalid" },
    not_found: { code: "not_found", reviewId: "r-9" },
    superseded: { code: "superseded", reviewId: "r-1", by: "b".repeat(40) },
    closed: { code: "closed", pr: "acme/web#12" },
    already_decided: { code: "already_decided", reviewId: "r-1", decision },
    not_waiting: { code: "not_waiting", reviewId: "r-1", status: "queued" },
    busy: { code: "busy", reviewId: "r-1" },
    budget_spent: { code: "budget_spent", spent: "2 of 2 cycles used" },
    cannot_investigate: { code: "cannot_investigate", reviewId: "r-1" },
    not_allowed: { code: "not_allowed", pr: "acme/web#12", why: "you are not among the configured approvers" },
    wrong_card: { code: "wrong_card", reviewId: "r-1" },
    too_late: { code: "too_late", reviewId: "r-1" },
    already_running: { code: "already_running", pr: "acme/web#12", reviewId: "r-2" },
    replayed: { code: "replayed", reviewId: "r-1" },
    merged: { code: "merged", pr: "acme/web#12" },
    not_merged: { code: "not_merged", reviewId: "r-1" },
  } satisfies { [C in DecideRefusal]: Extract<Refusal, { code: C }> };

  for (const [code, refusal] of Object.entries(one)) {
    it(code, () => {
      const text = refusalMessage(refusal);
      // Each says what happened and what it means for the review: unchanged, or what to do instead.
      expect(text).toMatch(/nothing was changed|approve or reject/i);
      expect(text).not.toMatch(/undefined|\[object/);
    });
  }
});
