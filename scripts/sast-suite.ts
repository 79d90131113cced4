// Builds SEC-02 and SEC-05 cases from an OWASP Benchmark (Java 1.2 or Python 0.1), one fixture
// folder per test case, for scripts/sast-eval.ts (docs/eval.md, "SEC-02 and SEC-05 on public SAST
// suites"). The suite's own code is never committed: the cases go to a git-ignored folder.
//
//   node --import tsx scripts/sast-suite.ts <benchmark checkout or bare mirror> [--out <folder>]
//        [--categories sqli,cmdi,...]      (--out defaults to the repository's scratch/sast/cases)
//
// Each case folder is a fixture (docs/fixtures.md: pr.json, files.json with the test file added
// whole, expected.json, repo/ with the test file, the suite's helper sources it names and the
// resources it or they load, e.g. src/main/resources/benchmark.properties at its real path) plus a
// case.json: { id, suite, language, category, policy, label, cwe, path, commit, keyDisputed? }. The
// suite's expectedresults-*.csv gives the label; `keyDisputed` says why, where a mechanical rule
// shows the key wrong (`keyErratum`: the case is scored as keyed and again set aside). Exits 2 on
// a usage error.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeCase } from "./sast-fixture.js";

/** The categories measured, and the policy each belongs to. */
const POLICY_OF: Readonly<Record<string, "SEC-02" | "SEC-05">> = {
  sqli: "SEC-02",
  cmdi: "SEC-02",
  codeinj: "SEC-02",
  crypto: "SEC-05",
  hash: "SEC-05",
  weakrand: "SEC-05",
};

/** The repository's git-ignored scratch folder (`/scratch/` in .gitignore), whatever the working directory. */
const DEFAULT_OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "scratch", "sast", "cases");

/** Reads files of a Benchmark, from a working tree or from a bare git mirror's HEAD. */
interface Source {
  commit: string;
  has(file: string): boolean;
  read(file: string): string;
  list(dir: string): string[];
}

function git(dir: string, args: string[], input?: string): string {
  const run = spawnSync("git", ["-C", dir, ...args], { encoding: "utf8", input, maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

function gitSource(dir: string): Source {
  const commit = git(dir, ["rev-parse", "HEAD"]).trim();
  const files = new Set(git(dir, ["ls-tree", "-r", "--name-only", "HEAD"]).split("\n").filter(Boolean));
  const cache = new Map<string, string>();
  return {
    commit,
    has: (file) => files.has(file),
    read(file) {
      let text = cache.get(file);
      if (text === undefined) {
        text = git(dir, ["show", `${commit}:${file}`]);
        cache.set(file, text);
      }
      return text;
    },
    list: (d) => [...files].filter((f) => f.startsWith(`${d}/`) && !f.slice(d.length + 1).includes("/")),
  };
}

function treeSource(dir: string): Source {
  const isGit = spawnSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8" });
  return {
    commit: isGit.status === 0 ? isGit.stdout.trim() : "unknown",
    has: (file) => existsSync(path.join(dir, file)),
    read: (file) => readFileSync(path.join(dir, file), "utf8"),
    list: (d) =>
      existsSync(path.join(dir, d))
        ? readdirSync(path.join(dir, d), { withFileTypes: true })
            .filter((e) => e.isFile())
            .map((e) => `${d}/${e.name}`)
        : [],
  };
}

function openSource(dir: string): Source {
  const bare = spawnSync("git", ["-C", dir, "rev-parse", "--is-bare-repository"], { encoding: "utf8" });
  return bare.status === 0 && bare.stdout.trim() === "true" ? gitSource(dir) : treeSource(dir);
}

/** How one Benchmark lays out its test cases and helpers. */
interface Layout {
  suite: string;
  language: "java" | "python";
  expected: string;
  testPath(name: string): string;
  /** The helper files a text names (sources of the suite's own helper package). */
  helpers(text: string, src: Source): string[];
  /** The resource files a text loads. */
  resources(text: string, src: Source): string[];
}

const JAVA_HELPERS = "src/main/java/org/owasp/benchmark/helpers";

const LAYOUTS: readonly Layout[] = [
  {
    suite: "owasp-benchmark-java",
    language: "java",
    expected: "expectedresults-1.2.csv",
    testPath: (name) => `src/main/java/org/owasp/benchmark/testcode/${name}.java`,
    helpers: (text, src) =>
      [...new Set([...text.matchAll(/\borg\.owasp\.benchmark\.helpers\.([A-Z]\w*)/g)].map((m) => m[1]))]
        .map((cls) => `${JAVA_HELPERS}/${cls}.java`)
        .filter((f) => src.has(f)),
    resources: (text, src) =>
      [...text.matchAll(/getResourceAsStream\(\s*"([\w.-]+)"\s*\)/g)]
        .map((m) => `src/main/resources/${m[1]}`)
        .filter((f) => src.has(f)),
  },
  {
    suite: "owasp-benchmark-python",
    language: "python",
    expected: "expectedresults-0.1.csv",
    testPath: (name) => `testcode/${name}.py`,
    helpers: (text, src) =>
      [...new Set([...text.matchAll(/\bhelpers\.(\w+)/g)].map((m) => m[1]))]
        .flatMap((mod) => [`helpers/${mod}.py`, "helpers/__init__.py"])
        .filter((f) => src.has(f)),
    resources: (text, src) =>
      [...text.matchAll(/\{helpers\.utils\.RES_DIR\}\/([\w.-]+)/g)]
        .map((m) => `helpers/resources/${m[1]}`)
        .filter((f) => src.has(f)),
  },
];

/** Categories where the request must reach the sink for the case to be vulnerable. */
const DATA_FLOW = new Set(["sqli", "cmdi", "codeinj"]);

/**
 * A case keyed vulnerable whose sink is only ever given a constant: BenchmarkPython's template
 * `bar = "This should never happen"` then `if 'should' not in bar: bar = "Ifnot case passed"`
 * assigns `bar` nothing else, so the request never reaches it. Hash and random cases are about the
 * algorithm, not the data: never disputed.
 *
 * @example keyErratum("cmdi", text) // { keyDisputed: "bar is only ever one of two constants ..." }
 */
function keyErratum(category: string, text: string): { keyDisputed?: string } {
  if (!DATA_FLOW.has(category)) return {};
  const constant = /^\s*bar = "This should never happen"\s*$/m.test(text);
  const guard = /^\s*if 'should' not in bar:\s*\n\s*bar = "Ifnot case passed"\s*$/m.test(text);
  const assigned = [...text.matchAll(/^\s*bar\s*(?:\+?=|:=)/gm)].length;
  return constant && guard && assigned === 2
    ? { keyDisputed: 'bar is only ever "This should never happen" (the request never reaches the sink)' }
    : {};
}

/** One test case of the suite's expected results. */
interface Row {
  name: string;
  category: string;
  vulnerable: boolean;
  cwe: number;
}

/**
 * The rows of an expectedresults CSV (`# test name, category, real vulnerability, cwe, ...`).
 *
 * @example parseExpected("BenchmarkTest00001,sqli,true,89\n") // [{ name: "BenchmarkTest00001", ... }]
 */
function parseExpected(csv: string): Row[] {
  return csv
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => {
      const [name = "", category = "", real = "", cwe = ""] = l.split(",").map((s) => s.trim());
      return { name, category, vulnerable: real === "true", cwe: Number(cwe) };
    });
}

function main(): number {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const flagged = new Set(["--out", "--categories"].map((f) => value(f)).filter(Boolean));
  const input = args.find((a) => !a.startsWith("--") && !flagged.has(a));
  const out = path.resolve(value("--out") ?? DEFAULT_OUT);
  const categories = (value("--categories") ?? Object.keys(POLICY_OF).join(",")).split(",");
  const unknown = categories.filter((c) => !(c in POLICY_OF));
  if (!input || !existsSync(input) || unknown.length > 0) {
    if (unknown.length > 0) console.error(`unknown categories: ${unknown.join(", ")}`);
    console.error(
      "usage: node --import tsx scripts/sast-suite.ts <benchmark checkout or mirror> [--out <folder>] [--categories sqli,cmdi,codeinj,crypto,hash,weakrand]",
    );
    return 2;
  }
  const src = openSource(input);
  const layout = LAYOUTS.find((l) => src.has(l.expected));
  if (!layout) {
    console.error(`${input}: no ${LAYOUTS.map((l) => l.expected).join(" or ")}: not an OWASP Benchmark`);
    return 2;
  }
  const rows = parseExpected(src.read(layout.expected)).filter((r) => categories.includes(r.category));
  const counts = new Map<string, number>();
  for (const row of rows) {
    const file = layout.testPath(row.name);
    if (!src.has(file)) {
      console.error(`${row.name}: ${file} is not in the suite: left out`);
      continue;
    }
    const text = src.read(file);
    const id = `${layout.suite}-${row.name}`;
    const policy = POLICY_OF[row.category] ?? "SEC-02";
    const helpers = layout.helpers(text, src);
    const resources = [...new Set([text, ...helpers.map((h) => src.read(h))].flatMap((t) => layout.resources(t, src)))];
    const kase = {
      id,
      suite: layout.suite,
      language: layout.language,
      category: row.category,
      policy,
      label: row.vulnerable ? ("vulnerable" as const) : ("safe" as const),
      cwe: row.cwe,
      path: file,
      commit: src.commit,
      ...(row.vulnerable ? keyErratum(row.category, text) : {}),
    };
    writeCase(out, {
      file: { path: file, text },
      repo: new Map([...helpers, ...resources].map((f) => [f, src.read(f)])),
      repoName: `owasp/${layout.suite}`,
      head: src.commit,
      kase,
    });
    const key = `${row.category} ${kase.label}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  console.error(`${layout.suite} @ ${src.commit}: ${[...counts.values()].reduce((a, b) => a + b, 0)} cases in ${out}`);
  for (const [key, n] of [...counts].sort()) console.error(`  ${key}: ${n}`);
  return 0;
}

process.exitCode = main();
