import { describe, expect, it } from "vitest";
import { groupIdsIn, groupIdsToRead } from "../../src/slack/who-to-ask.js";

describe("groupIdsIn", () => {
  it("lists the groups a config names", () => {
    expect(groupIdsIn({ approvers: ["U1", "S1"], bySpecialty: { data: ["S2", "S1"] } })).toEqual(["S1", "S2"]);
  });
});

describe("groupIdsToRead (the groups a click must ask Slack about)", () => {
  const config = { approvers: ["U1", "S1"], bySpecialty: { security: ["U1", "S2"], licensing: ["S3", "S1"] } };

  it.each([
    ["listed by id on every list naming a group: none", { approvers: ["U1", "S1"] }, "U1", []],
    ["listed by id on no list: every group", config, "U9", ["S1", "S2", "S3"]],
    ["listed by id on some lists: the groups of the others only", config, "U1", ["S3", "S1"]],
    ["no groups configured: none", { approvers: ["U1", "U2"] }, "U9", []],
  ])("%s", (_, approvers, userId, expected) => {
    expect(groupIdsToRead(approvers, userId)).toEqual(expected);
  });
});
