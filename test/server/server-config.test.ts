import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadServerConfig, parseLoginMap } from "../../src/server/server-config.js";
import { tempDir } from "../helpers/gate.js";

const base = {
  GITHUB_WEBHOOK_SECRET: "s3cret",
  GITHUB_TOKEN: "ghp_x",
  SLACK_BOT_TOKEN: "xoxb-1",
  SLACK_SIGNING_SECRET: "sig",
  GATE_SLACK_CHANNEL: "C123",
  GATE_APPROVERS: "U1,S2",
};
const failure = (env: Record<string, string>) => {
  try {
    loadServerConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  return "";
};

describe("loadServerConfig", () => {
  it("reads a token setup with Slack in HTTP mode", () => {
    const c = loadServerConfig(base);
    expect(c.github).toEqual({ token: "ghp_x" });
    expect(c.slack).toMatchObject({ enabled: true, socketMode: false, channel: "C123" });
    expect(c.port).toBe(3000);
    expect(c.concurrency).toBe(2);
  });

  it("reads a GitHub App from a key file, with GHES", () => {
    const file = path.join(tempDir(), "app.pem");
    fs.writeFileSync(file, "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n");
    const { GITHUB_TOKEN: _t, ...rest } = base;
    const c = loadServerConfig({ ...rest, GATE_GITHUB_APP_ID: "42", GATE_GITHUB_PRIVATE_KEY_PATH: file, GATE_GITHUB_API_URL: "https://ghe.acme.test/api/v3" });
    expect(c.github).toMatchObject({ appId: "42", apiUrl: "https://ghe.acme.test/api/v3" });
    expect(c.github.privateKey).toContain("BEGIN PRIVATE KEY");
  });

  it.each([
    ["no webhook secret", { GITHUB_WEBHOOK_SECRET: "" }, /GITHUB_WEBHOOK_SECRET/],
    ["no GitHub credentials", { GITHUB_TOKEN: "" }, /GITHUB_TOKEN/],
    ["a token and an App", { GATE_GITHUB_APP_ID: "1", GATE_GITHUB_PRIVATE_KEY: "k" }, /both set: keep one/],
    ["half an App", { GITHUB_TOKEN: "", GATE_GITHUB_APP_ID: "1" }, /needs both GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY/],
    ["a non-numeric App id", { GITHUB_TOKEN: "", GATE_GITHUB_APP_ID: "abc", GATE_GITHUB_PRIVATE_KEY: "k" }, /GATE_GITHUB_APP_ID/],
    ["a bad port", { PORT: "99999" }, /PORT/],
    ["a bad default repo", { GATE_DEFAULT_REPO: "nope" }, /GATE_DEFAULT_REPO/],
  ])("fails at start on %s, naming the variable", (_name, over, pattern) => {
    expect(failure({ ...base, ...over })).toMatch(pattern);
  });

  it("lists every missing Slack setting and points at the demo and GATE_SLACK=off", () => {
    const message = failure({ GITHUB_WEBHOOK_SECRET: "s", GITHUB_TOKEN: "t" });
    for (const v of ["SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "GATE_SLACK_CHANNEL", "GATE_APPROVERS", "GATE_SLACK=off", "npm run demo"]) {
      expect(message).toContain(v);
    }
  });

  it("runs without Slack when GATE_SLACK=off, and in Socket Mode with an app token", () => {
    expect(loadServerConfig({ GITHUB_WEBHOOK_SECRET: "s", GITHUB_TOKEN: "t", GATE_SLACK: "off" }).slack).toEqual({ enabled: false });
    const { SLACK_SIGNING_SECRET: _s, ...noSecret } = base;
    expect(loadServerConfig({ ...noSecret, SLACK_APP_TOKEN: "xapp-1" }).slack).toMatchObject({ enabled: true, socketMode: true });
  });

  it("parses the GitHub → Slack author map and refuses a malformed one", () => {
    expect(parseLoginMap("octocat=U1, dana=W2")).toEqual({ octocat: "U1", dana: "W2" });
    expect(() => parseLoginMap("octocat")).toThrow(/GATE_GITHUB_TO_SLACK/);
  });
});
