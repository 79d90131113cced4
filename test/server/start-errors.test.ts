import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeError } from "../../src/domain/errors.js";
import { startGateServer } from "../../src/server/start.js";
import { closedPort } from "../helpers/closed-port.js";
import { silentLog } from "../helpers/gate.js";
import { type EndedServer, runBuiltServerToExit } from "./child-server.js";
import { startFakes, stackEnv, type StackFakes } from "./helpers.js";

// What a person sees when `npm start` cannot start: one line naming the setting and what to do,
// exit 1, no stack trace, nothing listening.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The loopback fakes (Slack's when asked) and the settings that point a server at them; closed after the test. */
async function fakesAndEnv(opts: { slack?: boolean; env?: Record<string, string> } = {}) {
  const fakes: StackFakes = await startFakes({ mode: "app", slack: opts.slack ?? false });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-start-errors-"));
  cleanups.push(async () => {
    await Promise.all([fakes.gh.close(), fakes.registry.close(), fakes.osv.close(), fakes.slack?.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = stackEnv(fakes, path.join(dir, "data"), { mode: "app", env: { GATE_LOG_LEVEL: "info", ...opts.env } });
  return { fakes, env };
}

/**
 * The one line a failed start printed: exit 1, one non-empty line on stderr (`gate: …`), no
 * stack trace anywhere, and stdout only the log's JSON lines, none of them an error and none
 * saying it listened.
 */
function theOneLine(ended: EndedServer, opts: { loggedError?: RegExp } = {}): string {
  const all = `${ended.stdout}\n${ended.stderr}`;
  expect(ended.code, all).toBe(1);
  expect(all).not.toMatch(/^ {4}at /m);
  const errLines = ended.stderr.split("\n").filter((l) => l.trim() !== "");
  expect(errLines, ended.stderr).toHaveLength(1);
  const logs = ended.stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { level: number; msg?: string });
  expect(logs.filter((l) => l.level >= 50 && !(opts.loggedError?.test(l.msg ?? "") ?? false))).toEqual([]);
  expect(logs.map((l) => l.msg)).not.toContain("gate listening");
  const [line = ""] = errLines;
  expect(line).toMatch(/^gate: /);
  return line;
}

describe("a Slack bot token Slack refuses", { timeout: 60_000 }, () => {
  it("`node dist/main.js`: exits 1 with one line naming SLACK_BOT_TOKEN and what to do, no stack trace", async () => {
    const { fakes, env } = await fakesAndEnv({ slack: true });
    fakes.slack?.on("auth.test", () => ({ ok: false, error: "invalid_auth" }));
    const line = theOneLine(await runBuiltServerToExit(env));
    expect(line).toContain("SLACK_BOT_TOKEN");
    expect(line).toContain("auth.test answered invalid_auth");
    expect(line).toContain("Bot User OAuth Token (xoxb-…");
    expect(line).toContain("GATE_SLACK=off");
    // Asked once, through the configured SLACK_API_URL, with the configured token.
    expect(fakes.slack?.callsTo("auth.test").map((c) => c.token)).toEqual(["xoxb-e2e"]);
  });

  it.each(["not_authed", "account_inactive", "token_revoked", "token_expired"])(
    "%s is the token's fault too: CONFIG_INVALID naming SLACK_BOT_TOKEN; nothing is listening",
    async (error) => {
      const port = await closedPort();
      const { fakes, env } = await fakesAndEnv({ slack: true, env: { PORT: String(port), GATE_LOG_LEVEL: "silent" } });
      fakes.slack?.on("auth.test", () => ({ ok: false, error }));
      const failure = await startGateServer(env, { log: silentLog }).then(
        async (server) => {
          await server.close();
          throw new Error("the server started");
        },
        (e: unknown) => e,
      );
      expect(failure).toMatchObject({ code: "CONFIG_INVALID" });
      expect(describeError(failure)).toContain(
        `SLACK_BOT_TOKEN: Slack at ${new URL(fakes.slack?.apiUrl ?? "").host} refused it (auth.test answered ${error})`,
      );
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    },
  );

  it("a token Slack accepts starts the server, and Bolt asks auth.test no second time", async () => {
    const { fakes, env } = await fakesAndEnv({ slack: true, env: { GATE_LOG_LEVEL: "silent" } });
    const server = await startGateServer(env, { log: silentLog });
    cleanups.push(() => server.close());
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    expect(fakes.slack?.callsTo("auth.test")).toHaveLength(1);
  });
});

describe("a Slack app-level token Slack refuses (Socket Mode)", { timeout: 60_000 }, () => {
  it("exits 1 with one line naming SLACK_APP_TOKEN, no stack trace", async () => {
    const { fakes, env } = await fakesAndEnv({ slack: true, env: { SLACK_APP_TOKEN: "xapp-revoked" } });
    fakes.slack?.on("apps.connections.open", () => ({ ok: false, error: "invalid_auth" }));
    // The Socket Mode client logs its own failure (an error entry in the JSON log) before the gate says what to do.
    const line = theOneLine(await runBuiltServerToExit(env), { loggedError: /^Failed to retrieve a new WSS URL/ });
    expect(line).toContain("SLACK_APP_TOKEN: Slack at");
    expect(line).toContain("apps.connections.open answered invalid_auth");
    expect(line).toContain("connections:write (xapp-…");
  });
});

describe("a Slack that cannot be reached", { timeout: 60_000 }, () => {
  it("no route to SLACK_API_URL: exits 1 saying Slack could not be reached, not that the token is wrong", async () => {
    const port = await closedPort();
    const { env } = await fakesAndEnv({ slack: true, env: { SLACK_API_URL: `http://127.0.0.1:${port}/api/` } });
    const line = theOneLine(await runBuiltServerToExit(env));
    expect(line).toContain(`cannot reach Slack at 127.0.0.1:${port} (SLACK_API_URL) to check SLACK_BOT_TOKEN`);
    expect(line).toMatch(/auth\.test got no answer \(.*ECONNREFUSED/);
    expect(line).not.toMatch(/refused it|fix the setting/);
  });

  it("a 5xx after the retries is the same: SERVICE_UNREACHABLE, the token not blamed", async () => {
    const { fakes, env } = await fakesAndEnv({ slack: true, env: { GATE_LOG_LEVEL: "silent" } });
    fakes.slack?.on("auth.test", () => {
      throw new Error("Slack is down"); // the fake answers 500
    });
    const failure = await startGateServer(env, { log: silentLog }).then(
      async (server) => {
        await server.close();
        throw new Error("the server started");
      },
      (e: unknown) => e,
    );
    expect(failure).toMatchObject({ code: "SERVICE_UNREACHABLE" });
    expect(describeError(failure)).toContain("auth.test got no answer (HTTP 500)");
    // The first try and its two retries.
    expect(fakes.slack?.callsTo("auth.test")).toHaveLength(3);
  });
});

describe("a GitHub App GitHub refuses", { timeout: 60_000 }, () => {
  it("an App id GitHub does not know: exits 1 with one line naming GATE_GITHUB_APP_ID, no stack trace", async () => {
    const { env } = await fakesAndEnv({ env: { GATE_GITHUB_APP_ID: "999999" } });
    const line = theOneLine(await runBuiltServerToExit(env));
    expect(line).toContain("GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY: GitHub at");
    expect(line).toContain("GET /app/installations answered 404: Integration not found");
    expect(line).toContain("fix the setting named above");
  });

  it("a key that is not the App's: exits 1 with one line naming GATE_GITHUB_PRIVATE_KEY, no stack trace", async () => {
    const other = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const { env } = await fakesAndEnv({ env: { GATE_GITHUB_PRIVATE_KEY: other.privateKey } });
    const line = theOneLine(await runBuiltServerToExit(env));
    expect(line).toContain("GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY: GitHub at");
    expect(line).toContain("GET /app/installations answered 401");
  });
});

describe("a missing GITHUB_WEBHOOK_SECRET", { timeout: 60_000 }, () => {
  it("exits 1 with one line naming it, before asking GitHub or Slack anything", async () => {
    const { fakes, env } = await fakesAndEnv({ slack: true, env: { GITHUB_WEBHOOK_SECRET: "" } });
    const line = theOneLine(await runBuiltServerToExit(env));
    expect(line).toContain("cannot start the server: GITHUB_WEBHOOK_SECRET is not set");
    expect(fakes.gh.requests).toEqual([]);
    expect(fakes.slack?.calls).toEqual([]);
  });
});
