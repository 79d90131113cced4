import { webApi } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProfileCache, slackUserIsGitHubUser } from "../../src/slack/author-profile.js";
import { startFakeSlackApi, type FakeSlackApi } from "../fakes/slack-api.js";

let slack: FakeSlackApi;
let client: webApi.WebClient;
beforeAll(async () => {
  slack = await startFakeSlackApi();
  client = new webApi.WebClient("xoxb-test", { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});
afterAll(() => slack.close());

describe("slackUserIsGitHubUser", () => {
  it.each([
    [{ fields: { F1: { value: "octocat", alt: "" } } }, true],
    [{ fields: { F1: { value: "@OctoCat", alt: "" } } }, true],
    [{ fields: { F1: { value: "https://github.com/octocat/", alt: "" } } }, true],
    [{ display_name: "octocat" }, true],
    [{ fields: { F1: { value: "https://github.com/octocat-fan", alt: "" } } }, false],
    [{ display_name: "octo", real_name: "Octo Cat" }, false],
    [{}, false],
  ])("profile %j → %s", async (profile, expected) => {
    const user = `U${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
    slack.profiles.set(user, profile);
    expect(await slackUserIsGitHubUser(client, user, "octocat", new ProfileCache())).toBe(expected);
  });

  it("asks Slack once per user within the cache's lifetime", async () => {
    slack.profiles.set("UCACHED", { display_name: "octocat" });
    const cache = new ProfileCache();
    const before = slack.callsTo("users.profile.get").length;
    await slackUserIsGitHubUser(client, "UCACHED", "octocat", cache);
    await slackUserIsGitHubUser(client, "UCACHED", "octocat", cache);
    expect(slack.callsTo("users.profile.get").length - before).toBe(1);
  });

  it("a failed lookup answers false and reports the error", async () => {
    slack.on("users.profile.get", () => ({ ok: false, error: "missing_scope" }));
    const errors: unknown[] = [];
    expect(await slackUserIsGitHubUser(client, "UERR", "octocat", new ProfileCache(), (e) => errors.push(e))).toBe(
      false,
    );
    expect(errors).toHaveLength(1);
  });
});
