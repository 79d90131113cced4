// Builds the "real-js" SAST suite from real security fixes in npm packages and Node apps, and the
// "real-py" suite from fixes in Python projects (`--corpus docs/eval/real-py-corpus.tsv`; the suite
// is named after the corpus file, `<suite>-corpus.tsv`): for each row of the corpus (repository,
// fix commit, file, category; docs/eval/real-js-corpus.tsv by default), the file as it was
// before the fix (its first parent) is a `vulnerable` case and the file as fixed is a `safe` one,
// each added whole as a one-file pull request (docs/eval.md, "SEC-02 and SEC-05 on public SAST
// suites"); its case.json names the lines the fix touched (`fixLines`: changed or removed in the
// file before, added or changed in the file after) for the fix-lines score. Only the ids are committed; the code is read from mirrors you fetch:
//
//   git clone --mirror https://github.com/<owner>/<name> <mirrors>/<owner>+<name>   (per row)
//   node --import tsx scripts/real-js-suite.ts <mirrors> [--corpus <tsv>] [--out <folder>]
//
// A mirror is looked for at <mirrors>/<owner>+<name>/repo, <mirrors>/<owner>+<name> and
// <mirrors>/<owner>/<name>. A case's head (repo/) holds the manifests and the project files the
// file imports by a relative path, at the same commit, as a pull request's head would. Both cases of one fix share a `group`, so they fall on the same side
// of the held split. Exits 2 on a usage error, 1 when a row could not be read.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fixLinesOf } from "../src/eval/sast-score.js";
import { candidatePaths, projectImports } from "../src/detectors/dataflow/project-imports.js";
import { writeCase } from "./sast-fixture.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_CORPUS = path.join(here, "..", "docs", "eval", "real-js-corpus.tsv");
const DEFAULT_OUT = path.join(here, "..", "scratch", "sast", "cases");
const POLICY_OF: Readonly<Record<string, "SEC-02">> = { sqli: "SEC-02", cmdi: "SEC-02", codeinj: "SEC-02" };
const LANGUAGE_OF: Readonly<Record<string, string>> = {
  ".js": "javascript",
  ".cjs": "javascript",
  ".mjs": "javascript",
  ".ts": "typescript",
  ".py": "python",
};
/** The manifests copied beside a case, per language, when the repository has them (they name its ecosystem). */
const MANIFESTS_OF: Readonly<Record<string, readonly string[]>> = {
  python: ["pyproject.toml", "setup.py", "requirements.txt"],
};

function git(dir: string, args: string[]): string | undefined {
  const run = spawnSync("git", ["-C", dir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  return run.status === 0 ? run.stdout : undefined;
}

function mirrorOf(mirrors: string, repo: string): string | undefined {
  const [owner = "", name = ""] = repo.split("/");
  return [
    path.join(mirrors, `${owner}+${name}`, "repo"),
    path.join(mirrors, `${owner}+${name}`),
    path.join(mirrors, owner, name),
  ].find((d) => existsSync(d) && git(d, ["rev-parse", "--git-dir"]) !== undefined);
}

const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");

function main(): number {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const valued = new Set(["--corpus", "--out"]);
  const positional = args.filter((a, i) => !a.startsWith("--") && !valued.has(args[i - 1] ?? ""));
  const mirrors = positional[0];
  const corpus = value("--corpus") ?? DEFAULT_CORPUS;
  const out = path.resolve(value("--out") ?? DEFAULT_OUT);
  if (!mirrors || !existsSync(mirrors) || !existsSync(corpus)) {
    console.error(
      "usage: node --import tsx scripts/real-js-suite.ts <mirrors folder> [--corpus <tsv>] [--out <folder>]",
    );
    return 2;
  }
  const suite =
    path
      .basename(corpus)
      .replace(/-corpus\.tsv$/, "")
      .replace(/\.tsv$/, "") || "real-js";
  const rows = readFileSync(corpus, "utf8")
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map((l) => l.split("\t"));
  let written = 0;
  let failed = 0;
  for (const [repo = "", commit = "", file = "", category = ""] of rows) {
    const policy = POLICY_OF[category];
    const language = LANGUAGE_OF[path.extname(file)];
    const dir = mirrorOf(mirrors, repo);
    const parent = dir ? git(dir, ["rev-parse", `${commit}^1`])?.trim() : undefined;
    const before = dir && parent ? git(dir, ["show", `${parent}:${file}`]) : undefined;
    const after = dir ? git(dir, ["show", `${commit}:${file}`]) : undefined;
    if (!policy || !language || !dir || !parent || before === undefined || after === undefined) {
      console.error(
        `${repo} ${commit} ${file}: ${dir ? "not readable" : "no mirror"} (or unknown category/language): left out`,
      );
      failed++;
      continue;
    }
    const touched = fixLinesOf(git(dir, ["diff", "-U0", "--no-color", parent, commit, "--", file]) ?? "");
    const group = `${suite}-${slug(repo.replace("/", "-"))}-${commit.slice(0, 7)}-${slug(file)}`;
    for (const [label, rev, text, fixLines] of [
      ["vulnerable", parent, before, touched.before],
      ["safe", commit, after, touched.after],
    ] as const) {
      const manifests = (MANIFESTS_OF[language] ?? ["package.json"]).flatMap((m) => {
        const text = git(dir, ["show", `${rev}:${m}`]);
        return text === undefined ? [] : [[m, text] as [string, string]];
      });
      // The project files it imports by a relative path, as a pull request's head holds them.
      const imported = projectImports(text).flatMap((i) => {
        for (const candidate of candidatePaths(file, i.specifier)) {
          const source = git(dir, ["show", `${rev}:${candidate}`]);
          if (source !== undefined) return [[candidate, source] as [string, string]];
        }
        return [];
      });
      writeCase(out, {
        file: { path: file, text },
        repo: new Map([...manifests, ...imported]),
        repoName: repo,
        head: rev,
        kase: {
          id: `${group}-${label}`,
          suite,
          language,
          category,
          policy,
          label,
          path: file,
          group,
          repo,
          commit: rev,
          fix: commit,
          fixLines,
        },
      });
      written++;
    }
  }
  console.error(`${suite}: ${written} cases from ${rows.length - failed} fixes in ${out}`);
  return failed > 0 ? 1 : 0;
}

process.exitCode = main();
