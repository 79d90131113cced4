import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../../src/domain/finding.js";
import type { Evidence, InvestigationRequest } from "../../src/domain/investigation.js";
import type { ChangedFile, PullRequest } from "../../src/domain/pull-request.js";
import { runInvestigation, type InvestigationLimits } from "../../src/investigator/harness.js";
import type { Strategy, StrategyMove } from "../../src/investigator/strategy.js";
import { buildPr } from "../detectors/pr-builder.js";

const TOKEN = [
  'import jwt from "jsonwebtoken";',
  "// jwt.verify(token, key) happens in the gateway, not here",
  "export function subOf(token: string) {",
  "  const claims = jwt.decode(token) as { sub?: string } | null;",
  "  return claims?.sub;",
  "}",
];
const GUARD = [
  'import type { NextFunction, Request, Response } from "express";',
  "export function requireAdmin(req: Request, res: Response, next: NextFunction) {",
  "  if (req.user?.role !== 'admin') return res.sendStatus(403);",
  "  next();",
  "}",
];
const VERIFY = [
  'import jwt from "jsonwebtoken";',
  "export const claimsOf = (t: string, k: string) => jwt.verify(t, k);",
];

function added(filename: string, lines: string[]): ChangedFile {
  const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`;
  return { filename, status: "added", additions: lines.length, deletions: 0, changes: lines.length, patch };
}

const pr: PullRequest = {
  ...buildPr({ repo: "acme/api", number: 3, headSha: "a".repeat(40) }),
  files: [added("src/auth/token.ts", TOKEN), added("src/middleware/require-admin.ts", GUARD)],
};

const sec03 = (file: string): Finding => ({
  specialty: "security",
  policy: "SEC-03",
  severity: "high",
  blocking: true,
  needs_more_context: true,
  file,
  message: "auth code",
  source: "detector",
});
const ask = (...files: string[]): InvestigationRequest => ({
  question: "Is it safe?",
  origin: "machine",
  findings: files.map(sec03),
});
const limits: InvestigationLimits = { maxTurns: 4, maxToolCalls: 8, maxFileChars: 20_000, timeoutMs: 5_000 };

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "gate-sec03-"));
  mkdirSync(path.join(root, "src", "auth"), { recursive: true });
  mkdirSync(path.join(root, "src", "middleware"), { recursive: true });
  writeFileSync(path.join(root, "src/auth/token.ts"), `${TOKEN.join("\n")}\n`);
  writeFileSync(path.join(root, "src/auth/verify.ts"), `${VERIFY.join("\n")}\n`);
  writeFileSync(path.join(root, "src/middleware/require-admin.ts"), `${GUARD.join("\n")}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A strategy that reads these files, then clears the question citing `evidence`. */
function clears(kind: Strategy["kind"], files: string[], evidence: Evidence[]): Strategy {
  const moves: StrategyMove[] = [
    {
      kind: "tools",
      calls: files.map((p, i) => ({ id: String(i + 1), tool: "read_file" as const, args: { path: p } })),
    },
    { kind: "answer", answer: { conclusive: true, answers: ["Resolved."], evidence, concerns: [] } },
  ];
  let i = 0;
  return { name: "stand-in", kind, next: async () => moves[Math.min(i++, moves.length - 1)] as StrategyMove };
}

const cite = (file: string, lines: string[], line: number, excerpt = (lines[line - 1] ?? "").trim()): Evidence => ({
  file,
  line,
  excerpt,
});

describe("a model's SEC-03 clearance counts only with a cited line that shows the check", () => {
  it("an import line it really read does not; the report names the file", async () => {
    const report = await runInvestigation({
      strategy: clears("model", ["src/auth/token.ts"], [cite("src/auth/token.ts", TOKEN, 1)]),
      request: ask("src/auth/token.ts"),
      pr,
      root,
      limits,
    });
    expect(report).toMatchObject({ status: "inconclusive", checks_shown: [] });
    expect(report.reason).toBe(
      "the model's clearance cited no line that shows the check in src/auth/token.ts: SEC-03 needs the line that " +
        "verifies the token, signature or password (a verify or compare call the harness recognises)",
    );
  });

  it("an excerpt that quotes a verify call out of a comment does not: the line as read is what counts", async () => {
    const report = await runInvestigation({
      strategy: clears("model", ["src/auth/token.ts"], [cite("src/auth/token.ts", TOKEN, 2, "jwt.verify(token, key)")]),
      request: ask("src/auth/token.ts"),
      pr,
      root,
      limits,
    });
    expect(report.status).toBe("inconclusive");
    expect(report.reason).toMatch(/cited no line that shows the check in src\/auth\/token\.ts/);
  });

  it("a verify line of another file does not clear this file", async () => {
    const report = await runInvestigation({
      strategy: clears("model", ["src/auth/verify.ts"], [cite("src/auth/verify.ts", VERIFY, 2)]),
      request: ask("src/auth/token.ts"),
      pr,
      root,
      limits,
    });
    expect(report.status).toBe("inconclusive");
  });

  it("a guard that refuses clears route-guard code, and each file of the question needs its own line", async () => {
    const guardLine = cite("src/middleware/require-admin.ts", GUARD, 3);
    const one = await runInvestigation({
      strategy: clears("model", ["src/middleware/require-admin.ts"], [guardLine]),
      request: ask("src/middleware/require-admin.ts"),
      pr,
      root,
      limits,
    });
    expect(one).toMatchObject({ status: "resolved", checks_shown: ["src/middleware/require-admin.ts"] });

    const both = await runInvestigation({
      strategy: clears("model", ["src/middleware/require-admin.ts", "src/auth/token.ts"], [guardLine]),
      request: ask("src/middleware/require-admin.ts", "src/auth/token.ts"),
      pr,
      root,
      limits,
    });
    expect(both.status).toBe("inconclusive");
    expect(both.reason).toMatch(/^the model's clearance cited no line that shows the check in src\/auth\/token\.ts:/);
  });

  it("the rules' own strategy is held to its own rules, but the harness still records what it showed", async () => {
    const report = await runInvestigation({
      strategy: clears("rules", ["src/auth/token.ts"], [cite("src/auth/token.ts", TOKEN, 1)]),
      request: ask("src/auth/token.ts"),
      pr,
      root,
      limits,
    });
    expect(report).toMatchObject({ status: "resolved", checks_shown: [] });
  });

  it("a question with no SEC-03 finding is not touched", async () => {
    const report = await runInvestigation({
      strategy: clears("model", ["src/auth/token.ts"], [cite("src/auth/token.ts", TOKEN, 1)]),
      request: { question: "Is it safe?", origin: "machine", findings: [] },
      pr,
      root,
      limits,
    });
    expect(report.status).toBe("resolved");
    expect(report).not.toHaveProperty("checks_shown");
  });
});
