import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateServer } from "../../src/server/start.js";
import { pino } from "pino";
import { silentLog, tempDir } from "../helpers/gate.js";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github-api.js";

const dir = tempDir("gate-config-start-");
// A server that starts checks its GitHub token first: against a loopback GitHub, never the internet.
let gh: FakeGitHub;
beforeAll(async () => {
  gh = await startFakeGitHub();
});
afterAll(async () => {
  await gh.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the server on its own configuration file `name` holding `text`; a pino logger that keeps what it logs. */
function startWith(name: string, text: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const logged: string[] = [];
  const log = pino({ level: "warn" }, { write: (line: string) => void logged.push(line) });
  const start = startGateServer(
    {
      GITHUB_WEBHOOK_SECRET: "s",
      GITHUB_TOKEN: "t",
      GATE_GITHUB_API_URL: gh.url,
      GATE_SLACK: "off",
      PORT: "0",
      GATE_DB: path.join(dir, `${name}.db`),
      GATE_DATA_DIR: dir,
      GATE_CONFIG: file,
    },
    { log },
  );
  return { file, start, logged };
}

/** Whether anything was written where the server keeps its state (it must refuse before opening it). */
const dbMade = (name: string) => fs.existsSync(path.join(dir, `${name}.db`));

describe("the server and its configuration file", () => {
  it("refuses to start on an invalid GATE_CONFIG, naming the file, line and key; nothing is listening", async () => {
    const file = path.join(dir, "gate.yml");
    fs.writeFileSync(file, "version: 1\nexceptions:\n  - { policy: LIC-02, package: x, reason: ok then }\n");
    const start = startGateServer(
      {
        GITHUB_WEBHOOK_SECRET: "s",
        GITHUB_TOKEN: "t",
        GATE_GITHUB_API_URL: gh.url,
        GATE_SLACK: "off",
        PORT: "0",
        GATE_DB: path.join(dir, "gate.db"),
        GATE_DATA_DIR: dir,
        GATE_CONFIG: file,
      },
      { log: silentLog },
    );
    await expect(start).rejects.toMatchObject({ code: "CONFIG_FILE_INVALID" });
    await expect(start).rejects.toThrow(`${file}:3:5: exceptions.0.granted_by`);
  });

  it("refuses to start on what the strict check calls an error: a range that is not semver, a malformed advisory id, a glob that matches nothing", async () => {
    const { file, start } = startWith(
      "never.yml",
      [
        "version: 1",
        "exceptions:",
        "  - { policy: LIC-02, package: gpl-lib@not-a-range, reason: legal cleared it, granted_by: legal, expires: 2030-01-01 }",
        "  - { policy: SEC-07, advisory: GHSA-1234, reason: not reachable, granted_by: sec, expires: 2030-01-01 }",
        "  - { policy: SEC-01, path: /test/fixtures/**, reason: test keys, granted_by: sec, expires: 2030-01-01 }",
        "",
      ].join("\n"),
    );
    await expect(start).rejects.toMatchObject({ code: "CONFIG_FILE_INVALID" });
    const message = await start.catch((e: unknown) => String(e));
    expect(message).toContain(`${file}:3:32: exceptions.0.package: not-a-range is not a semver range`);
    expect(message).toContain(`${file}:4:33: exceptions.1.advisory: must be an advisory id`);
    expect(message).toContain(`${file}:5:29: exceptions.2.path: can never match anything`);
    expect(dbMade("never.yml")).toBe(false);
  });

  it("refuses to start on a policy id no policy file has (in policies: or an exception), naming file:line:col", async () => {
    const { file, start } = startWith(
      "unknown.yml",
      "version: 1\npolicies:\n  ACME-99: { blocking: true }\nexceptions:\n  - { policy: XYZ-01, path: docs/**, reason: docs only, granted_by: a, expires: 2030-01-01 }\n",
    );
    await expect(start).rejects.toMatchObject({ code: "CONFIG_FILE_INVALID" });
    const message = await start.catch((e: unknown) => String(e));
    expect(message).toContain(`${file}:3:3: policies.ACME-99: ACME-99 has no policy file in the corpus in force`);
    expect(message).toContain(`${file}:5:15: exceptions.0.policy: XYZ-01 has no policy file`);
    expect(dbMade("unknown.yml")).toBe(false);
  });

  it("starts on an expired exception (a warning, logged with its place and date), as `config check` without --strict does", async () => {
    const { file, start, logged } = startWith(
      "expired.yml",
      "version: 1\nexceptions:\n  - { policy: LIC-02, package: gpl-lib, reason: cleared in 2019, granted_by: legal, expires: 2020-06-30 }\n",
    );
    const server = await start;
    try {
      expect(server.port).toBeGreaterThan(0);
      const warning = logged
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.key === "exceptions.0.expires");
      expect(warning).toMatchObject({ file, line: 3, col: 94, msg: expect.stringContaining("expired on 2020-06-30") });
    } finally {
      await server.close();
    }
  });
});
