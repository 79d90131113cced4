import { describe, expect, it } from "vitest";
import type { Detector } from "../../src/detectors/detector.js";
import { dependencyLicensesDetector } from "../../src/detectors/licensing/dependency-licenses.js";
import { piiLoggingDetector } from "../../src/detectors/data/pii-logging.js";
import { credentialsDetector } from "../../src/detectors/security/credentials.js";
import { injectionDetector } from "../../src/detectors/security/injection.js";
import { weakCryptoDetector } from "../../src/detectors/security/weak-crypto.js";
import { workflowRiskDetector } from "../../src/detectors/security/workflow-risk.js";
import { fingerprint, withFingerprints } from "../../src/domain/fingerprint.js";
import type { Finding } from "../../src/domain/finding.js";
import { createOfflineResolver } from "../../src/licenses/offline-resolver.js";
import { TEST_REGISTRY } from "../detectors/licensing/test-registry.js";
import { addedFilePatch, buildPr, detectContext, headFiles } from "../detectors/pr-builder.js";

/** The fingerprints a detector's findings get for one added file. */
async function fingerprints(detector: Detector, filename: string, lines: string[]): Promise<Finding[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const ctx = detectContext(pr, {
    head: headFiles({ [filename]: lines.join("\n") }),
    licenses: createOfflineResolver(TEST_REGISTRY),
  });
  return withFingerprints(await detector.detect(ctx), pr.files);
}

/** 50 comment lines in the file's language. */
const fifty = (file: string) =>
  Array.from({ length: 50 }, (_, i) => `${file.endsWith(".yml") ? "#" : "//"} filler line ${i + 1}`);

/** [detector, file, lines before the offending one, the offending line, another function after it, that function edited]. */
const KINDS: Array<[string, Detector, string, string[], string, string[], string[]]> = [
  [
    "secrets",
    credentialsDetector,
    "src/config.ts",
    ["export function region() {", '  return "us-east-1";', "}"],
    'const awsKey = "AKIA' + 'Z7Q3XK2M9PLW4RTB";',
    ["export function other() {", "  return 1;", "}"],
    ["export function other() {", "  return 2 + 40;", "}"],
  ],
  [
    "injection",
    injectionDetector,
    "src/db.ts",
    ["export function a() {", "  return 1;", "}"],
    "  db.query(`SELECT * FROM users WHERE id = ${req.query.id}`);",
    ["export function b() {", "  return 1;", "}"],
    ["export function b() {", "  return 3;", "}"],
  ],
  [
    "weak crypto",
    weakCryptoDetector,
    "src/hash.ts",
    ['import crypto from "node:crypto";'],
    'const digest = crypto.createHash("md5").update(body).digest("hex");',
    ["export function b() {", "  return 1;", "}"],
    ["export function b() {", "  return 9;", "}"],
  ],
  [
    "PII logging",
    piiLoggingDetector,
    "src/signup.ts",
    ["export function a() {", "  return 1;", "}"],
    "  console.log(`signed up ${user.email}`);",
    ["export function b() {", "  return 1;", "}"],
    ["export function b() {", "  return 7;", "}"],
  ],
  [
    "workflow",
    workflowRiskDetector,
    ".github/workflows/ci.yml",
    [
      "name: PR checks",
      "on:",
      "  pull_request_target:",
      "jobs:",
      "  test:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "        with:",
    ],
    "          ref: ${{ github.event.pull_request.head.sha }}",
    [
      "      - run: npm install",
      "  label:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/labeler@v5",
    ],
    [
      "      - run: npm install",
      "  label:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/labeler@v6",
    ],
  ],
];

describe("finding fingerprints", () => {
  for (const [kind, detector, file, before, offending, after, edited] of KINDS) {
    it(`${kind}: unchanged when the finding moves 50 lines down or another function of the file is edited`, async () => {
      const original = await fingerprints(detector, file, [...before, offending, ...after]);
      expect(original.length).toBeGreaterThan(0);
      const moved = await fingerprints(detector, file, [...before, ...fifty(file), offending, ...after]);
      const otherEdited = await fingerprints(detector, file, [...before, offending, ...edited]);
      const prints = (fs: Finding[]) => fs.map((f) => f.fingerprint);
      expect(original.every((f) => f.fingerprint?.startsWith(`${f.policy}:`))).toBe(true);
      // The line moved (the number differs), the fingerprint did not.
      expect(moved.map((f) => f.line)).not.toEqual(original.map((f) => f.line));
      expect(prints(moved)).toEqual(prints(original));
      expect(prints(otherEdited)).toEqual(prints(original));
      // Changing the offending code itself changes it. A secret's fingerprint is its key material
      // (docs/fingerprints.md): another key changes it, a comment beside the same key does not.
      const change = kind === "secrets" ? offending.replace("RTB", "RTC") : `${offending} // changed`;
      const changed = await fingerprints(detector, file, [...before, change, ...after]);
      expect(prints(changed)).not.toEqual(prints(original));
      if (kind === "secrets") {
        const commented = await fingerprints(detector, file, [...before, `${offending} // changed`, ...after]);
        expect(prints(commented)).toEqual(prints(original));
      }
    });
  }

  it("dependency licences: by package and version, not by line; a new version is a new fingerprint", async () => {
    const manifest = (pad: string[], version: string) => [
      "{",
      ...pad,
      '  "dependencies": {',
      `    "gpl-chart-lib": "${version}",`,
      '    "zod": "^3.23.8"',
      "  }",
      "}",
    ];
    const padding = Array.from({ length: 50 }, (_, i) => `  "k${i}": ${i},`);
    const original = await fingerprints(dependencyLicensesDetector, "package.json", manifest([], "^2.1.0"));
    expect(original.map((f) => f.policy)).toContain("LIC-02");
    const moved = await fingerprints(dependencyLicensesDetector, "package.json", manifest(padding, "^2.1.0"));
    expect(moved[0]?.line).not.toBe(original[0]?.line);
    expect(moved.map((f) => f.fingerprint)).toEqual(original.map((f) => f.fingerprint));
    const bumped = await fingerprints(dependencyLicensesDetector, "package.json", manifest([], "^2.2.0"));
    expect(bumped[0]?.fingerprint).not.toBe(original[0]?.fingerprint);
  });

  it("is whitespace-insensitive, and names file and policy", () => {
    const base: Finding = {
      specialty: "security",
      policy: "SEC-04",
      severity: "high",
      blocking: true,
      needs_more_context: false,
      file: "a.ts",
      line: 3,
      message: "m",
      source: "model",
    };
    expect(fingerprint(base, "  eval( x )")).toBe(fingerprint({ ...base, line: 90 }, "eval(  x )"));
    expect(fingerprint(base, "eval( x )")).not.toBe(fingerprint({ ...base, file: "b.ts" }, "eval( x )"));
    expect(fingerprint(base, "eval( x )")).toMatch(/^SEC-04:[0-9a-f]{16}$/);
  });
});
