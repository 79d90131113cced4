import { describe, expect, it } from "vitest";
import type { ApproverConfig, DecisionDoor } from "../../src/domain/decision.js";
import type { Specialty } from "../../src/domain/finding.js";
import type { Approval } from "../../src/domain/review-result.js";
import { decisionRefusal, deciderLists, type DecisionRequest } from "../../src/review/decision-policy.js";
import { planApproval } from "../../src/review/partial-approval.js";
import { neededApprovals } from "../../src/review/specialty-approvals.js";

const AT = "2026-03-02T09:00:00Z";
/** The approver configurations of the table: which specialties have lists of their own. */
const CONFIGS: Record<string, ApproverConfig> = {
  general: { approvers: ["UGEN"] },
  security: { approvers: ["UGEN"], bySpecialty: { security: ["USEC", "SSEC"] } },
  both: { approvers: ["UGEN"], bySpecialty: { security: ["USEC"], licensing: ["ULIC"] } },
  overlap: { approvers: ["UGEN"], bySpecialty: { security: ["USEC", "UBOTH"], licensing: ["ULIC", "UBOTH"] } },
  lists_only: { approvers: [], bySpecialty: { security: ["USEC"] } },
};
const BLOCKING: Record<string, Specialty[]> = {
  none: [],
  sec: ["security"],
  lic: ["licensing"],
  "sec+lic": ["security", "licensing"],
};

function request(config: string, blocking: string, by: string, extra: Partial<DecisionRequest> = {}): DecisionRequest {
  return {
    kind: "approve",
    by,
    door: { kind: "slack" },
    review: { id: "r-1", pr: "acme/web#12", status: "waiting_for_human", author: "octocat" },
    blockingSpecialties: BLOCKING[blocking] ?? [],
    budget: { cyclesUsed: 0, cyclesMax: 2, costUsd: 0, maxCostUsd: 1 },
    gatePending: true,
    approvers: CONFIGS[config] ?? { approvers: [] },
    ...extra,
  };
}

/** What an Approve does: "complete", "partial:<covers>", or "refused". */
function approveOutcome(req: DecisionRequest): string {
  if (decisionRefusal(req)) return "refused";
  const plan = planApproval(req, { kind: "approve", by: req.by }, AT);
  return plan.kind === "complete" ? "complete" : `partial:${plan.approval.covers.join("+")}`;
}

// Every configuration × blocking specialties × person, for an Approve with nothing approved yet.
// Columns: UGEN (general list), USEC (security list), ULIC (licensing list), UBOTH (both specialty lists), U9 (no list).
const PEOPLE = ["UGEN", "USEC", "ULIC", "UBOTH", "U9"] as const;
const APPROVE_TABLE: Record<string, Record<string, string[]>> = {
  general: {
    none: ["complete", "refused", "refused", "refused", "refused"],
    sec: ["complete", "refused", "refused", "refused", "refused"],
    lic: ["complete", "refused", "refused", "refused", "refused"],
    "sec+lic": ["complete", "refused", "refused", "refused", "refused"],
  },
  security: {
    none: ["complete", "refused", "refused", "refused", "refused"],
    sec: ["refused", "complete", "refused", "refused", "refused"],
    lic: ["complete", "refused", "refused", "refused", "refused"],
    // The case: the security approver covers security only; licensing needs a general approver.
    "sec+lic": ["partial:licensing", "partial:security", "refused", "refused", "refused"],
  },
  both: {
    none: ["complete", "refused", "refused", "refused", "refused"],
    sec: ["refused", "complete", "refused", "refused", "refused"],
    lic: ["refused", "refused", "complete", "refused", "refused"],
    "sec+lic": ["refused", "partial:security", "partial:licensing", "refused", "refused"],
  },
  overlap: {
    none: ["complete", "refused", "refused", "refused", "refused"],
    sec: ["refused", "complete", "refused", "complete", "refused"],
    lic: ["refused", "refused", "complete", "complete", "refused"],
    "sec+lic": ["refused", "partial:security", "partial:licensing", "complete", "refused"],
  },
  lists_only: {
    none: ["refused", "refused", "refused", "refused", "refused"],
    sec: ["refused", "complete", "refused", "refused", "refused"],
    lic: ["refused", "refused", "refused", "refused", "refused"],
    // Licensing needs the general approvers, and there are none: nobody can complete it, so nobody approves.
    "sec+lic": ["refused", "refused", "refused", "refused", "refused"],
  },
};

// A Reject (or a question) from anyone entitled to decide any blocking specialty.
const REJECT_TABLE: Record<string, Record<string, boolean[]>> = {
  general: { none: [true, false, false, false, false], "sec+lic": [true, false, false, false, false] },
  security: {
    none: [true, false, false, false, false],
    sec: [false, true, false, false, false],
    lic: [true, false, false, false, false],
    "sec+lic": [true, true, false, false, false],
  },
  both: { "sec+lic": [false, true, true, false, false] },
  overlap: { "sec+lic": [false, true, true, true, false] },
  lists_only: { none: [false, false, false, false, false], "sec+lic": [false, true, false, false, false] },
};

describe("approvals per specialty: every configuration, blocking set and person", () => {
  for (const [config, byBlocking] of Object.entries(APPROVE_TABLE))
    for (const [blocking, expected] of Object.entries(byBlocking))
      it(`approve · ${config} lists · blocking ${blocking}`, () => {
        expect(PEOPLE.map((by) => approveOutcome(request(config, blocking, by)))).toEqual(expected);
      });

  for (const [config, byBlocking] of Object.entries(REJECT_TABLE))
    for (const [blocking, expected] of Object.entries(byBlocking))
      it(`reject and info · ${config} lists · blocking ${blocking}`, () => {
        for (const kind of ["reject", "info"] as const)
          expect(PEOPLE.map((by) => decisionRefusal(request(config, blocking, by, { kind })) === undefined)).toEqual(
            expected,
          );
      });

  it("a member of a listed group approves for that list", () => {
    const door: DecisionDoor = { kind: "slack", groups: ["SSEC"] };
    expect(approveOutcome(request("security", "sec", "U5", { door }))).toBe("complete");
    expect(approveOutcome(request("security", "sec+lic", "U5", { door }))).toBe("partial:security");
  });
});

describe("approvals per specialty: after a first approval", () => {
  const bySec: Approval = { by: "USEC", at: AT, covers: ["security"] };
  const byGen: Approval = { by: "UGEN", at: AT, covers: ["licensing"] };

  it("the open specialty's approver completes it, and the resume carries both approvals in order", () => {
    const req = request("security", "sec+lic", "UGEN", { approvals: [bySec] });
    expect(decisionRefusal(req)).toBeUndefined();
    expect(planApproval(req, { kind: "approve", by: "UGEN", note: "ok" }, AT)).toEqual({
      kind: "complete",
      resume: {
        kind: "approve",
        by: "UGEN",
        note: "ok",
        approvals: [bySec, { by: "UGEN", at: AT, covers: ["licensing"], note: "ok" }],
      },
    });
    expect(approveOutcome(request("security", "sec+lic", "USEC", { approvals: [byGen] }))).toBe("complete");
  });

  it("the same specialty's approver again is refused, saying what is still needed; others are refused as before", () => {
    const refusal = decisionRefusal(request("security", "sec+lic", "USEC", { approvals: [bySec] }));
    expect(refusal).toMatchObject({ code: "not_allowed" });
    expect(refusal?.code === "not_allowed" && refusal.why).toBe(
      "what you may approve is approved already; it still waits for licensing (the general approvers)",
    );
    expect(approveOutcome(request("security", "sec+lic", "ULIC", { approvals: [bySec] }))).toBe("refused");
    // A reject is still open to either.
    expect(
      decisionRefusal(request("security", "sec+lic", "USEC", { kind: "reject", approvals: [bySec] })),
    ).toBeUndefined();
  });

  it("with three lists, the second approval of three keeps it waiting", () => {
    const three: ApproverConfig = { approvers: ["UGEN"], bySpecialty: { security: ["USEC"], data: ["UDATA"] } };
    const base = { approvers: three, blockingSpecialties: ["security", "licensing", "data"] as Specialty[] };
    const req = request("security", "sec+lic", "UDATA", { ...base, approvals: [bySec] });
    expect(approveOutcome(req)).toBe("partial:data");
    expect(
      approveOutcome(
        request("security", "sec", "UGEN", {
          ...base,
          approvals: [bySec, { ...bySec, by: "UDATA", covers: ["data"] }],
        }),
      ),
    ).toBe("complete");
  });

  it("the CLI with no approver configured: --by completes it alone", () => {
    const req = request("none", "sec+lic", "alice", { door: { kind: "cli" }, approvers: { approvers: [] } });
    expect(approveOutcome(req)).toBe("complete");
  });
});

describe("who the lists name", () => {
  it("one need per blocking specialty: its own list, else the general approvers", () => {
    expect(neededApprovals(CONFIGS.security ?? { approvers: [] }, ["licensing", "security"])).toEqual([
      { covers: "security", from: "security", ids: ["USEC", "SSEC"] },
      { covers: "licensing", from: "general", ids: ["UGEN"] },
    ]);
    expect(neededApprovals({ approvers: ["UGEN"] }, [])).toEqual([
      { covers: "general", from: "general", ids: ["UGEN"] },
    ]);
    expect(deciderLists(CONFIGS.security ?? { approvers: [] }, ["security", "licensing"])).toEqual([
      { specialty: "security", ids: ["USEC", "SSEC"] },
      { specialty: "licensing", ids: ["UGEN"] },
    ]);
    expect(deciderLists({ approvers: [] }, [])).toEqual([]);
  });
});
