import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/domain/finding.js";
import type { InvestigationReport, InvestigationRequest } from "../../src/domain/investigation.js";
import type { ChangedFile, PullRequest } from "../../src/domain/pull-request.js";
import { ZERO_USAGE } from "../../src/domain/usage.js";
import { withCrossCheck } from "../../src/investigator/cross-check.js";
import { buildPr } from "../detectors/pr-builder.js";

const file = (filename: string, status: ChangedFile["status"]): ChangedFile => ({
  filename,
  status,
  additions: 1,
  deletions: 0,
  changes: 1,
  patch: "@@ -0,0 +1 @@\n+x",
});
const pr: PullRequest = {
  ...buildPr({ repo: "acme/api", number: 9, headSha: "a".repeat(40) }),
  files: [file("src/auth/token.ts", "added"), file("src/auth/session.ts", "modified")],
};
const finding = (policy: string, path: string): Finding => ({
  specialty: "security",
  policy,
  severity: "high",
  blocking: true,
  needs_more_context: true,
  file: path,
  message: "m",
  source: "detector",
});
const ask = (...findings: Finding[]): InvestigationRequest => ({ question: "q", origin: "machine", findings });
const report = (over: Partial<InvestigationReport> = {}): InvestigationReport => ({
  status: "resolved",
  question: "q",
  origin: "machine",
  answers: ["Resolved."],
  evidence: [{ file: "src/auth/token.ts", line: 7, excerpt: "jwt.verify(t, k)" }],
  concerns: [],
  turns: 2,
  tool_calls: 1,
  chars_read: 100,
  usage: { ...ZERO_USAGE },
  ...over,
});
const concern = {
  policy: "SEC-03",
  message: "src/auth/token.ts logs token without redaction",
  evidence: { file: "src/auth/token.ts", line: 9, excerpt: "log.info({ token })" },
};
const newFile = ask(finding("SEC-03", "src/auth/token.ts"));
const model = report({ checks_shown: ["src/auth/token.ts"] });

// One row per rule, in order; each row's input would also match the later rules where it can.
const rows: Array<{
  rule: string;
  request: InvestigationRequest;
  check: InvestigationReport;
  status: InvestigationReport["status"];
  reason?: RegExp;
}> = [
  {
    rule: "1 the deterministic investigation found a concern (and could not assess the new file)",
    request: newFile,
    check: report({ status: "inconclusive", concerns: [concern], checks_shown: [] }),
    status: "inconclusive",
    reason: /found a concern: src\/auth\/token\.ts logs token without redaction$/,
  },
  {
    rule: "2 a new SEC-03 file the deterministic investigation could not assess",
    request: newFile,
    check: report({ status: "inconclusive", reason: "no positive evidence", checks_shown: [] }),
    status: "inconclusive",
    reason:
      /^src\/auth\/token\.ts is a new authentication file that the deterministic investigation could not assess .*: a person decides$/,
  },
  {
    rule: "2b the deterministic investigation stopped before it showed anything (no checks recorded)",
    request: newFile,
    check: report({ status: "inconclusive", reason: "budget: max tool calls (2) reached", evidence: [] }),
    status: "inconclusive",
    reason: /^src\/auth\/token\.ts is a new authentication file/,
  },
  {
    rule: "3 a new SEC-03 file whose check the deterministic investigation cited",
    request: newFile,
    check: report({
      status: "inconclusive",
      reason: "rules alone cannot clear a new file",
      checks_shown: ["src/auth/token.ts"],
    }),
    status: "resolved",
  },
  {
    rule: "3b a modified file: there is an earlier version, the rules' reading is not the only second opinion",
    request: ask(finding("SEC-03", "src/auth/session.ts")),
    check: report({ status: "inconclusive", checks_shown: [] }),
    status: "resolved",
  },
  {
    rule: "3c a new file whose finding is not SEC-03",
    request: ask(finding("DATA-01", "src/auth/token.ts")),
    check: report({ status: "inconclusive" }),
    status: "resolved",
  },
];

describe("withCrossCheck: a model's clearance against the deterministic investigation of the same question", () => {
  it.each(rows)("$rule", ({ request, check, status, reason }) => {
    const out = withCrossCheck(model, check, request, pr);
    expect(out.status).toBe(status);
    if (reason) expect(out.reason).toMatch(reason);
    else expect(out).toBe(model);
  });

  it("rule 1 carries the concerns and their lines to the person who decides", () => {
    const out = withCrossCheck(model, report({ concerns: [concern] }), newFile, pr);
    expect(out.concerns).toEqual([concern]);
    expect(out.evidence).toContainEqual(concern.evidence);
  });

  it("rule 2 names every new file it could not assess", () => {
    const two = { ...pr, files: [...pr.files, file("src/auth/login.ts", "added")] };
    const request = ask(finding("SEC-03", "src/auth/token.ts"), finding("SEC-03", "src/auth/login.ts"));
    const out = withCrossCheck(model, report({ checks_shown: [] }), request, two);
    expect(out.reason).toMatch(/^src\/auth\/token\.ts, src\/auth\/login\.ts are new authentication files/);
  });
});
