import { describe, expect, it } from "vitest";
import { groupIdsIn } from "../../src/slack/who-to-ask.js";

describe("groupIdsIn", () => {
  it("lists the groups a config names", () => {
    expect(groupIdsIn({ approvers: ["U1", "S1"], bySpecialty: { data: ["S2", "S1"] } })).toEqual(["S1", "S2"]);
  });
});
