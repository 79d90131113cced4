import fs from "node:fs";
import path from "node:path";
import { create as createTar } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";
import { startFakeOsv, type FakeOsv, type FakeOsvRecord } from "../fakes/osv-api.js";
import { startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const FIXTURE = path.join(PACKAGE_ROOT, "fixtures", "018_vulnerable_dependency");
const dir = tempDir("gate-cli-osv-");
let github: FakeGitHub;
let registry: FakeRegistry;
let osv: FakeOsv;

const json = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(FIXTURE, file), "utf8"));

async function review() {
  const r = await runGateCli(["review", "acme/web-dashboard#231", "--json"], {
    env: {
      PATH: process.env.PATH ?? "",
      GATE_DB: path.join(dir, "gate.db"),
      GATE_DATA_DIR: dir,
      GATE_LOG_LEVEL: "silent",
      GITHUB_TOKEN: "ghp_test",
      GATE_GITHUB_API_URL: github.url,
      GATE_NPM_REGISTRY_URL: registry.npmUrl,
      GATE_OSV_URL: osv.url,
    },
    cwd: dir,
  });
  return JSON.parse(r.stdout) as {
    route: string;
    escalation: { reason: string; detail: string } | null;
    findings: { policy: string; message: string }[];
  };
}

beforeAll(async () => {
  [github, registry, osv] = await Promise.all([startFakeGitHub(), startFakeRegistry(), startFakeOsv()]);
  const pr = json("pr.json") as { head: { sha: string }; number: number };
  github.setPull("acme", "web-dashboard", pr.number, { pr, files: json("files.json") as unknown[] });
  const repoDir = path.join(FIXTURE, "repo");
  const chunks: Buffer[] = [];
  const stream = createTar(
    { gzip: true, cwd: repoDir, prefix: `acme-web-dashboard-${pr.head.sha.slice(0, 7)}/` },
    fs.readdirSync(repoDir),
  );
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(c));
  github.setTarball("acme", "web-dashboard", pr.head.sha, Buffer.concat(chunks));
  for (const name of ["react", "react-dom", "date-fns", "zod", "lodash"]) {
    registry.npm.set(name, { "dist-tags": { latest: "9.9.9" }, versions: { "9.9.9": { license: "MIT" } } });
  }
  osv.add(...(json("osv.json") as FakeOsvRecord[]));
});
afterAll(async () => {
  await Promise.all([github.close(), registry.close(), osv.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("gate review owner/repo#n with OSV (a live review from the terminal)", () => {
  it("OSV down: the review goes to a person with lookup_failed naming OSV; once it answers, the next review raises SEC-07", async () => {
    osv.mode = "fail";
    const down = await review();
    expect(down.route).toBe("human");
    expect(down.escalation?.reason).toBe("lookup_failed");
    expect(down.escalation?.detail).toContain(
      `lodash@4.17.20 (npm): OSV ${osv.url} querybatch answered 500 (3 attempts)`,
    );

    osv.mode = "ok";
    const up = await review();
    expect(up.escalation?.reason).toBe("blocking_finding");
    expect(up.findings.map((f) => f.policy)).toEqual(["SEC-07"]);
    expect(up.findings[0]?.message).toContain("GHSA-35jh-r3h4-6jhm (CVE-2021-23337)");
  }, 60_000);
});
