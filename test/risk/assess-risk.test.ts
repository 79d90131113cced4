import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/domain/finding.js";
import type { ChangedFile, PullRequest } from "../../src/domain/pull-request.js";
import { assessRisk, fileKinds } from "../../src/risk/assess-risk.js";

const file = (filename: string, patch = "@@ -1,1 +1,1 @@\n-a\n+b", over: Partial<ChangedFile> = {}): ChangedFile => ({
  filename,
  status: "modified",
  additions: 1,
  deletions: 1,
  changes: 2,
  patch,
  ...over,
});
const pr = (files: ChangedFile[]): PullRequest => ({
  repo: "acme/web",
  number: 1,
  title: "t",
  body: "",
  author: "a",
  draft: false,
  labels: [],
  baseRef: "main",
  baseSha: "b".repeat(40),
  headRef: "x",
  headSha: "a".repeat(40),
  url: "",
  files,
});
const finding: Finding = {
  specialty: "security",
  policy: "SEC-01",
  severity: "critical",
  blocking: true,
  needs_more_context: false,
  message: "key",
  source: "detector",
};
const THRESHOLD = 30;

describe("assessRisk (cost gate one)", () => {
  it.each([
    ["docs only", [file("README.md"), file("docs/setup.md")], "docs"],
    ["tests only", [file("test/user.test.ts"), file("src/__tests__/a.spec.js")], "tests"],
    [
      "pure renames",
      [file("src/a.ts", undefined, { status: "renamed", changes: 0, additions: 0, deletions: 0 })],
      "rename",
    ],
    [
      "a version-only manifest edit",
      [
        file(
          "package.json",
          '@@ -10,3 +10,3 @@\n   "dependencies": {\n-    "left-pad": "^1.2.0",\n+    "left-pad": "^1.3.0",',
        ),
      ],
      "deps",
    ],
  ])("scores %s below the threshold", (_name, files, cls) => {
    const r = assessRisk(pr(files), []);
    expect(r.score).toBeLessThan(THRESHOLD);
    expect(r.class).toBe(cls);
  });

  it.each([
    [
      "a new dependency",
      [
        file(
          "package.json",
          '@@ -10,2 +10,3 @@\n   "dependencies": {\n+    "gpl-lib": "^2.0.0",\n     "left-pad": "^1.3.0"',
        ),
      ],
      "deps",
    ],
    ["a CI workflow", [file(".github/workflows/ci.yml")], "ci"],
    ["auth code", [file("src/auth/session.ts")], "auth"],
    ["application code", [file("src/orders/service.ts")], "code"],
  ])("scores %s at or above the threshold", (_name, files, cls) => {
    const r = assessRisk(pr(files), []);
    expect(r.score).toBeGreaterThanOrEqual(THRESHOLD);
    expect(r.class).toBe(cls);
  });

  it("any detector finding scores high, even on a docs-only change", () => {
    const r = assessRisk(pr([file("README.md")]), [finding]);
    expect(r.score).toBeGreaterThanOrEqual(90);
    expect(r.reasons[0]).toMatch(/SEC-01/);
  });

  it("a failed detector scores high (fail closed)", () => {
    expect(assessRisk(pr([file("README.md")]), [], ["credentials (SEC-01)"]).score).toBeGreaterThanOrEqual(90);
  });

  it("very large PRs score higher", () => {
    const big = file("src/a.ts", "@@ -1 +1 @@\n+x", { additions: 2500, changes: 2500 });
    const small = file("src/a.ts");
    expect(assessRisk(pr([big]), []).score - assessRisk(pr([small]), []).score).toBeGreaterThanOrEqual(25);
  });

  it.each([
    [
      "a pure rename into .github/workflows (it activates the workflow)",
      ".github/workflows-disabled/deploy.yml",
      ".github/workflows/deploy.yml",
      "ci",
    ],
    ["a pure rename onto a dependency manifest", "package.json.bak", "package.json", "deps"],
  ])("scores %s at or above the threshold", (_name, from, to, cls) => {
    const moved = file(to, undefined, {
      status: "renamed",
      previousFilename: from,
      changes: 0,
      additions: 0,
      deletions: 0,
    });
    const r = assessRisk(pr([moved]), []);
    expect(r.score).toBeGreaterThanOrEqual(THRESHOLD);
    expect(r.class).toBe(cls);
  });

  it("a lockfile edit that adds a package scores at or above the threshold", () => {
    const lock = file(
      "package-lock.json",
      '@@ -20,6 +20,12 @@\n     "node_modules/left-pad": {\n       "version": "1.3.0",\n+    },\n+    "node_modules/evil-pkg": {\n+      "version": "1.0.0",\n+      "resolved": "https://evil.example/evil-pkg-1.0.0.tgz",\n+      "integrity": "sha512-AAAAbbbbCCCC1234+/=="',
    );
    const r = assessRisk(pr([lock]), []);
    expect(r.score).toBeGreaterThanOrEqual(THRESHOLD);
    expect(r.class).toBe("deps");
  });

  it("a lockfile edit that only bumps versions (and their hashes) stays low", () => {
    const lock = file(
      "package-lock.json",
      '@@ -20,6 +20,6 @@\n     "node_modules/left-pad": {\n-      "version": "1.2.0",\n-      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.2.0.tgz",\n-      "integrity": "sha512-9xQq1Zk0Yq+Q/ab/9Z=="\n+      "version": "1.3.0",\n+      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n+      "integrity": "sha512-Ab7c+9Qd0z/1kk=="',
    );
    const r = assessRisk(pr([lock]), []);
    expect(r.score).toBeLessThan(THRESHOLD);
    expect(r.class).toBe("deps");
  });

  it.each([["docs/build/publish.sh"], ["src/doc/handler.ts"], ["docs/Dockerfile"], ["CMakeLists.txt"]])(
    "code or build files under a docs folder are not docs: %s",
    (name) => {
      const r = assessRisk(pr([file(name)]), []);
      expect(r.score).toBeGreaterThanOrEqual(THRESHOLD);
      expect(r.class).not.toBe("docs");
    },
  );

  it("an empty PR scores 0", () => {
    expect(assessRisk(pr([]), [])).toEqual({ score: 0, class: "empty", reasons: ["no changed files"] });
  });

  it("is pure: the same input gives the same output", () => {
    const input = pr([file("src/auth/login.ts"), file("README.md")]);
    expect(assessRisk(input, [])).toEqual(assessRisk(structuredClone(input), []));
  });

  it("scores the same from file kinds worked out beforehand (as the graph does, a few at a time) as on its own", () => {
    const paths = { docs: ["handbook/**"], tests: ["checks/**"], generated: ["gen/**"] };
    const input = pr([
      file("handbook/setup.txt"),
      file("checks/login.py"),
      file("gen/client.ts"),
      file("src/auth/login.ts"),
      file(".github/workflows/ci.yml"),
      file("package.json"),
    ]);
    const kinds = input.files.map(fileKinds(paths));
    expect(kinds).toEqual(["docs", "tests", "docs", "auth", "ci", "deps"]);
    expect(assessRisk(input, [], [], paths, kinds)).toEqual(assessRisk(input, [], [], paths));
    // The kinds given are the ones counted: the same files said to be docs score as docs.
    expect(
      assessRisk(
        input,
        [],
        [],
        paths,
        kinds.map(() => "docs"),
      ).class,
    ).toBe("docs");
  });
});
