import { parsePullRequest, type PullRequest } from "../../src/domain/pull-request.js";

/** A pull request in GitHub's REST shapes (what pr.json and files.json hold). */
export interface PrJson {
  pr: unknown;
  files: Array<{
    filename: string;
    status: string;
    additions: number;
    deletions: number;
    changes: number;
    patch: string;
  }>;
}

const PULL = {
  number: 1,
  title: "Add one file",
  body: "A synthetic pull request for the pre-check differential.",
  user: { login: "precheck-differential" },
  base: { ref: "main", sha: "a".repeat(40), repo: { full_name: "acme/service" } },
  head: { ref: "add-file", sha: "b".repeat(40) },
};

/**
 * A pull request, in GitHub's REST shapes, that adds each file with all its lines: one hunk
 * `@@ -0,0 +1,N @@`, as GitHub shows a new file. A final line break ends the last line, it adds none.
 *
 * @example addedFilesPr([{ path: "src/a.ts", text: "x\n" }]).files[0] // { filename: "src/a.ts", patch: "@@ -0,0 +1,1 @@\n+x", ... }
 */
export function addedFilesPr(files: ReadonlyArray<{ path: string; text: string }>): PrJson {
  return {
    pr: PULL,
    files: files.map(({ path, text }) => {
      const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
      return {
        filename: path,
        status: "added",
        additions: lines.length,
        deletions: 0,
        changes: lines.length,
        patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join("\n"),
      };
    }),
  };
}

/**
 * The same pull request as the gate's `PullRequest` value, parsed as a fixture's JSON is.
 *
 * @example addedFilesPullRequest([{ path: "app.py", text: "import os\n" }]).files.length // 1
 */
export function addedFilesPullRequest(files: ReadonlyArray<{ path: string; text: string }>): PullRequest {
  const { pr, files: json } = addedFilesPr(files);
  return parsePullRequest(pr, json);
}
