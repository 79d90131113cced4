import { describe, expect, it } from "vitest";
import { textMessage } from "../fakes/anthropic-api.js";
import { rawTarball, type RawEntry } from "../fakes/github-api.js";
import {
  latestReview,
  openPr,
  postWebhook,
  pullRequestEvent,
  serveFixture,
  stacksClosedAfterEach,
  type ServedPr,
  type Stack,
} from "../server/helpers.js";
import { routeByCaller, useFakeAnthropic } from "./helpers.js";

const fake = useFakeAnthropic();
const start = stacksClosedAfterEach();

const H1 = "a".repeat(40);
const H2 = "b".repeat(40);
const FILES = Array.from({ length: 10 }, (_, i) => `src/lib/f${i}.ts`);

/** The file's body at a head: one exported function (f3's returns another value at H2). */
function body(file: string, version: number): string[] {
  const name = file.replace(/\W/g, "_");
  // "fetch" is a trigger of DATA-03: the data specialist is asked about every file.
  return [`// ${name}: no fetch, no analytics`, `export function ${name}(): number {`, `  return ${version};`, "}"];
}

/** Serves a ten-file PR at a head (the PR's files from the fixture's PR, replaced). */
function serveTenFiles(s: Stack, headSha: string, versions: (file: string) => number): ServedPr {
  const pr = serveFixture(s, "001_readme_typo", { headSha });
  const files = FILES.map((filename) => {
    const lines = body(filename, versions(filename));
    return {
      filename,
      status: "added",
      additions: lines.length,
      deletions: 0,
      changes: lines.length,
      patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`,
    };
  });
  s.gh.setPull(pr.owner, pr.repo, pr.number, {
    pr: {
      number: pr.number,
      title: "Ten small helpers",
      body: "",
      html_url: pr.url,
      draft: false,
      state: "open",
      labels: [],
      user: { login: pr.author },
      base: { ref: "main", sha: "0".repeat(40), repo: { full_name: `${pr.owner}/${pr.repo}` } },
      head: { ref: "helpers", sha: headSha },
      changed_files: files.length,
    },
    files,
  });
  const top = `${pr.owner}-${pr.repo}-${headSha.slice(0, 7)}`;
  const entries: RawEntry[] = [
    { path: `${top}/`, type: "Directory" },
    ...FILES.map(
      (f): RawEntry => ({ path: `${top}/${f}`, type: "File", body: `${body(f, versions(f)).join("\n")}\n` }),
    ),
  ];
  s.gh.setTarball(pr.owner, pr.repo, headSha, rawTarball(entries));
  return { ...pr, headSha, title: "Ten small helpers" };
}

const FIRST = { input_tokens: 1000, output_tokens: 200, cache_creation_input_tokens: 0 };
const SECOND = { input_tokens: 500, output_tokens: 100, cache_creation_input_tokens: 0 };

describe("a new head re-runs the model specialists only on the files changed since the last review", () => {
  it("a push changing one file of ten sends only that file; the cost shown is the new calls'", async () => {
    const s = await start({
      env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: fake.api.url, GATE_RISK_THRESHOLD: "0" },
    });
    const empty = { findings: [], verdicts: [] };
    routeByCaller(fake.api, {}, (c) =>
      c === "investigator" || c === undefined ? undefined : textMessage(empty, FIRST),
    );
    const pr = serveTenFiles(s, H1, () => 1);
    const first = await openPr(s, pr);
    const firstResult = await s.server.gate.runner.result(first.id);
    const firstCalls = fake.api.requests.slice();
    expect(firstCalls.length).toBeGreaterThan(0);
    for (const r of firstCalls) for (const f of FILES) expect(r.raw).toContain(f);
    expect(firstResult.reviewed_files).toEqual([{ head_sha: H1, files: [...FILES].sort() }]);

    routeByCaller(fake.api, {}, (c) =>
      c === "investigator" || c === undefined ? undefined : textMessage(empty, SECOND),
    );
    const moved = serveTenFiles(s, H2, (f) => (f === "src/lib/f3.ts" ? 2 : 1));
    s.gh.setCompare(pr.owner, pr.repo, H1, H2, { status: "ahead", files: ["src/lib/f3.ts"] });
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", moved)))).status).toBe(202);
    await s.server.idle();
    const second = await latestReview(s, moved);
    expect(second.headSha).toBe(H2);
    const secondCalls = fake.api.requests.slice(firstCalls.length);
    // One call per specialist that ran, as before; each carries f3 alone.
    expect(secondCalls).toHaveLength(firstCalls.length);
    for (const r of secondCalls) {
      expect(r.raw).toContain("src/lib/f3.ts");
      for (const f of FILES.filter((f) => f !== "src/lib/f3.ts")) expect(r.raw).not.toContain(f);
    }
    const result = await s.server.gate.runner.result(second.id);
    expect(result.reviewed_files).toEqual([
      { head_sha: H2, files: ["src/lib/f3.ts"] },
      { head_sha: H1, files: FILES.filter((f) => f !== "src/lib/f3.ts").sort() },
    ]);
    // The budget is the new calls' alone: 500 × $2 + 100 × $10 per million each (Sonnet 5.5).
    expect(result.budget.model_calls).toBe(secondCalls.length);
    expect(result.budget.input_tokens).toBe(500 * secondCalls.length);
    expect(result.budget.cost_usd).toBeCloseTo(0.002 * secondCalls.length, 6);
    expect(firstResult.budget.cost_usd).toBeCloseTo(0.004 * firstCalls.length, 6);
  });

  it("a model's blocking finding on a file not read again stays (a model adds a block, never removes one)", async () => {
    const s = await start({
      env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: fake.api.url, GATE_RISK_THRESHOLD: "0" },
    });
    const flagged = {
      findings: [
        {
          policy: "DATA-03",
          severity: "high",
          blocking: true,
          needs_more_context: false,
          file: "src/lib/f5.ts",
          line: 3,
          message: "sends the user's record to a new third party",
        },
      ],
      verdicts: [],
    };
    routeByCaller(fake.api, { data: [textMessage(flagged, FIRST)] });
    const pr = serveTenFiles(s, H1, () => 1);
    const first = await openPr(s, pr);
    expect(first.status).toBe("waiting_for_human");
    const moved = serveTenFiles(s, H2, (f) => (f === "src/lib/f3.ts" ? 2 : 1));
    s.gh.setCompare(pr.owner, pr.repo, H1, H2, { status: "ahead", files: ["src/lib/f3.ts"] });
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", moved)))).status).toBe(202);
    await s.server.idle();
    const second = await latestReview(s, moved);
    const result = await s.server.gate.runner.result(second.id);
    expect(result.findings).toContainEqual(
      expect.objectContaining({ policy: "DATA-03", file: "src/lib/f5.ts", blocking: true }),
    );
    expect(result.route).toBe("human");
  });

  it("a force-push (history rewritten) sends every file again", async () => {
    const s = await start({
      env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: fake.api.url, GATE_RISK_THRESHOLD: "0" },
    });
    routeByCaller(fake.api, {});
    const pr = serveTenFiles(s, H1, () => 1);
    await openPr(s, pr);
    const before = fake.api.requests.length;
    const moved = serveTenFiles(s, H2, (f) => (f === "src/lib/f3.ts" ? 2 : 1));
    s.gh.setCompare(pr.owner, pr.repo, H1, H2, { status: "diverged", files: ["src/lib/f3.ts"] });
    expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("synchronize", moved)))).status).toBe(202);
    await s.server.idle();
    const again = fake.api.requests.slice(before);
    expect(again.length).toBeGreaterThan(0);
    for (const r of again) for (const f of FILES) expect(r.raw).toContain(f);
  });
});
