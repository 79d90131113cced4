import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { describeError } from "../../src/domain/errors.js";
import { startGateServer, type RunningServer } from "../../src/server/start.js";
import { closedPort } from "../helpers/closed-port.js";
import { silentLog } from "../helpers/gate.js";
import { startFakes, stackEnv, type StackFakes } from "./helpers.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The loopback fakes and a data dir, closed after the test; the env that points a server at them. */
async function fakesAndEnv(mode: "app" | "token", env: Record<string, string> = {}) {
  const fakes: StackFakes = await startFakes({ mode });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-start-checks-"));
  cleanups.push(async () => {
    await Promise.all([fakes.gh.close(), fakes.registry.close(), fakes.osv.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { fakes, env: stackEnv(fakes, path.join(dir, "data"), { mode, env }) };
}

async function start(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const server = await startGateServer(env, { log: silentLog });
  cleanups.push(() => server.close());
  return server;
}

/** The error a start failed with (the test fails if it started). */
async function startFailure(env: NodeJS.ProcessEnv): Promise<unknown> {
  return startGateServer(env, { log: silentLog }).then(
    async (server) => {
      await server.close();
      throw new Error("the server started");
    },
    (error: unknown) => error,
  );
}

describe("start-up checks of the GitHub credentials", () => {
  it("a token: reads its user once at start (GET /user) and starts", async () => {
    const { fakes, env } = await fakesAndEnv("token");
    await start(env);
    expect(fakes.gh.find("GET", /^\/user$/)).toHaveLength(1);
    expect(fakes.gh.find("GET", /^\/user$/)[0]?.authorization).toBe("token ghp_e2e_token");
  });

  it("an App: lists its installations once at start with its JWT, and starts", async () => {
    const { fakes, env } = await fakesAndEnv("app");
    await start(env);
    const asked = fakes.gh.find("GET", /^\/app\/installations$/);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.authorization).toMatch(/^bearer ey/i);
  });

  it("a refused token stops the start naming GITHUB_TOKEN and GitHub's 401; nothing is listening", async () => {
    const { fakes, env } = await fakesAndEnv("token", { PORT: String(await closedPort()) });
    fakes.gh.failNext("GET", /^\/user$/, 1, { status: 401, body: { message: "Bad credentials" } });
    const failure = await startFailure(env);
    expect(failure).toMatchObject({ code: "CONFIG_INVALID" });
    expect(describeError(failure)).toContain(`GITHUB_TOKEN: GitHub at ${new URL(fakes.gh.url).host} refused it`);
    expect(describeError(failure)).toContain("GET /user answered 401: Bad credentials");
    await expect(fetch(`http://127.0.0.1:${env.PORT}/healthz`)).rejects.toThrow();
  });

  it("an App key GitHub does not accept stops the start naming the App's settings", async () => {
    const other = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const { env } = await fakesAndEnv("app", { GATE_GITHUB_PRIVATE_KEY: other.privateKey });
    const failure = await startFailure(env);
    expect(failure).toMatchObject({ code: "CONFIG_INVALID" });
    expect(describeError(failure)).toMatch(/GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY: GitHub at .* refused them/);
    expect(describeError(failure)).toContain("GET /app/installations answered 401");
  });

  it("no route to GitHub says so, with the host tried, and does not blame the token", async () => {
    const port = await closedPort();
    const { env } = await fakesAndEnv("token", { GATE_GITHUB_API_URL: `http://127.0.0.1:${port}` });
    const failure = await startFailure(env);
    expect(failure).toMatchObject({ code: "SERVICE_UNREACHABLE" });
    const line = describeError(failure);
    expect(line).toContain(`cannot reach GitHub at 127.0.0.1:${port}`);
    expect(line).toMatch(/GET \/user got no answer \(.*ECONNREFUSED/);
    expect(line).not.toMatch(/refused it|fix the setting/);
  });
});

describe("start-up checks of Anthropic", () => {
  it("no route to Anthropic says so, with the host tried, distinct from a refused key", async () => {
    const port = await closedPort();
    const { env } = await fakesAndEnv("token", {
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    const failure = await startFailure(env);
    expect(failure).toMatchObject({ code: "SERVICE_UNREACHABLE" });
    const line = describeError(failure);
    expect(line).toContain(`cannot reach Anthropic at 127.0.0.1:${port}`);
    expect(line).toMatch(/ECONNREFUSED/);
    expect(line).not.toMatch(/ANTHROPIC_API_KEY was refused|fix the setting/);
  });
});
