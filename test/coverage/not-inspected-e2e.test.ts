import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ReviewResult } from "../../src/domain/review-result.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { defined } from "../helpers/defined.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";
import {
  checkRunsOn,
  postWebhook,
  pullRequestEvent,
  record,
  serveFixture,
  stacksClosedAfterEach,
} from "../server/helpers.js";

/**
 * Each change the detectors could not read, or could only read whole at its new path, ends with a
 * person: `not_inspected` naming the file and why, or the policy the whole-file read finds.
 */
const CASES = [
  { fixture: "eval/cov-perl-cgi-shell", file: "cgi-bin/hostcheck.pl", reason: "not_inspected", says: "perl" },
  {
    fixture: "eval/cov-added-shared-object",
    file: "vendor/lib/libimagefast.so",
    reason: "not_inspected",
    says: "binary",
  },
  { fixture: "eval/cov-long-comment-logs-email", file: "src/users/notify.ts", reason: "not_inspected", says: "line 5" },
  {
    fixture: "eval/cov-long-line-sql-padding",
    file: "src/orders/export.ts",
    reason: "blocking_finding",
    says: "SEC-02",
  },
  { fixture: "eval/cov-renamed-gpl-manifest", file: "package.json", reason: "blocking_finding", says: "LIC-02" },
  {
    fixture: "eval/cov-renamed-workflow",
    file: ".github/workflows/preview.yml",
    reason: "blocking_finding",
    says: "SEC-04",
  },
] as const;

const dir = tempDir("gate-coverage-");
const env = { ...process.env, GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "silent" };
delete (env as Record<string, string | undefined>).ANTHROPIC_API_KEY;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function expectNamed(result: ReviewResult, c: (typeof CASES)[number]): void {
  expect(result.route).toBe("human");
  expect(result.escalation?.reason).toBe(c.reason);
  if (c.reason === "not_inspected") {
    expect(result.escalation?.detail).toContain(c.file);
    expect(result.escalation?.detail).toContain(c.says);
    expect(result.coverage?.complete).toBe(false);
    expect(result.coverage?.unread.map((u) => u.file)).toEqual([c.file]);
  } else {
    expect(result.findings.some((f) => f.policy === c.says && f.file === c.file && f.blocking)).toBe(true);
    expect(result.coverage?.complete).toBe(true);
  }
}

describe("changes the detectors cannot read go to a person", { timeout: 180_000 }, () => {
  it.each(CASES)("through the CLI: $fixture", async (c) => {
    const r = await runGateCli(["review", path.join(BUNDLED_FIXTURES_DIR, c.fixture), "--json"], { env, cwd: dir });
    expect(r.code).toBe(0);
    expectNamed(JSON.parse(r.stdout) as ReviewResult, c);
  });

  const start = stacksClosedAfterEach();

  it("through the server: every check run is action_required, naming what was not read", async () => {
    const s = await start();
    const served = CASES.map((c) => ({ c, pr: serveFixture(s, c.fixture) }));
    for (const { pr } of served) {
      expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
    }
    await s.server.idle();
    for (const { c, pr } of served) {
      const [run, ...more] = checkRunsOn(s.gh, pr.headSha);
      expect(more).toHaveLength(0);
      expect(run?.fields.conclusion, c.fixture).toBe("action_required");
      const summary = String(record(record(defined(run).fields.output)).summary);
      expect(summary).toContain(`**${c.reason}**`);
      expect(summary).toContain(c.file);
      if (c.reason === "not_inspected") {
        expect(summary).toContain("### Coverage");
        expect(run?.annotations).toContainEqual(
          expect.objectContaining({
            path: c.file,
            annotation_level: "failure",
            title: expect.stringContaining("Not read by the detectors"),
          }),
        );
      }
    }
  });
});
