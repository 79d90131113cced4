// Writes one SAST case as a fixture folder (docs/fixtures.md) with its case.json, for
// scripts/sast-suite.ts and scripts/real-js-suite.ts: one file added whole, the files a reviewer
// may read in repo/, and what the case is (src/eval/sast-score.ts reads case.json).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SastCase } from "../src/eval/sast-score.js";

/** One case to write: the file the pull request adds, what else its repo/ holds, and the case. */
export interface CaseFolder {
  /** The file the one-file pull request adds, at its path in the repository. */
  file: { path: string; text: string };
  /** Other files of the snapshot a reviewer may read (helpers, resources), by path. */
  repo: ReadonlyMap<string, string>;
  /** `owner/name` for pr.json. */
  repoName: string;
  /** The head commit for pr.json (40 hex digits), when known. */
  head?: string;
  kase: SastCase & Record<string, unknown>;
}

/**
 * A GitHub pull-request file entry that adds `text` whole.
 *
 * @example addedFile("a.js", "x\n").patch // "@@ -0,0 +1,1 @@\n+x"
 */
export function addedFile(filename: string, text: string) {
  const lines = text.replace(/\r?\n$/, "").split(/\r?\n/);
  return {
    sha: "0".repeat(40),
    filename,
    status: "added",
    additions: lines.length,
    deletions: 0,
    changes: lines.length,
    patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`,
  };
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Writes the case's folder `<out>/<id>` afresh: pr.json, files.json, expected.json, repo/ and
 * case.json. expected.json keeps the fixture format whole; the SAST figure is scored from the
 * findings, not the route (SEC-05 does not block, so a weak-crypto case alone is approved with a note).
 */
export function writeCase(out: string, c: CaseFolder): void {
  const dir = path.join(out, c.kase.id);
  rmSync(dir, { recursive: true, force: true });
  write(path.join(dir, "repo", c.file.path), c.file.text);
  for (const [f, text] of c.repo) if (f !== c.file.path) write(path.join(dir, "repo", f), text);
  write(path.join(dir, "files.json"), json([addedFile(c.file.path, c.file.text)]));
  write(
    path.join(dir, "pr.json"),
    json({
      number: 1,
      title: `Add ${path.basename(c.file.path)}`,
      body: "",
      user: { login: "sast-suite" },
      draft: false,
      labels: [],
      base: { ref: "main", sha: "a".repeat(40), repo: { full_name: c.repoName } },
      head: { ref: "case", sha: c.head && /^[0-9a-f]{40}$/.test(c.head) ? c.head : "b".repeat(40) },
    }),
  );
  const { policy, label } = c.kase;
  write(
    path.join(dir, "expected.json"),
    json(
      label === "vulnerable"
        ? {
            route: policy === "SEC-02" ? "human" : "approved",
            must_cite: [policy],
            must_not_cite: [],
            max_model_calls: 0,
          }
        : { route: "approved", must_cite: [], must_not_cite: [policy], max_model_calls: 0 },
    ),
  );
  write(path.join(dir, "case.json"), json(c.kase));
}
