import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { startGateServer } from "../../src/server/start.js";
import { CONFIG_SECRET_CASES, formsOf } from "../detectors/security/config-secret-cases.js";
import { defined } from "../helpers/defined.js";
import { checkRunsOn, openPr, serveFixture, stackEnv, startFakes, type Stack } from "./helpers.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe("credentials in configuration files, through the server (loopback GitHub and Slack)", () => {
  it("each case waits for a person with SEC-01 at its file and line; its value is in no log line, card, check run or annotation", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-e2e-cfg-"));
    const fakes = await startFakes({ slack: true });
    const lines: string[] = [];
    const log = createLogger({ level: "debug", destination: { write: (s: string) => void lines.push(s) } });
    const server = await startGateServer(stackEnv(fakes, path.join(dir, "data")), { log });
    close = async () => {
      await server.close();
      await Promise.all([fakes.gh.close(), fakes.registry.close(), fakes.osv.close(), fakes.slack?.close()]);
      fs.rmSync(dir, { recursive: true, force: true });
    };
    const s = { ...fakes, server, base: `http://127.0.0.1:${server.port}` } as unknown as Stack;
    const slack = defined(fakes.slack, "the Slack fake");

    for (const [i, c] of CONFIG_SECRET_CASES.entries()) {
      const pr = serveFixture(s, `eval/${c.fixture}`, { number: 700 + i });
      const review = await openPr(s, pr);
      expect(review.status, c.fixture).toBe("waiting_for_human");
      const result = await server.gate.runner.result(review.id);
      expect(result.findings, c.fixture).toContainEqual(
        expect.objectContaining({ policy: "SEC-01", file: c.file, line: c.line, blocking: true }),
      );
      const [run] = checkRunsOn(fakes.gh, pr.headSha);
      expect(run?.fields.conclusion, c.fixture).toBe("action_required");
      expect(run?.annotations, c.fixture).toContainEqual(
        expect.objectContaining({ path: c.file, start_line: c.line, title: expect.stringContaining("SEC-01") }),
      );
      const published = JSON.stringify([run, result, slack.calls]);
      for (const form of formsOf(c)) expect(published, c.fixture).not.toContain(form);
    }
    // Every case has its card, and the logs (at debug) were written, without any value.
    expect(slack.callsTo("chat.postMessage").length).toBeGreaterThanOrEqual(CONFIG_SECRET_CASES.length);
    expect(lines.length).toBeGreaterThan(CONFIG_SECRET_CASES.length);
    const logged = lines.join("");
    for (const c of CONFIG_SECRET_CASES) for (const form of formsOf(c)) expect(logged, c.fixture).not.toContain(form);
  }, 120_000);
});
