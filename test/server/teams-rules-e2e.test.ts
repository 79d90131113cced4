import path from "node:path";
import { describe, expect, it } from "vitest";
import { addedFileEntry, LEGACY_BASE_SHA, legacyFixture } from "../detectors/rules/rule-policies.js";
import * as stack from "./helpers.js";
import { p99, probeWhile } from "./probes.js";

// Teams' ast-grep rules run in a child process (src/detectors/offload/rules-runner.ts): a rule
// that searches past GATE_RULES_BUDGET_MS is stopped mid-search, while the server goes on answering.
const start = stack.stacksClosedAfterEach();
const DIR = ".github/gate/policies";
const AT = LEGACY_BASE_SHA.slice(0, 12);

const policy = (id: string, rules: string) =>
  `---\nid: ${id}\ntitle: Team rules ${id}\nspecialty: security\nseverity: high\nblocking: true\nversion: 1\nrules:\n${rules}---\n# ${id}\n\nThe team's own rules.\n`;

/**
 * Two levels of `inside`, each `stopBy: end`, over a `has` that also goes to the end: for each
 * identifier, every ancestor's ancestors search the whole tree again. Quadratic and worse: on a
 * 1,600-line file ast-grep searches about a minute, in one native call.
 */
const PATHOLOGICAL = policy(
  "ACME-02",
  `  - id: nested-inside
    language: TypeScript
    rule:
      kind: identifier
      inside:
        stopBy: end
        inside:
          stopBy: end
          has: { stopBy: end, kind: identifier, regex: "^never_named$" }
    message: an identifier inside something inside something
`,
);

/** 5,000 rules, each looking for its own retired helper. */
const manyRules = (id: string, n: number) =>
  policy(
    id,
    Array.from(
      { length: n },
      (_, i) =>
        `  - id: ${id.toLowerCase()}-${i}\n    language: TypeScript\n    rule: { pattern: "retiredHelper${i}($$$A)" }\n    message: retiredHelper${i} is retired\n`,
    ).join(""),
  );

/** A 1,600-line TypeScript file the PR adds. */
const BIG_FILE = addedFileEntry(
  "src/generated/table.ts",
  Array.from({ length: 1_600 }, (_, i) => `export const v${i} = lookup${i}(a${i}, b${i});`).join("\n"),
);

function serveLegacy(s: stack.Stack) {
  const fixture = legacyFixture([BIG_FILE]);
  return stack.serveFixture(s, path.basename(fixture), { fixturesDir: path.dirname(fixture) });
}

/** Opens the PR by a signed webhook and probes the server until the review settles; its result and the probes' p99s. */
async function reviewWhileProbing(s: stack.Stack, label: string) {
  const pr = serveLegacy(s);
  let settled = false;
  const probing = probeWhile(s.base, () => !settled);
  expect((await stack.postWebhook(s.base, JSON.stringify(stack.pullRequestEvent("opened", pr)))).status).toBe(202);
  await s.server.idle();
  settled = true;
  const probes = await probing;
  const result = await s.server.gate.runner.result((await stack.latestReview(s, pr)).id);
  const figures = { health: p99(probes.health), webhook: p99(probes.webhook), probes: probes.health.length };
  process.stdout.write(`${label} probes (ms p99): ${JSON.stringify(figures)}\n`);
  expect(probes.health.length).toBeGreaterThan(5);
  expect(figures.health).toBeLessThan(1_000);
  expect(figures.webhook).toBeLessThan(1_000);
  return result;
}

describe("teams' rules off the answering thread", { timeout: 240_000 }, () => {
  it("a two-level inside rule on a 1,600-line PR: stopped at its budget, the server answers within 1 s at p99, a person decides with the rule named", async () => {
    const s = await start({ env: { GATE_RULES_BUDGET_MS: "1500", GATE_WORKERS: "1" } });
    s.gh.setContent("acme", "portal", LEGACY_BASE_SHA, `${DIR}/ACME-02.md`, PATHOLOGICAL);
    const started = performance.now();
    const result = await reviewWhileProbing(s, "pathological rule");
    // Stopped within its budget, not after the minute the search would take.
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(result.route).toBe("human");
    expect(result.escalation?.detail).toContain(
      `rule nested-inside of ACME-02 (acme/portal:${DIR}/ACME-02.md@${AT}) on src/generated/table.ts`,
    );
    expect(result.escalation?.detail).toContain("GATE_RULES_BUDGET_MS");
    // The files a rule could search are listed unread.
    expect(result.coverage?.unread?.find((u) => u.file === "src/generated/table.ts")?.detail).toContain(
      "teams' rules did not finish",
    );
  });

  it("20,000 rules in four policy files: the server answers within 1 s at p99, a person decides with the rule that ran out named", async () => {
    const s = await start({ env: { GATE_RULES_BUDGET_MS: "1500", GATE_WORKERS: "1" } });
    for (const id of ["MANY-01", "MANY-02", "MANY-03", "MANY-04"])
      s.gh.setContent("acme", "portal", LEGACY_BASE_SHA, `${DIR}/${id}.md`, manyRules(id, 5_000));
    const result = await reviewWhileProbing(s, "20,000 rules");
    expect(result.route).toBe("human");
    // The rule searching when the budget ran out, by id, policy and file; every file a rule could search is unread.
    expect(result.escalation?.detail).toMatch(
      new RegExp(
        `rule many-01-\\d+ of MANY-01 \\(acme/portal:${DIR}/MANY-01\\.md@${AT}\\) on src/generated/table\\.ts`,
      ),
    );
    expect(result.escalation?.detail).toContain("GATE_RULES_BUDGET_MS");
    expect(result.coverage?.unread?.map((u) => u.file).sort()).toEqual([
      "app/session.py",
      "src/admin/session.ts",
      "src/generated/table.ts",
    ]);
  });

  it("a symlinked, a .MD, a sub-folder and an oversized policy file are named, and the review goes to a person", async () => {
    const s = await start();
    s.gh.setSymlink("acme", "portal", LEGACY_BASE_SHA, `${DIR}/LINKED.md`, "../../org-policies/LINKED.md");
    s.gh.setContent("acme", "portal", LEGACY_BASE_SHA, `${DIR}/SHOUT.MD`, PATHOLOGICAL);
    s.gh.setContent("acme", "portal", LEGACY_BASE_SHA, `${DIR}/team/ACME-03.md`, PATHOLOGICAL);
    s.gh.setContent("acme", "portal", LEGACY_BASE_SHA, `${DIR}/HUGE.md`, `${PATHOLOGICAL}\n${"x".repeat(1_100_000)}\n`);
    const pr = serveLegacy(s);
    const result = await s.server.gate.runner.result((await stack.openPr(s, pr)).id);
    expect(result.route).toBe("human");
    const detail = result.escalation?.detail ?? "";
    expect(detail).toContain(`acme/portal:${DIR}/LINKED.md@${AT} is not read (a symbolic link`);
    expect(detail).toContain(
      `acme/portal:${DIR}/SHOUT.MD@${AT} is not read (its extension is not \`.md\` in lower case)`,
    );
    expect(detail).toContain(`acme/portal:${DIR}/team@${AT} is not read (a sub-folder`);
    expect(detail).toMatch(
      new RegExp(`acme/portal:${DIR}/HUGE\\.md@${AT} is not read \\(\\d+ bytes; at most 1048576 are read\\)`),
    );
    // None of them ran: the pathological rule would have sent the review to a person for another reason.
    expect(detail).not.toContain("nested-inside");
  });
});
