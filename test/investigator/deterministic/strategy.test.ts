import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/domain/finding.js";
import { parsePullRequest, type PullRequest } from "../../../src/domain/pull-request.js";
import { createDeterministicStrategy } from "../../../src/investigator/deterministic/strategy.js";
import { runInvestigation } from "../../../src/investigator/harness.js";
import type { InvestigationRequest } from "../../../src/domain/investigation.js";
import { sandboxRoot } from "../../../src/snapshot/sandbox.js";

const fixturesDir = fileURLToPath(new URL("../../../fixtures", import.meta.url));
const limits = { maxTurns: 6, maxToolCalls: 12, maxFileChars: 60_000, timeoutMs: 10_000 };

function load(name: string): { pr: PullRequest; root: string } {
  const read = (f: string): unknown => JSON.parse(readFileSync(`${fixturesDir}/${name}/${f}`, "utf8"));
  return {
    pr: parsePullRequest(read("pr.json"), read("files.json")),
    root: sandboxRoot({ kind: "fixture", fixturesDir, name }, { dataDir: "/unused" }),
  };
}

const sec03: Finding = {
  specialty: "security",
  policy: "SEC-03",
  severity: "high",
  blocking: true,
  needs_more_context: true,
  file: "src/auth/session.ts",
  message: "session validation changed",
  source: "detector",
  detector: "auth-paths",
};
const machine: InvestigationRequest = {
  question: "Is the session change safe in context?",
  origin: "machine",
  findings: [sec03],
};

describe("deterministic strategy on 003_auth_change", () => {
  it("resolves with evidence that expiry and signature are still checked, and no concerns", async () => {
    const { pr, root } = load("003_auth_change");
    const report = await runInvestigation({
      strategy: createDeterministicStrategy(),
      request: machine,
      pr,
      root,
      limits,
    });
    expect(report.status).toBe("resolved");
    expect(report.concerns).toEqual([]);
    expect(report.usage.model_calls).toBe(0);
    expect(report.evidence).toContainEqual({
      file: "src/auth/session.ts",
      line: 22,
      excerpt: 'if (session.expiresAt < now) return { ok: false, reason: "expired" };',
    });
    expect(report.evidence.some((e) => e.file === "src/auth/session.ts" && e.excerpt.includes("verifySignature"))).toBe(
      true,
    );
    expect(
      report.answers.some((a) =>
        a.startsWith("The change to src/auth/session.ts still checks expiry: src/auth/session.ts:22"),
      ),
    ).toBe(true);
    expect(
      report.answers.some(
        (a) =>
          a.includes("No token, password, secret or session id is logged in src/auth/session.ts") &&
          a.includes("verifySignature in src/auth/tokens.ts"),
      ),
    ).toBe(true);
    expect(report.answers.some((a) => a.includes("redacts token"))).toBe(true);
    expect(report.answers.some((a) => a.includes("src/middleware/require-auth.ts:7"))).toBe(true);
    expect(report.tool_calls).toBeLessThanOrEqual(8);
  });

  it("answers a person's question about expiry with the expiry check first", async () => {
    const { pr, root } = load("003_auth_change");
    const request: InvestigationRequest = {
      question: "Does the refactored session check still verify expiry?",
      origin: "human",
      askedBy: "U123",
      findings: [],
    };
    const report = await runInvestigation({ strategy: createDeterministicStrategy(), request, pr, root, limits });
    expect(report).toMatchObject({ status: "resolved", origin: "human", askedBy: "U123", concerns: [] });
    expect(report.answers[0]).toMatch(/expiry: src\/auth\/session\.ts:22 `if \(session\.expiresAt < now\)/);
  });
});

describe("deterministic strategy on 003b_auth_change_logs_token", () => {
  it("finds the token logged by the helper the change calls, outside the diff", async () => {
    const { pr, root } = load("003b_auth_change_logs_token");
    expect(pr.files.map((f) => f.patch ?? "").join("\n")).not.toContain("session refreshed");
    const report = await runInvestigation({
      strategy: createDeterministicStrategy(),
      request: machine,
      pr,
      root,
      limits,
    });
    expect(report.status).toBe("resolved");
    expect(report.concerns).toHaveLength(1);
    const [concern] = report.concerns;
    expect(concern?.policy).toBe("SEC-03");
    expect(concern?.message).toContain("src/audit/audit.ts");
    expect(concern?.message).toContain("auditSession");
    expect(concern?.evidence).toEqual({
      file: "src/audit/audit.ts",
      line: 6,
      excerpt: 'logger.info("session refreshed", { token: session.token });',
    });
  });
});

describe("deterministic strategy when the changed code is not there", () => {
  it("is inconclusive when it cannot read the changed file", async () => {
    const { pr, root } = load("003_auth_change");
    const request: InvestigationRequest = { ...machine, findings: [{ ...sec03, file: "src/auth/gone.ts" }] };
    const report = await runInvestigation({ strategy: createDeterministicStrategy(), request, pr, root, limits });
    expect(report.status).toBe("inconclusive");
    expect(report.reason).toMatch(/could not read the changed code \(src\/auth\/gone\.ts: error: not found/);
  });

  it("answers with what it has instead of spending the last tool call", async () => {
    const { pr, root } = load("003b_auth_change_logs_token");
    const report = await runInvestigation({
      strategy: createDeterministicStrategy(),
      request: machine,
      pr,
      root,
      limits: { ...limits, maxToolCalls: 3 },
    });
    expect(report.tool_calls).toBe(2);
    // What it has is not enough to clear anything: the logging setup was never read.
    expect(report.status).toBe("inconclusive");
    expect(report.reason).toMatch(/^no positive evidence that it is safe: no logging setup was found that redacts/);
  });

  it("serves two runs at once without mixing their state", async () => {
    const strategy = createDeterministicStrategy();
    const a = load("003_auth_change");
    const b = load("003b_auth_change_logs_token");
    const [ra, rb] = await Promise.all([
      runInvestigation({ strategy, request: machine, pr: a.pr, root: a.root, limits }),
      runInvestigation({ strategy, request: machine, pr: b.pr, root: b.root, limits }),
    ]);
    expect(ra.concerns).toEqual([]);
    expect(rb.concerns.map((c) => c.evidence.file)).toEqual(["src/audit/audit.ts"]);
  });
});

/** A copy of a bundled fixture in a temp fixtures folder, changed by `edit`, loaded like `load`. */
function variant(name: string, edit: (dir: string) => void): { pr: PullRequest; root: string; cleanup: () => void } {
  const tmp = mkdtempSync(path.join(tmpdir(), "gate-det-"));
  cpSync(path.join(fixturesDir, name), path.join(tmp, name), { recursive: true });
  edit(path.join(tmp, name));
  const read = (f: string): unknown => JSON.parse(readFileSync(path.join(tmp, name, f), "utf8"));
  return {
    pr: parsePullRequest(read("pr.json"), read("files.json")),
    root: sandboxRoot({ kind: "fixture", fixturesDir: tmp, name }, { dataDir: "/unused" }),
    cleanup: () => rmSync(tmp, { recursive: true, force: true }),
  };
}

describe("the rules clear only with positive evidence", () => {
  it("003's clearance cites both halves: the checks kept and the logging setup's redaction", async () => {
    const { pr, root } = load("003_auth_change");
    const report = await runInvestigation({
      strategy: createDeterministicStrategy(),
      request: machine,
      pr,
      root,
      limits,
    });
    expect(report.status).toBe("resolved");
    expect(report.evidence.some((e) => /redact/.test(e.excerpt))).toBe(true);
  });

  it("a logging setup that redacts nothing is a concern, not an answer", async () => {
    const v = variant("003_auth_change", (dir) => {
      writeFileSync(path.join(dir, "repo/config/logging.json"), JSON.stringify({ level: "info" }, null, 2));
      writeFileSync(
        path.join(dir, "repo/src/logging/logger.ts"),
        'import pino from "pino";\n\n/** The one logger of the app. */\nexport const logger = pino({ level: "info" });\n',
      );
    });
    try {
      const report = await runInvestigation({
        strategy: createDeterministicStrategy(),
        request: machine,
        pr: v.pr,
        root: v.root,
        limits,
      });
      expect(report.concerns.map((c) => [c.policy, c.evidence.file])).toEqual(
        expect.arrayContaining([["SEC-03", "src/logging/logger.ts"]]),
      );
      expect(report.concerns[0]?.message).toMatch(/redacts no token, password or secret/);
    } finally {
      v.cleanup();
    }
  });

  it("no logging setup at all, with code that logs, is not proof: inconclusive", async () => {
    const v = variant("003_auth_change", (dir) => {
      rmSync(path.join(dir, "repo/config"), { recursive: true });
      rmSync(path.join(dir, "repo/src/logging"), { recursive: true });
    });
    try {
      const report = await runInvestigation({
        strategy: createDeterministicStrategy(),
        request: machine,
        pr: v.pr,
        root: v.root,
        limits,
      });
      expect(report.status).toBe("inconclusive");
      expect(report.concerns).toEqual([]);
      expect(report.reason).toMatch(
        /no logging setup was found that redacts tokens, passwords or secrets, and the changed code logs/,
      );
    } finally {
      v.cleanup();
    }
  });

  it("newly added authentication code (nothing to compare against) is never cleared by rules alone", async () => {
    const v = variant("003_auth_change", (dir) => {
      const files = JSON.parse(readFileSync(path.join(dir, "files.json"), "utf8")) as Array<{ status: string }>;
      for (const f of files) f.status = "added";
      writeFileSync(path.join(dir, "files.json"), JSON.stringify(files));
    });
    try {
      const report = await runInvestigation({
        strategy: createDeterministicStrategy(),
        request: machine,
        pr: v.pr,
        root: v.root,
        limits,
      });
      expect(report.status).toBe("inconclusive");
      expect(report.reason).toMatch(
        /src\/auth\/session\.ts is a new file: there is no earlier version to compare it with/,
      );
      // What the new file shows is cited all the same: a model's clearance is weighed against it.
      expect(report.answers).toContainEqual(
        expect.stringMatching(/^src\/auth\/session\.ts is new; it makes the check: src\/auth\/session\.ts:22 `if/),
      );
      expect(report.evidence).toContainEqual({
        file: "src/auth/session.ts",
        line: 23,
        excerpt:
          'if (!verifySignature(session.token, session.signature)) return { ok: false, reason: "bad_signature" };',
      });
      expect(report.checks_shown).toEqual(["src/auth/session.ts"]);
    } finally {
      v.cleanup();
    }
  });
});
