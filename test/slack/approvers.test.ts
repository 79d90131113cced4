import { describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { groupIdsIn, parseApprovers, parseApproversBySpecialty } from "../../src/slack/approvers.js";

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
