import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePullRequest } from "../../src/domain/pull-request.js";
import { createDeterministicStrategy } from "../../src/investigator/deterministic/strategy.js";
import { createInvestigator } from "../../src/investigator/investigator.js";
import { createSnapshotCache } from "../../src/snapshot/snapshot-cache.js";
import { silentLog } from "../helpers/gate.js";
import type { InvestigationRequest } from "../../src/domain/investigation.js";
import type { SnapshotRef } from "../../src/domain/snapshot-ref.js";

const fixturesDir = fileURLToPath(new URL("../../fixtures", import.meta.url));
const read = (f: string): unknown =>
  JSON.parse(readFileSync(`${fixturesDir}/003b_auth_change_logs_token/${f}`, "utf8"));
const pr = parsePullRequest(read("pr.json"), read("files.json"));
const request: InvestigationRequest = {
  question: "Does the change log the session token?",
  origin: "human",
  askedBy: "cli",
  findings: [],
};
const investigator = createInvestigator({
  newStrategy: createDeterministicStrategy,
  // No GitHub client: a GitHub snapshot this process has no copy of cannot be fetched.
  snapshots: createSnapshotCache({
    dataDir: "/nonexistent-gate-data",
    caps: { maxBytes: 1e6, maxFiles: 100, maxDepth: 10 },
    log: silentLog,
  }),
  limits: { maxTurns: 6, maxToolCalls: 12, maxFileChars: 60_000, timeoutMs: 10_000 },
});

describe("createInvestigator", () => {
  it("investigates a fixture snapshot and reports progress", async () => {
    const progress: number[] = [];
    const report = await investigator.investigate(request, {
      pr,
      snapshot: { kind: "fixture", fixturesDir, name: "003b_auth_change_logs_token" },
      onProgress: (p) => progress.push(p.tool_calls),
    });
    expect(report.status).toBe("resolved");
    expect(report.concerns[0]?.evidence.file).toBe("src/audit/audit.ts");
    expect(progress).toEqual(progress.map((_, i) => i + 1));
    expect(progress.length).toBe(report.tool_calls);
  });

  it.each<[string, SnapshotRef, RegExp]>([
    ["a hostile fixture name", { kind: "fixture", fixturesDir, name: "../../etc" }, /not a plain name/],
    ["a bad sha", { kind: "github", owner: "acme", repo: "accounts", sha: "HEAD" }, /40-hex/],
    ["no snapshot", { kind: "none" }, /no snapshot/],
    [
      "a snapshot not on disk that cannot be fetched",
      { kind: "github", owner: "acme", repo: "accounts", sha: "a".repeat(40) },
      /could not be fetched: GitHub is not configured/,
    ],
  ])("turns %s into an inconclusive report, never a throw", async (_name, snapshot, reason) => {
    const report = await investigator.investigate(request, { pr, snapshot });
    expect(report).toMatchObject({ status: "inconclusive", question: request.question, tool_calls: 0, askedBy: "cli" });
    expect(report.reason).toMatch(reason);
  });
});
