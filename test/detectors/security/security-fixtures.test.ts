import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixtureOsvRecords } from "../../../src/advisories/offline-records.js";
import { advisorySourceOver } from "../../../src/advisories/record-source.js";
import { authChangeDetector } from "../../../src/detectors/security/auth-change.js";
import { credentialsDetector } from "../../../src/detectors/security/credentials.js";
import type { Detector } from "../../../src/detectors/detector.js";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { weakCryptoDetector } from "../../../src/detectors/security/weak-crypto.js";
import { vulnerableDependenciesDetector } from "../../../src/detectors/security/vulnerable-dependencies.js";
import { workflowRiskDetector } from "../../../src/detectors/security/workflow-risk.js";
import { parsePullRequest } from "../../../src/domain/pull-request.js";
import { buildPr, detectContext, headFiles } from "../pr-builder.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const SECURITY_DETECTORS: Detector[] = [
  credentialsDetector,
  injectionDetector,
  authChangeDetector,
  workflowRiskDetector,
  weakCryptoDetector,
  vulnerableDependenciesDetector,
];
const SECURITY_FIXTURES = [
  "004_hardcoded_aws_key",
  "005_readme_typo_with_secret",
  "006_sql_injection",
  "007_workflow_pull_request_target",
  "008_weak_crypto",
];

/** The evaluation corpus's security fixtures (risky `sec-*` and clean `clean-sec-*`), in JS/TS, Python and Go. */
const EVAL_SECURITY_FIXTURES = fs
  .readdirSync(path.join(FIXTURES, "eval"))
  .filter((d) => /^(sec|clean-sec)-/.test(d))
  .map((d) => `eval/${d}`)
  .sort();

interface Expected {
  route: string;
  must_cite: string[];
  must_not_cite: string[];
  max_model_calls: number;
}

function readJson(dir: string, file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, dir, file), "utf8"));
}

/** The fixture's `repo/` files (a partial head snapshot), read into memory. */
function fixtureHead(dir: string): Record<string, string> {
  const root = path.join(FIXTURES, dir, "repo");
  if (!fs.existsSync(root)) return {};
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    out[path.relative(root, abs).split(path.sep).join("/")] = fs.readFileSync(abs, "utf8");
  }
  return out;
}

describe("security detectors on the security fixtures", () => {
  it("the evaluation corpus has risky and clean security fixtures in three languages", () => {
    const risky = EVAL_SECURITY_FIXTURES.filter((d) => d.startsWith("eval/sec-"));
    const clean = EVAL_SECURITY_FIXTURES.filter((d) => d.startsWith("eval/clean-sec-"));
    expect(risky.length).toBeGreaterThanOrEqual(15);
    expect(clean.length).toBeGreaterThanOrEqual(10);
    for (const lang of ["-py-", "-go-", "-ts-"])
      expect(risky.some((d) => d.includes(lang)) && clean.some((d) => d.includes(lang))).toBe(true);
  });

  it.each([...SECURITY_FIXTURES, ...EVAL_SECURITY_FIXTURES])(
    "%s: cites what expected.json demands, and nothing it forbids",
    async (dir) => {
      const pr = parsePullRequest(readJson(dir, "pr.json"), readJson(dir, "files.json"));
      const expected = readJson(dir, "expected.json") as Expected;
      // SEC-07 reads the fixture's own osv.json, as the embedded default does.
      const ctx = {
        ...detectContext(pr, { head: headFiles(fixtureHead(dir)) }),
        advisories: advisorySourceOver(fixtureOsvRecords(path.join(FIXTURES, dir, "osv.json"))),
      };
      const findings = (await Promise.all(SECURITY_DETECTORS.map((d) => d.detect(ctx)))).flat();
      const cited = new Set(findings.map((f) => f.policy));

      for (const id of expected.must_cite.filter((p) => p.startsWith("SEC-"))) expect(cited).toContain(id);
      for (const id of expected.must_not_cite) expect(cited).not.toContain(id);
      // A blocking detector finding sends the PR to a person; non-blocking ones alone do not.
      const blocking = findings.some((f) => f.blocking);
      expect(blocking).toBe(expected.route === "human");
      expect(expected.max_model_calls).toBe(0);
      for (const f of findings) {
        expect(f.source).toBe("detector");
        expect(f.line).toBeGreaterThan(0);
      }
    },
  );

  it("never puts a fixture's secret in a message", async () => {
    for (const dir of ["004_hardcoded_aws_key", "005_readme_typo_with_secret"]) {
      const pr = parsePullRequest(readJson(dir, "pr.json"), readJson(dir, "files.json"));
      const findings = await credentialsDetector.detect(detectContext(pr));
      expect(findings.length).toBeGreaterThan(0);
      for (const f of findings) {
        expect(f.message).not.toMatch(
          /AKIAFAKEFIXTURE00001|wJalrXUtnFEMI\/K7MDENG|ghp_FAKE0docs0fixture0token0not0real0005/,
        );
        expect(f.message).toContain("masked");
      }
    }
  });

  it("copes with an empty PR, missing patches, binary text and malformed hunks", async () => {
    const odd = buildPr({
      files: [
        { filename: "assets/logo.png", status: "added" },
        { filename: "src/auth/blob.bin", patch: "@@ -0,0 +1,2 @@\n+\u0000\u0001\u0002PNG\n+\u0000eval(x)" },
        { filename: ".github/workflows/x.yml", patch: "not a hunk at all\n+on: [" },
        { filename: "src/long.ts", patch: `@@ -0,0 +1 @@\n+${"a".repeat(50_000)}` },
      ],
    });
    for (const pr of [buildPr(), odd]) {
      for (const d of SECURITY_DETECTORS) {
        const findings = await d.detect(detectContext(pr));
        expect(Array.isArray(findings)).toBe(true);
        expect(findings.every((f) => f.policy.startsWith("SEC-"))).toBe(true);
      }
    }
  });
});
