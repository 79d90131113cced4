import { webApi } from "@slack/bolt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserGroupCache, groupsOf, resolveUserGroups } from "../../src/slack/user-groups.js";
import { startFakeSlackApi, type FakeSlackApi } from "../fakes/slack-api.js";

let fake: FakeSlackApi;
let client: webApi.WebClient;

beforeEach(async () => {
  fake = await startFakeSlackApi();
  fake.userGroups.set("SLEADS", ["U1", "U2"]);
  client = new webApi.WebClient("xoxb-test", { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
});
afterEach(async () => {
  await fake.close();
});

describe("resolveUserGroups", () => {
  it("reads members once and serves them from the cache until it expires", async () => {
    let now = 0;
    const cache = new UserGroupCache(1000, () => now);
    const first = await resolveUserGroups(client, ["SLEADS"], cache);
    await resolveUserGroups(client, ["SLEADS"], cache);
    expect(first.get("SLEADS")).toEqual(["U1", "U2"]);
    expect(fake.callsTo("usergroups.users.list")).toHaveLength(1);
    now = 1500;
    await resolveUserGroups(client, ["SLEADS"], cache);
    expect(fake.callsTo("usergroups.users.list")).toHaveLength(2);
  });

  it("counts an unreadable group as empty and reports it", async () => {
    const errors: string[] = [];
    const members = await resolveUserGroups(client, ["SGONE", "SLEADS"], new UserGroupCache(), (g) => errors.push(g));
    expect(members.get("SGONE")).toEqual([]);
    expect(errors).toEqual(["SGONE"]);
    expect(groupsOf("U2", members)).toEqual(["SLEADS"]);
    expect(groupsOf("U9", members)).toEqual([]);
  });
});
