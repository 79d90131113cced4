import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL } from "../../src/claude/settings.js";
import { GateError } from "../../src/domain/errors.js";
import { BUNDLED_POLICIES_DIR } from "../../src/package-paths.js";
import { loadSettings, serverSettings, SETTING_NAMES } from "../../src/settings/index.js";
import { tempDir } from "../helpers/gate.js";

/** The message `loadSettings` fails with, or "" when it does not. */
const failure = (
  env: Record<string, string>,
  load: (env: Record<string, string>) => unknown = (e) => loadSettings(e),
) => {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(GateError);
    expect((error as GateError).code).toBe("CONFIG_INVALID");
    return (error as Error).message;
  }
  return "";
};

describe("loadSettings", () => {
  it("has the README's defaults, with paths resolved against the working directory", () => {
    const s = loadSettings({}, "/srv/gate");
    expect(s.database).toEqual({ kind: "sqlite", path: path.resolve("/srv/gate", ".gate/gate.db") });
    expect(s.dataDir).toBe(path.resolve("/srv/gate", ".gate"));
    expect(s.policiesDir).toBe(BUNDLED_POLICIES_DIR);
    expect(s.logLevel).toBeUndefined();
    expect(s.review).toEqual({ riskThreshold: 30, specialistTimeoutMs: 60_000, maxCycles: 2, maxCostUsd: 1 });
    expect(s.investigator).toEqual({ maxTurns: 8, maxToolCalls: 24, maxFileChars: 200_000, timeoutMs: 120_000 });
    expect(s.snapshot.maxBytes).toBe(209_715_200);
    expect(s.licenses).toEqual({});
    expect(s.advisories).toEqual({ cacheTtlMs: 6 * 3_600_000 });
    expect(s.claude.apiKey).toBeUndefined();
    expect(s.github).toEqual({
      reviewDrafts: false,
      prComment: true,
      protectedBranches: [],
      webUrl: "https://github.com",
    });
    expect(s.slack).toMatchObject({ enabled: true, channels: { byRepo: {} } });
    expect(s.approvers).toEqual({ approvers: [], bySpecialty: {}, githubToSlack: {} });
    expect(s.server).toEqual({ port: 3000, concurrency: 2 });
    expect(s.cli).toEqual({});
  });

  it("reads each value into its typed place", () => {
    const s = loadSettings(
      {
        GATE_DB: ":memory:",
        GATE_POLICIES_DIR: "corpus",
        GATE_LOG_LEVEL: "debug",
        GATE_MAX_CYCLES: "0",
        GATE_MAX_COST_USD: "0.25",
        GATE_INVESTIGATOR_MAX_TURNS: "3",
        GATE_NPM_REGISTRY_URL: "http://127.0.0.1:4873",
        GATE_OSV_URL: "http://127.0.0.1:8090",
        GATE_OSV_DIR: "osv",
        GATE_OSV_CACHE_TTL: "30m",
        GATE_MAX_ANSWER_BYTES: "1048576",
        GATE_MAX_FILE_LINES: "5000",
        GATE_REVIEW_DRAFTS: "yes",
        GATE_PR_COMMENT: "off",
        PORT: "0",
        USER: "alice",
      },
      "/srv/gate",
    );
    expect(s.database).toEqual({ kind: "sqlite", path: ":memory:" });
    expect(s.policiesDir).toBe("/srv/gate/corpus");
    expect(s.logLevel).toBe("debug");
    expect(s.review.maxCycles).toBe(0);
    expect(s.review.maxCostUsd).toBe(0.25);
    expect(s.investigator.maxTurns).toBe(3);
    expect(s.licenses).toEqual({ npmRegistryUrl: "http://127.0.0.1:4873" });
    expect(s.advisories).toEqual({ osvUrl: "http://127.0.0.1:8090", osvDir: "/srv/gate/osv", cacheTtlMs: 1_800_000 });
    // GATE_MAX_FILE_BYTES keeps its default.
    expect(s.caps).toEqual({ answerBytes: 1_048_576, fileLines: 5000, fileBytes: 8 * 1024 * 1024 });
    expect(() => loadSettings({ GATE_MAX_ANSWER_BYTES: "10" })).toThrow(/GATE_MAX_ANSWER_BYTES/);
    expect(s.github.reviewDrafts).toBe(true);
    expect(s.github.prComment).toBe(false);
    expect(() => loadSettings({ GATE_PR_COMMENT: "sometimes" })).toThrow(/GATE_PR_COMMENT/);
    expect(s.server.port).toBe(0);
    expect(s.cli.user).toBe("alice");
  });

  it("treats a blank variable as unset, so its default applies", () => {
    const s = loadSettings({ GATE_MAX_CYCLES: "", GATE_MODEL_THINKING: "  ", GITHUB_TOKEN: "", GATE_SLACK: "" });
    expect(s.review.maxCycles).toBe(2);
    expect(s.claude.model.thinking).toEqual({ type: "off" });
    expect(s.github.auth).toBeUndefined();
    expect(s.slack.enabled).toBe(true);
  });

  it("reads GATE_DATABASE_URL as PostgreSQL (GATE_DB then unused), and refuses any other scheme", () => {
    for (const url of ["postgres://gate:pw@db:5432/gate", "postgresql://db/gate?sslmode=require"])
      expect(loadSettings({ GATE_DATABASE_URL: url, GATE_DB: "x.db" }).database).toEqual({ kind: "postgres", url });
    for (const url of ["mysql://db/gate", "db:5432/gate", "postgres://"])
      expect(failure({ GATE_DATABASE_URL: url })).toMatch(/GATE_DATABASE_URL: must be a PostgreSQL URL/);
  });

  it("names every bad variable in one error", () => {
    const message = failure({
      GATE_RISK_THRESHOLD: "101",
      GATE_MAX_COST_USD: "free",
      PORT: "99999",
      GATE_LOG_LEVEL: "loud",
      GATE_PYPI_URL: "pypi.org",
    });
    for (const name of ["GATE_RISK_THRESHOLD", "GATE_MAX_COST_USD", "PORT", "GATE_LOG_LEVEL", "GATE_PYPI_URL"])
      expect(message).toContain(name);
  });

  it("lists every variable its schemas read", () => {
    expect(SETTING_NAMES).toContain("GATE_DB");
    expect(SETTING_NAMES).toContain("GATE_APPROVERS_BY_SPECIALTY");
    expect(SETTING_NAMES).toContain("ANTHROPIC_API_KEY");
    expect(new Set(SETTING_NAMES).size).toBe(SETTING_NAMES.length);
  });
});

describe("Claude settings", () => {
  it("have defaults", () => {
    const m = loadSettings({}).claude.model;
    expect(m.specialistModel).toBe(DEFAULT_MODEL);
    expect(m.investigatorModel).toBe(DEFAULT_MODEL);
    expect(m.thinking).toEqual({ type: "off" });
    expect(m.maxInputTokens).toBe(60000);
    expect(m.maxTokens).toBe(8192);
    expect(m.prices[DEFAULT_MODEL]?.output).toBe(10);
    expect(m.effort).toBeUndefined();
  });

  it("read the key and the gateway", () => {
    expect(
      loadSettings({ ANTHROPIC_API_KEY: "sk-ant-x", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" }).claude,
    ).toMatchObject({ apiKey: "sk-ant-x", baseURL: "http://127.0.0.1:9" });
  });

  it("read thinking as off, on, on:<budget>, <budget> or adaptive", () => {
    const older = { GATE_MODEL_SPECIALIST: "claude-sonnet-4-6", GATE_MODEL_INVESTIGATOR: "claude-sonnet-4-6" };
    const thinking = (v: string) => loadSettings({ ...older, GATE_MODEL_THINKING: v }).claude.model.thinking;
    expect(thinking("on")).toEqual({ type: "enabled", budgetTokens: 4096 });
    expect(thinking("on:2048")).toEqual({ type: "enabled", budgetTokens: 2048 });
    expect(thinking("3000")).toEqual({ type: "enabled", budgetTokens: 3000 });
    expect(loadSettings({ GATE_MODEL_THINKING: "Adaptive" }).claude.model.thinking).toEqual({ type: "adaptive" });
    expect(thinking("false")).toEqual({ type: "off" });
  });

  it("refuse at start what a configured model would refuse with a 400, naming the model and the setting", () => {
    const model = (env: Record<string, string>) => loadSettings(env).claude.model;
    // Claude 5.x takes no thinking budget.
    expect(failure({ GATE_MODEL_THINKING: "on:2048" })).toMatch(
      /claude-sonnet-5-5 refuses a thinking budget.*GATE_MODEL_SPECIALIST/,
    );
    // Opus 5.5 cannot stop thinking, so "off" cannot be honoured.
    expect(failure({ GATE_MODEL_INVESTIGATOR: "claude-opus-5-5" })).toMatch(
      /claude-opus-5-5 always thinks.*GATE_MODEL_INVESTIGATOR/,
    );
    expect(
      model({ GATE_MODEL_INVESTIGATOR: "claude-opus-5-5", GATE_MODEL_THINKING: "adaptive", GATE_MODEL_EFFORT: "low" })
        .effort,
    ).toBe("low");
    // Opus 5 turns thinking off only up to effort high.
    const opus5 = { GATE_MODEL_SPECIALIST: "claude-opus-5", GATE_MODEL_INVESTIGATOR: "claude-opus-5" };
    expect(failure({ ...opus5, GATE_MODEL_EFFORT: "max" })).toMatch(/effort max/);
    expect(model({ ...opus5, GATE_MODEL_EFFORT: "high" }).thinking).toEqual({ type: "off" });
    // 4.5 models have no adaptive thinking.
    expect(failure({ GATE_MODEL_SPECIALIST: "claude-haiku-4-5", GATE_MODEL_THINKING: "adaptive" })).toMatch(
      /no adaptive thinking/,
    );
    // An unknown model is left to the API.
    expect(model({ GATE_MODEL_SPECIALIST: "claude-future-9", GATE_MODEL_THINKING: "adaptive" }).specialistModel).toBe(
      "claude-future-9",
    );
  });

  it("read GATE_MODEL_EFFORT and refuse an unknown level", () => {
    expect(loadSettings({ GATE_MODEL_EFFORT: " Medium " }).claude.model.effort).toBe("medium");
    expect(loadSettings({ GATE_MODEL_EFFORT: "" }).claude.model.effort).toBeUndefined();
    expect(failure({ GATE_MODEL_EFFORT: "extreme" })).toMatch(/GATE_MODEL_EFFORT/);
  });

  it("refuse a thinking budget at or above max_tokens, or a made-up value, naming the variable", () => {
    expect(
      failure({
        GATE_MODEL_SPECIALIST: "claude-sonnet-4-6",
        GATE_MODEL_INVESTIGATOR: "claude-sonnet-4-6",
        GATE_MODEL_THINKING: "on:9000",
        GATE_MODEL_MAX_TOKENS: "8192",
      }),
    ).toMatch(/GATE_MODEL_THINKING: the thinking budget \(9000\)/);
    expect(failure({ GATE_MODEL_THINKING: "lots" })).toMatch(/GATE_MODEL_THINKING/);
  });

  it("merge GATE_PRICES over the defaults and reject a bad table", () => {
    const m = loadSettings({
      GATE_PRICES: '{"my-model": {"input": 1, "output": 2, "cache_write": 1.25, "cache_read": 0.1}}',
    }).claude.model;
    expect(m.prices["my-model"]?.output).toBe(2);
    expect(m.prices[DEFAULT_MODEL]).toBeDefined();
    expect(failure({ GATE_PRICES: "{not json" })).toMatch(/GATE_PRICES: is not JSON/);
    expect(failure({ GATE_PRICES: '{"m": {"input": -1, "output": 2, "cache_write": 0, "cache_read": 0}}' })).toMatch(
      /GATE_PRICES/,
    );
  });

  it("reject a non-numeric token limit", () => {
    expect(failure({ GATE_MAX_INPUT_TOKENS: "lots" })).toMatch(/GATE_MAX_INPUT_TOKENS/);
  });
});

describe("GitHub settings", () => {
  it("read a token, or a GitHub App from a key file, with GHES", () => {
    expect(loadSettings({ GITHUB_TOKEN: "ghp_x" }).github.auth).toEqual({ token: "ghp_x" });
    const file = path.join(tempDir(), "app.pem");
    fs.writeFileSync(file, "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n");
    const auth = loadSettings({
      GATE_GITHUB_APP_ID: "42",
      GATE_GITHUB_PRIVATE_KEY_PATH: file,
      GATE_GITHUB_API_URL: "https://ghe.acme.test/api/v3",
    }).github.auth;
    expect(auth).toMatchObject({ appId: "42", apiUrl: "https://ghe.acme.test/api/v3" });
    expect(auth?.privateKey).toContain("BEGIN PRIVATE KEY");
  });

  it.each([
    [
      "a token and an App",
      { GITHUB_TOKEN: "t", GATE_GITHUB_APP_ID: "1", GATE_GITHUB_PRIVATE_KEY: "k" },
      /GITHUB_TOKEN: a GitHub App is set too/,
    ],
    ["half an App", { GATE_GITHUB_APP_ID: "1" }, /needs both GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY/],
    ["a key without an id", { GATE_GITHUB_PRIVATE_KEY: "k" }, /GATE_GITHUB_APP_ID: a GitHub App needs both/],
    [
      "a non-numeric App id",
      { GATE_GITHUB_APP_ID: "abc", GATE_GITHUB_PRIVATE_KEY: "k" },
      /GATE_GITHUB_APP_ID: must be the App's numeric id/,
    ],
    [
      "both a key and a key file",
      { GATE_GITHUB_APP_ID: "1", GATE_GITHUB_PRIVATE_KEY: "k", GATE_GITHUB_PRIVATE_KEY_PATH: "/nonexistent" },
      /GATE_GITHUB_PRIVATE_KEY is set too/,
    ],
    [
      "an unreadable key file",
      { GATE_GITHUB_APP_ID: "1", GATE_GITHUB_PRIVATE_KEY_PATH: "/nonexistent/app.pem" },
      /GATE_GITHUB_PRIVATE_KEY_PATH: cannot read/,
    ],
    ["a non-URL API root", { GATE_GITHUB_API_URL: "ghe.acme.test" }, /GATE_GITHUB_API_URL: must be an http\(s\) URL/],
    [
      "a protected branch written as a ref",
      { GATE_PROTECTED_BRANCHES: "main,refs/heads/release" },
      /GATE_PROTECTED_BRANCHES: must be branch names separated by commas/,
    ],
    [
      "a protected branch with a space",
      { GATE_PROTECTED_BRANCHES: "release 1" },
      /GATE_PROTECTED_BRANCHES: must be branch names separated by commas/,
    ],
  ])("fail on %s, naming the variable", (_name, env, pattern) => {
    expect(failure(env)).toMatch(pattern);
  });

  it("read GATE_PROTECTED_BRANCHES as a list of branch names, blanks and repeats dropped", () => {
    expect(
      loadSettings({ GATE_PROTECTED_BRANCHES: " release, hotfix/2026 ,,release" }).github.protectedBranches,
    ).toEqual(["release", "hotfix/2026"]);
  });
});

describe("Slack settings", () => {
  it("parse approvers, per-specialty approvers and the author map into lists and maps", () => {
    const all = loadSettings({
      GATE_APPROVERS: " U123, S456 ,U123",
      GATE_APPROVERS_BY_SPECIALTY: "security=U1,S2;licensing=U3;security=U4",
      GATE_GITHUB_TO_SLACK: "octocat=U1, dana=W2",
      SLACK_API_URL: "http://127.0.0.1:9/api",
      GATE_DEFAULT_REPO: "acme/web",
    });
    const s = all.slack;
    expect(all.approvers).toEqual({
      approvers: ["U123", "S456"],
      bySpecialty: { security: ["U1", "S2", "U4"], licensing: ["U3"] },
      githubToSlack: { octocat: "U1", dana: "W2" },
    });
    expect(s.apiUrl).toBe("http://127.0.0.1:9/api/");
    expect(s.defaultRepo).toBe("acme/web");
  });

  it.each([
    ["a name in the approvers", { GATE_APPROVERS: "U1,@alice" }, /GATE_APPROVERS: "@alice" is not a Slack user id/],
    ["a channel among the approvers", { GATE_APPROVERS: "C123" }, /GATE_APPROVERS: "C123" is not a Slack user id/],
    [
      "an unknown specialty",
      { GATE_APPROVERS_BY_SPECIALTY: "legal=U1" },
      /GATE_APPROVERS_BY_SPECIALTY: "legal=U1" should be <security\|licensing\|data>=<ids>/,
    ],
    ["a specialty without ids", { GATE_APPROVERS_BY_SPECIALTY: "security" }, /GATE_APPROVERS_BY_SPECIALTY/],
    ["a login without an id", { GATE_GITHUB_TO_SLACK: "octocat" }, /GATE_GITHUB_TO_SLACK: "octocat" is not login=U…/],
    ["a group as an author", { GATE_GITHUB_TO_SLACK: "octocat=S1" }, /GATE_GITHUB_TO_SLACK/],
    [
      "a channel map entry without a channel",
      { GATE_SLACK_CHANNELS: "acme/web" },
      /GATE_SLACK_CHANNELS: "acme\/web" should be owner\/repo=<channel id>/,
    ],
    ["a channel map entry without an owner", { GATE_SLACK_CHANNELS: "acme=C1" }, /GATE_SLACK_CHANNELS/],
    ["a channel name instead of an id", { GATE_SLACK_CHANNELS: "acme/web=#general" }, /GATE_SLACK_CHANNELS/],
    [
      "a default channel name",
      { GATE_SLACK_CHANNEL: "general" },
      /GATE_SLACK_CHANNEL: "general" is not a Slack channel id/,
    ],
    ["a default repo that is not owner/repo", { GATE_DEFAULT_REPO: "nope" }, /GATE_DEFAULT_REPO/],
    ["GATE_SLACK neither on nor off", { GATE_SLACK: "maybe" }, /GATE_SLACK/],
  ])("refuse %s, naming the variable", (_name, env, pattern) => {
    expect(failure(env)).toMatch(pattern);
  });
});

describe("serverSettings", () => {
  const base = {
    GITHUB_WEBHOOK_SECRET: "s3cret",
    GITHUB_TOKEN: "ghp_x",
    SLACK_BOT_TOKEN: "xoxb-1",
    SLACK_SIGNING_SECRET: "sig",
    GATE_SLACK_CHANNEL: "C123",
    GATE_APPROVERS: "U1,S2",
  };
  const server = (env: Record<string, string>) => serverSettings(loadSettings(env));

  it("reads a token setup with Slack in HTTP mode", () => {
    const c = server(base);
    expect(c.github).toEqual({ token: "ghp_x" });
    expect(c.webhookSecret).toBe("s3cret");
    expect(c.slack).toMatchObject({
      enabled: true,
      socketMode: false,
      botToken: "xoxb-1",
      channels: { fallback: "C123" },
    });
    expect(c.port).toBe(3000);
    expect(c.concurrency).toBe(2);
  });

  it.each([
    ["no webhook secret", { GITHUB_WEBHOOK_SECRET: "" }, /GITHUB_WEBHOOK_SECRET/],
    ["no GitHub credentials", { GITHUB_TOKEN: "" }, /GITHUB_TOKEN/],
  ])("fails at start on %s, naming the variable", (_name, over, pattern) => {
    expect(failure({ ...base, ...over }, server)).toMatch(pattern);
  });

  it("lists every missing Slack setting and points at the demo and GATE_SLACK=off", () => {
    const message = failure({ GITHUB_WEBHOOK_SECRET: "s", GITHUB_TOKEN: "t" }, server);
    for (const v of [
      "SLACK_BOT_TOKEN",
      "SLACK_SIGNING_SECRET",
      "GATE_SLACK_CHANNEL",
      "GATE_APPROVERS",
      "GATE_SLACK=off",
      "npm run demo",
    ]) {
      expect(message).toContain(v);
    }
  });

  it("runs without Slack when GATE_SLACK=off, and in Socket Mode with an app token", () => {
    expect(server({ GITHUB_WEBHOOK_SECRET: "s", GITHUB_TOKEN: "t", GATE_SLACK: "off" }).slack).toEqual({
      enabled: false,
    });
    const { SLACK_SIGNING_SECRET: _s, ...noSecret } = base;
    expect(server({ ...noSecret, SLACK_APP_TOKEN: "xapp-1" }).slack).toMatchObject({
      enabled: true,
      socketMode: true,
      appToken: "xapp-1",
    });
  });

  it("accepts per-repository channels and per-specialty approvers instead of the single ones", () => {
    const { GATE_SLACK_CHANNEL: _c, GATE_APPROVERS: _a, ...rest } = base;
    const c = server({ ...rest, GATE_SLACK_CHANNELS: "acme/web=C1", GATE_APPROVERS_BY_SPECIALTY: "security=U1" });
    expect(c.slack).toMatchObject({ enabled: true, channels: { byRepo: { "acme/web": "C1" } } });
  });

  it("reads Sign in with Slack's client id and secret, which need each other, GATE_PUBLIC_URL and Slack on", () => {
    const signIn = { GATE_SLACK_CLIENT_ID: "123.456", GATE_SLACK_CLIENT_SECRET: "0123456789abcdef0123" };
    const c = server({ ...base, ...signIn, GATE_PUBLIC_URL: "https://gate.example.com/" });
    expect(c.slack).toMatchObject({
      enabled: true,
      signIn: { clientId: "123.456", clientSecret: signIn.GATE_SLACK_CLIENT_SECRET },
    });
    expect(server(base).slack).not.toHaveProperty("signIn");
    const allowed = server({
      ...base,
      ...signIn,
      GATE_PUBLIC_URL: "https://g.example",
      GATE_SLACK_SIGNIN_ALLOW: "U1, S2",
    });
    expect(allowed.slack).toMatchObject({ signIn: { allow: ["U1", "S2"] } });
    expect(
      failure({ ...base, ...signIn, GATE_PUBLIC_URL: "https://g.example", GATE_SLACK_SIGNIN_ALLOW: "kim" }),
    ).toMatch(/GATE_SLACK_SIGNIN_ALLOW/);
    expect(failure({ ...base, GATE_SLACK_CLIENT_ID: "123.456" }, server)).toMatch(/GATE_SLACK_CLIENT_SECRET/);
    expect(failure({ ...base, GATE_SLACK_CLIENT_SECRET: signIn.GATE_SLACK_CLIENT_SECRET }, server)).toMatch(
      /GATE_SLACK_CLIENT_ID/,
    );
    expect(failure({ ...base, ...signIn, GATE_SLACK_CLIENT_ID: "my-app" }, server)).toMatch(/GATE_SLACK_CLIENT_ID/);
    expect(failure({ ...base, ...signIn }, server)).toMatch(/without GATE_PUBLIC_URL/);
    const off = {
      GITHUB_WEBHOOK_SECRET: "s",
      GITHUB_TOKEN: "t",
      GATE_SLACK: "off",
      GATE_PUBLIC_URL: "https://g.example",
    };
    expect(failure({ ...off, ...signIn }, server)).toMatch(/GATE_SLACK=off/);
  });
});

describe("the Slack surface's settings", () => {
  it("reads reminders as durations and escalation ids, naming a bad one", () => {
    const s = loadSettings({ GATE_REMINDER_AFTER: "4h", GATE_REMINDER_ESCALATE_TO: "S1, U2" }, "/srv");
    expect(s.slack).toMatchObject({ reminderAfterMs: 4 * 3_600_000, escalateTo: ["S1", "U2"] });
    expect(() => loadSettings({ GATE_REMINDER_AFTER: "soon" })).toThrow(/GATE_REMINDER_AFTER/);
    expect(() => loadSettings({ GATE_REMINDER_ESCALATE_TO: "#leads" })).toThrow(/GATE_REMINDER_ESCALATE_TO/);
  });

  it("derives GitHub's web address from a GitHub Enterprise Server API address, or takes it as set", () => {
    expect(loadSettings({ GATE_GITHUB_API_URL: "https://ghe.acme.io/api/v3" }).github.webUrl).toBe(
      "https://ghe.acme.io",
    );
    expect(loadSettings({ GATE_GITHUB_API_URL: "https://api.github.com" }).github.webUrl).toBe("https://github.com");
    expect(
      loadSettings({ GATE_GITHUB_API_URL: "https://ghe.acme.io/api/v3", GATE_GITHUB_WEB_URL: "https://code.acme.io/" })
        .github.webUrl,
    ).toBe("https://code.acme.io");
  });
});

describe("the job queue's settings (PostgreSQL)", () => {
  it("leases for 60 s under this host's name and pid by default; GATE_JOB_LEASE and GATE_REPLICA_ID set them", () => {
    expect(loadSettings({}).jobs).toEqual({ leaseMs: 60_000, replicaId: `${os.hostname()}-${process.pid}` });
    expect(loadSettings({ GATE_JOB_LEASE: "2m", GATE_REPLICA_ID: "gate-a" }).jobs).toEqual({
      leaseMs: 120_000,
      replicaId: "gate-a",
    });
  });

  it("refuses a lease that is not a duration and a replica id with spaces, naming each", () => {
    const message = failure({ GATE_JOB_LEASE: "60", GATE_REPLICA_ID: "gate a" });
    expect(message).toMatch(/GATE_JOB_LEASE/);
    expect(message).toMatch(/GATE_REPLICA_ID/);
  });
});
