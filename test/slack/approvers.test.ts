import { describe, expect, it } from "vitest";
import type { Specialty } from "../../src/domain/finding.js";
import { GateError } from "../../src/domain/errors.js";
import { groupIdsIn, mayDecide, parseApprovers, parseApproversBySpecialty, type ApproverConfig } from "../../src/slack/approvers.js";

const base: ApproverConfig = { approvers: ["U1", "SLEADS"], githubToSlack: { octocat: "UAUTHOR" } };
const withSecurity: ApproverConfig = { ...base, bySpecialty: { security: ["USEC", "SSEC"] } };
const withTwo: ApproverConfig = { ...base, bySpecialty: { security: ["USEC", "UBOTH"], licensing: ["ULIC", "UBOTH"] } };

const rows: {
  name: string;
  userId: string;
  groups?: string[];
  blocking?: Specialty[];
  author?: string;
  config: ApproverConfig;
  ok: boolean;
  why?: RegExp;
}[] = [
  { name: "listed user", userId: "U1", config: base, ok: true },
  { name: "member of a listed group", userId: "U7", groups: ["SLEADS"], config: base, ok: true },
  { name: "not listed", userId: "U9", config: base, ok: false, why: /not among the configured approvers/ },
  { name: "the PR author, even if listed", userId: "U1", author: "U1", config: base, ok: false, why: /author can never decide/ },
  { name: "empty config fails closed", userId: "U1", config: { approvers: [] }, ok: false, why: /no approvers are configured.*nobody may decide/ },
  { name: "security list applies to a blocking security finding", userId: "USEC", blocking: ["security"], config: withSecurity, ok: true },
  { name: "general approver refused when the security list applies", userId: "U1", blocking: ["security"], config: withSecurity, ok: false, why: /not among the security approvers/ },
  { name: "member of the security group", userId: "U5", groups: ["SSEC"], blocking: ["security"], config: withSecurity, ok: true },
  { name: "security list ignored without a blocking security finding", userId: "U1", blocking: ["data"], config: withSecurity, ok: true },
  { name: "security list ignored for a non-approver without blocking", userId: "USEC", blocking: [], config: withSecurity, ok: false },
  { name: "two specialties: must be in both lists", userId: "USEC", blocking: ["security", "licensing"], config: withTwo, ok: false, why: /licensing/ },
  { name: "two specialties: in both lists", userId: "UBOTH", blocking: ["security", "licensing"], config: withTwo, ok: true },
  { name: "specialty lists only, no general list, not applicable", userId: "USEC", blocking: ["data"], config: { approvers: [], bySpecialty: { security: ["USEC"] } }, ok: false, why: /nobody may decide/ },
];

describe("mayDecide", () => {
  for (const row of rows) {
    it(row.name, () => {
      const verdict = mayDecide({
        userId: row.userId,
        userGroupIds: row.groups ?? [],
        blockingSpecialties: row.blocking ?? [],
        ...(row.author ? { prAuthorSlackId: row.author } : {}),
        config: row.config,
      });
      expect(verdict.ok).toBe(row.ok);
      if (!verdict.ok && row.why) expect(verdict.why).toMatch(row.why);
    });
  }
});

describe("parsing approver settings", () => {
  it("parses a list of user and group ids", () => {
    expect(parseApprovers(" U123, S456 ,U123")).toEqual(["U123", "S456"]);
    expect(parseApprovers("")).toEqual([]);
    expect(parseApprovers(undefined)).toEqual([]);
  });

  it("refuses anything that is not a Slack id", () => {
    expect(() => parseApprovers("U1,@alice")).toThrow(GateError);
    expect(() => parseApprovers("C123")).toThrow(/not a Slack user id/);
  });

  it("parses per-specialty lists", () => {
    expect(parseApproversBySpecialty("security=U1,S2;licensing=U3")).toEqual({ security: ["U1", "S2"], licensing: ["U3"] });
    expect(parseApproversBySpecialty("")).toEqual({});
    expect(() => parseApproversBySpecialty("legal=U1")).toThrow(/security\|licensing\|data/);
    expect(() => parseApproversBySpecialty("security")).toThrow(GateError);
  });

  it("lists the groups a config names", () => {
    expect(groupIdsIn({ approvers: ["U1", "S1"], bySpecialty: { data: ["S2", "S1"] } })).toEqual(["S1", "S2"]);
  });
});
