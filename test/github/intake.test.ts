import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { loadPullRequest, binaryByName } from "../../src/github/intake.js";
import { startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";

const HEAD = "a".repeat(40);
const BASE = "b".repeat(40);

function pullJson(number: number, changedFiles: number) {
  return {
    number,
    title: `PR ${number}`,
    body: null,
    html_url: `https://github.com/acme/web/pull/${number}`,
    user: { login: "dev" },
    draft: false,
    labels: [{ name: "deps" }],
    base: { ref: "main", sha: BASE, repo: { full_name: "acme/web" } },
    head: { ref: "feature", sha: HEAD },
    changed_files: changedFiles,
  };
}

function textFile(i: number) {
  return {
    filename: `src/file-${i}.ts`,
    status: "modified",
    additions: 1,
    deletions: 0,
    changes: 1,
    patch: `@@ -1,0 +1,1 @@\n+line ${i}`,
  };
}

describe("loadPullRequest against a fake GitHub", () => {
  let gh: FakeGitHub;
  let octokit: Octokit;
  beforeAll(async () => {
    gh = await startFakeGitHub();
    octokit = new Octokit({ baseUrl: gh.url, auth: "ghp_test" });
  });
  afterAll(() => gh.close());

  it("follows pagination and builds the same PullRequest a fixture would give", async () => {
    const files = Array.from({ length: 250 }, (_, i) => textFile(i));
    gh.setPull("acme", "web", 1, { pr: pullJson(1, 250), files });
    const { pr, incomplete } = await loadPullRequest(octokit, { owner: "acme", repo: "web", number: 1 });
    expect(incomplete).toBeUndefined();
    expect(pr.files).toHaveLength(250);
    expect(pr.files[249]?.filename).toBe("src/file-249.ts");
    expect(pr).toMatchObject({
      repo: "acme/web",
      number: 1,
      headSha: HEAD,
      baseSha: BASE,
      author: "dev",
      labels: ["deps"],
      body: "",
    });
    const pages = gh.find("GET", /\/pulls\/1\/files$/);
    expect(pages.map((r) => r.query.page ?? "1")).toEqual(["1", "2", "3"]);
    expect(pages.every((r) => r.query.per_page === "100")).toBe(true);
    expect(gh.requests.every((r) => r.authorization === "token ghp_test")).toBe(true);
  });

  it("flags a PR at GitHub's 3,000-file cap as incomplete", async () => {
    const files = Array.from({ length: 3100 }, (_, i) => textFile(i));
    gh.setPull("acme", "web", 2, { pr: pullJson(2, 3100), files });
    const { pr, incomplete } = await loadPullRequest(octokit, { owner: "acme", repo: "web", number: 2 });
    expect(pr.files).toHaveLength(3000);
    expect(incomplete).toMatch(/3000 of the 3100 changed files/);
  });

  it("flags a text file without a patch, but not binaries, removals or pure renames", async () => {
    const files = [
      textFile(1),
      { filename: "src/huge.ts", status: "modified", additions: 90000, deletions: 0, changes: 90000 },
      { filename: "assets/logo.PNG", status: "added", additions: 0, deletions: 0, changes: 0 },
      { filename: "assets/font.woff2", status: "modified", additions: 3, deletions: 1, changes: 4 },
      { filename: "old.ts", status: "removed", additions: 0, deletions: 40, changes: 40 },
      {
        filename: "new-name.ts",
        previous_filename: "old-name.ts",
        status: "renamed",
        additions: 0,
        deletions: 0,
        changes: 0,
      },
    ];
    gh.setPull("acme", "web", 3, { pr: pullJson(3, files.length), files });
    const { pr, incomplete } = await loadPullRequest(octokit, { owner: "acme", repo: "web", number: 3 });
    expect(incomplete).toBe("GitHub gave no diff for 1 text file(s): src/huge.ts");
    expect(pr.files.find((f) => f.filename === "new-name.ts")?.previousFilename).toBe("old-name.ts");
  });

  it("turns a missing PR into GITHUB_INTAKE", async () => {
    const error = await loadPullRequest(octokit, { owner: "acme", repo: "web", number: 404 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GateError);
    expect(error).toMatchObject({ code: "GITHUB_INTAKE" });
    expect(String((error as Error).message)).toContain("acme/web#404");
  });
});

describe("binaryByName", () => {
  it.each([
    ["a/b/logo.png", true],
    ["lib/x.JAR", true],
    ["favicon.ico", true],
    ["src/index.ts", false],
    [".png", false],
    ["Makefile", false],
  ])("%s → %s", (name, expected) => {
    expect(binaryByName(name)).toBe(expected);
  });
});
