import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ACME_01,
  addedFileEntry,
  corpusWith,
  LEGACY_BASE_SHA,
  legacyFixture,
} from "../detectors/rules/rule-policies.js";
import { tempDir } from "../helpers/gate.js";
import { startGateServer } from "../../src/server/start.js";
import { openPr, serveFixture, stackEnv, startFakes, stacksClosedAfterEach, type Stack } from "./helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();

const POLICY = ".github/gate/policies/ACME-01.md";
const BROKEN = ACME_01.replace('{ pattern: "legacyAuth($$$ARGS)" }', "{ kind: not_a_kind }");

/** Serves the legacyAuth fixture (its PR adds a TypeScript and a Python call), plus `extraFiles` in its diff. */
function serveLegacy(s: Stack, extraFiles: unknown[] = []) {
  const fixture = legacyFixture(extraFiles);
  return serveFixture(s, path.basename(fixture), { fixturesDir: path.dirname(fixture) });
}

async function review(s: Stack, extraFiles: unknown[] = []) {
  const pr = serveLegacy(s, extraFiles);
  return { pr, result: await s.server.gate.runner.result((await openPr(s, pr)).id) };
}

const acme = (result: { findings: { policy: string; file?: string; line?: number }[] }) =>
  result.findings.filter((f) => f.policy === "ACME-01").map((f) => `${f.file}:${f.line}`);

/** The refs the contents API was asked for the repository's policies folder at. */
const policyFolderAsked = (s: Stack) =>
  s.gh.find("GET", /\/contents\/\.github(%2F|\/)gate(%2F|\/)policies$/).map((r) => r.query.ref);

describe("teams' ast-grep rule policies on the server", { timeout: 90_000 }, () => {
  it("in GATE_POLICIES_DIR, its TypeScript and Python rules raise their findings on a webhook's PR", async () => {
    const s = await start({ env: { GATE_POLICIES_DIR: corpusWith({ "ACME-01.md": ACME_01 }) } });
    const { result } = await review(s);
    expect(acme(result)).toEqual(["app/session.py:5", "src/admin/session.ts:4"]);
    expect(result.route).toBe("human");
    expect(result.findings.find((f) => f.file === "src/admin/session.ts")?.message).toContain(
      "legacyAuth is retired; call verifySession instead of legacyAuth(req) (rule no-legacy-auth)",
    );
  });

  it("in the repository's .github/gate/policies/ on the base commit, it raises its findings (read there only)", async () => {
    const s = await start();
    s.gh.setContent("acme", "portal", LEGACY_BASE_SHA, POLICY, ACME_01);
    const { result } = await review(s);
    expect(acme(result)).toEqual(["app/session.py:5", "src/admin/session.ts:4"]);
    expect(result.findings.find((f) => f.policy === "ACME-01")).toMatchObject({ blocking: true, severity: "high" });
    expect(result.route).toBe("human");
    expect(result.findings.some((f) => f.policy === "SEC-06")).toBe(false);
    expect(policyFolderAsked(s)).toEqual([LEGACY_BASE_SHA]);
    const config = await s.server.gate.reviewConfig(
      (await s.server.gate.store.latestForPr("acme/portal#41"))?.id ?? "",
    );
    expect(config?.policies["ACME-01"]).toMatchObject({ enabled: true, blocking: true });
    expect(config?.sources).toContain(`acme/portal:${POLICY}@${LEGACY_BASE_SHA.slice(0, 12)}`);
  });

  it("one the PR's head adds is not applied: no finding of it, and the PR raises SEC-06 on the file", async () => {
    const s = await start();
    const pr = serveLegacy(s, [addedFileEntry(POLICY, ACME_01)]);
    s.gh.setContent("acme", "portal", pr.headSha, POLICY, ACME_01); // never asked for
    const result = await s.server.gate.runner.result((await openPr(s, pr)).id);
    expect(acme(result)).toEqual([]);
    const sec06 = result.findings.find((f) => f.policy === "SEC-06");
    expect(sec06).toMatchObject({ blocking: true, file: POLICY, line: 1 });
    expect(sec06?.message).toContain("one of the repository's own gate policies (.github/gate/policies/ACME-01.md");
    expect(result.route).toBe("human");
    expect(policyFolderAsked(s)).toEqual([LEGACY_BASE_SHA]);
  });

  it("a broken rule on the base commit sends the review to a person, naming the file, the line and the rule id", async () => {
    const s = await start();
    s.gh.setContent("acme", "portal", LEGACY_BASE_SHA, POLICY, BROKEN);
    const { result } = await review(s);
    expect(result.route).toBe("human");
    expect(result.escalation?.detail).toContain(
      `acme/portal:${POLICY}@${LEGACY_BASE_SHA.slice(0, 12)}:9: rule no-legacy-auth of ACME-01: ast-grep refuses it`,
    );
    expect(result.escalation?.detail).toContain("the repository's own policies were not used, so a person decides");
    expect(acme(result)).toEqual([]);
  });

  it("a repository policy with a server policy's id is refused, named: it can only add, never replace or lower", async () => {
    const s = await start();
    const lowered =
      "---\nid: SEC-01\ntitle: Credentials are fine here\nspecialty: security\nseverity: low\nblocking: false\nversion: 1\n---\n# Fine\n\nAnything goes.\n";
    s.gh.setContent("acme", "portal", LEGACY_BASE_SHA, ".github/gate/policies/SEC-01.md", lowered);
    const { result } = await review(s);
    expect(result.route).toBe("human");
    expect(result.escalation?.detail).toContain(
      `acme/portal:.github/gate/policies/SEC-01.md@${LEGACY_BASE_SHA.slice(0, 12)}: policy id SEC-01 is already the server's`,
    );
    const config = await s.server.gate.reviewConfig(
      (await s.server.gate.store.latestForPr("acme/portal#41"))?.id ?? "",
    );
    expect(config?.policies["SEC-01"]).toMatchObject({ severity: "critical", blocking: true });
  });

  it("a broken rule in GATE_POLICIES_DIR stops the server at start, naming the file, the line and the rule id", async () => {
    const fakes = await startFakes();
    const policies = corpusWith({ "ACME-01.md": BROKEN });
    try {
      const started = startGateServer(
        stackEnv(fakes, tempDir("gate-rules-start-"), { env: { GATE_POLICIES_DIR: policies } }),
      );
      await expect(started).rejects.toThrow(
        `${path.join(policies, "ACME-01.md")}:9: rule no-legacy-auth of ACME-01: ast-grep refuses it`,
      );
    } finally {
      await Promise.all([fakes.gh.close(), fakes.registry.close(), fakes.osv.close()]);
    }
  });
});
