import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { PullRequest } from "../../../src/domain/pull-request.js";
import { RulesOverrun, rulesRunner, type RulesRunner } from "../../../src/detectors/offload/rules-runner.js";
import { parsePolicyFile } from "../../../src/policy/load-policies.js";
import { addedFileEntry } from "./rule-policies.js";

const SOURCE = "acme/web:.github/gate/policies/ACME-02.md@0123456789ab";
const policy = (rules: string) =>
  `---\nid: ACME-02\ntitle: Team rules\nspecialty: security\nseverity: high\nblocking: true\nversion: 1\nrules:\n${rules}---\n# ACME-02\n\nThe team's rules.\n`;
const RETIRED = policy(
  `  - id: no-retired\n    language: TypeScript\n    rule: { pattern: "retired($$$A)" }\n    message: retired is retired\n`,
);
/** Two levels of `inside` over a `has`, all to the end: about a minute of one native search on 1,600 lines. */
const NESTED = policy(`  - id: nested-inside
    language: TypeScript
    rule:
      kind: identifier
      inside:
        stopBy: end
        inside:
          stopBy: end
          has: { stopBy: end, kind: identifier, regex: "^never_named$" }
    message: nested
`);

const prOf = (files: Record<string, unknown>[]) => ({ files }) as unknown as PullRequest;
const BIG = prOf([
  addedFileEntry(
    "src/table.ts",
    Array.from({ length: 1_600 }, (_, i) => `export const v${i} = f${i}(a${i});`).join("\n"),
  ),
]);
const SMALL = prOf([addedFileEntry("src/a.ts", "const x = 1;\nretired(x);\n")]);

let runner: RulesRunner | undefined;
afterEach(async () => {
  await runner?.close();
  runner = undefined;
});
const started = () => {
  runner = rulesRunner(pino({ level: "silent" }), 60_000);
  if (!runner) throw new Error("no rules process script beside the runner");
  return runner;
};

describe("the rules process", { timeout: 120_000 }, () => {
  it("runs a repository's rules (parsed there) and a server's, with their findings and what each read", async () => {
    const r = started();
    const server = parsePolicyFile("policies/ACME-09.md", RETIRED.replaceAll("ACME-02", "ACME-09"));
    const out = await r.rules(SMALL, [server], [{ source: SOURCE, text: RETIRED }], 5_000);
    expect(out.outcomes.map((o) => ("findings" in o ? `${o.detector}:${o.findings.map((f) => f.line)}` : o))).toEqual([
      "rules:ACME-09:2",
      "rules:ACME-02:2",
    ]);
    expect(out.readBy).toEqual([
      ["rules:ACME-09", ["src/a.ts"]],
      ["rules:ACME-02", ["src/a.ts"]],
    ]);
  });

  it("a rule still searching past its budget is stopped mid-search, named; a fresh process takes the next job", async () => {
    const r = started();
    const before = performance.now();
    const overrun = await r.rules(BIG, [], [{ source: SOURCE, text: NESTED }], 1_000).catch((e: unknown) => e);
    expect(overrun).toBeInstanceOf(RulesOverrun);
    expect((overrun as RulesOverrun).rule).toBe(`rule nested-inside of ACME-02 (${SOURCE}) on src/table.ts`);
    // Killed at its budget (plus start-up), not after the minute the search takes.
    expect(performance.now() - before).toBeLessThan(20_000);
    const next = await r.rules(SMALL, [], [{ source: SOURCE, text: RETIRED }], 5_000);
    expect(next.outcomes).toMatchObject([{ detector: "rules:ACME-02", findings: [{ line: 2 }] }]);
  });

  it("checks a repository's files there: a refused rule is the problem, naming file, line and rule", async () => {
    const r = started();
    const broken = RETIRED.replace('{ pattern: "retired($$$A)" }', "{ kind: not_a_kind }");
    const checked = await r.checkPolicies([{ source: SOURCE, text: broken }], []);
    expect(checked.policies).toEqual([]);
    expect(checked.problem).toContain(`${SOURCE}:9: rule no-retired of ACME-02: ast-grep refuses it`);
    const ok = await r.checkPolicies(
      [{ source: SOURCE, text: RETIRED }],
      [{ id: "SEC-01", source: "policies/SEC-01.md" }],
    );
    expect(ok.policies.map((p) => [p.id, p.rules.length])).toEqual([["ACME-02", 1]]);
  });

  it("a policy read for its prose skips its rules: 5,000 rules cost nothing on the answering thread", () => {
    const many = policy(
      Array.from(
        { length: 5_000 },
        (_, i) =>
          `  - id: r${i}\n    language: TypeScript\n    rule: { pattern: "h${i}($$$A)" }\n    message: retired\n`,
      ).join(""),
    );
    const t = performance.now();
    const prose = parsePolicyFile(SOURCE, many, { rules: false });
    // Slack for a busy 2-core machine: the bound catches rules being compiled, not a slow moment.
    expect(performance.now() - t).toBeLessThan(2_000);
    expect(prose).toMatchObject({ id: "ACME-02", rules: [], text: "# ACME-02\n\nThe team's rules." });
    expect(parsePolicyFile(SOURCE, many).rules).toHaveLength(5_000);
  });
});
