import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { GREP_MAX_RESULTS, grepRepo } from "../src/investigator/tools/grep-repo.js";
import { type Figure, paired, pairedFigure } from "./stats.js";

const run = promisify(execFile);

const FILES = 20_000;
const PER_DIR = 100;
/** Generated bundles and data files real repositories carry, each over 1 MB. */
const LARGE_FILES = 4;
const LARGE_BYTES = 1_500_000;
const WORDS = [
  "session",
  "token",
  "user",
  "const",
  "return",
  "value",
  "config",
  "request",
  "handler",
  "logger",
  "cache",
  "item",
];
/** Patterns an investigator asks: a literal, a regular expression, and a case-insensitive one. */
const PATTERNS = ["auditSession", "verify[A-Z][a-z]+Token\\(", "/SESSION_?EXPIR/i"];
/** The same patterns for `git grep -n -E` (and `-i`). */
const GIT_ARGS: string[][] = [
  ["-F", "auditSession"],
  ["-E", "verify[A-Z][a-z]+Token\\("],
  ["-i", "-E", "SESSION_?EXPIR"],
];

/** A small deterministic PRNG (mulberry32), so every run builds the same tree. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 200 folders of 100 small TypeScript files, plus a few generated files over 1 MB that match too. */
function buildTree(root: string): void {
  const rand = prng(42);
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, "src", `mod${String(Math.floor(i / PER_DIR)).padStart(3, "0")}`);
    if (i % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    const lines: string[] = [`// file ${i}`];
    for (let l = 0; l < 8; l++) {
      const w = Array.from({ length: 5 }, () => WORDS[Math.floor(rand() * WORDS.length)] ?? "x");
      lines.push(`export const ${w[0]}${i}_${l} = "${w.slice(1).join(" ")}";`);
    }
    if (i % 97 === 0) lines.push(`auditSession(session${i});`);
    if (i % 211 === 0) lines.push(`if (!verifySessionToken(token)) throw new Error("expired");`);
    if (i % 401 === 0) lines.push(`const SESSION_EXPIRY_MS = 3_600_000;`);
    writeFileSync(path.join(dir, `f${String(i % PER_DIR).padStart(3, "0")}.ts`), `${lines.join("\n")}\n`);
  }
  mkdirSync(path.join(root, "dist"), { recursive: true });
  for (let i = 0; i < LARGE_FILES; i++) {
    const chunk = `function a${i}(t){return verifyApiToken(t)&&auditSession(t)}var sessionExpiry=1;\n`;
    writeFileSync(path.join(root, "dist", `bundle-${i}.js`), chunk.repeat(Math.ceil(LARGE_BYTES / chunk.length)));
  }
}

/**
 * `grep_repo` against `git grep -n` on a generated tree of 20,000 files and a few over 1 MB, three
 * patterns, pairs interleaved. The match counts must be equal: a search that skips large files
 * answers faster and wrongly.
 */
export async function grepFigure(): Promise<Figure> {
  const root = mkdtempSync(path.join(tmpdir(), "gate-grep-bench-"));
  try {
    buildTree(root);
    const git = (...args: string[]) =>
      run(
        "git",
        [
          "-c",
          "user.name=bench",
          "-c",
          "user.email=bench@example.invalid",
          "-c",
          "commit.gpgsign=false",
          "-c",
          "gc.auto=0",
          "-c",
          "maintenance.auto=false",
          ...args,
        ],
        {
          cwd: root,
          maxBuffer: 256 * 1024 * 1024,
        },
      );
    await git("init", "-q");
    await git("add", "-A");
    await git("commit", "-q", "-m", "bench tree");

    const counts = { ours: [] as number[], git: [] as number[] };
    const ours = async () => {
      const started = performance.now();
      counts.ours = [];
      for (const pattern of PATTERNS)
        counts.ours.push((await grepRepo(root, { pattern, max_results: GREP_MAX_RESULTS })).matches);
      return performance.now() - started;
    };
    const theirs = async () => {
      const started = performance.now();
      counts.git = [];
      for (const args of GIT_ARGS) {
        const { stdout } = await git("grep", "-n", "-I", ...args).catch((e: { stdout?: string }) => ({
          stdout: e.stdout ?? "",
        }));
        counts.git.push(Math.min(GREP_MAX_RESULTS, stdout.split("\n").filter((l) => l.length > 0).length));
      }
      return performance.now() - started;
    };
    const m = await paired(ours, theirs, { runs: 5 });
    const equal = counts.ours.every((n, i) => n === counts.git[i]);
    const figure = pairedFigure(
      "grep_vs_git_grep",
      `grep_repo against git grep -n: ${FILES} files and ${LARGE_FILES} of ${(LARGE_BYTES / 1e6).toFixed(1)} MB, ${PATTERNS.length} patterns`,
      { label: "grep_repo", unit: "ms" },
      { label: "git grep -n", unit: "ms" },
      m,
      { max: 1.5 },
      [
        `matches per pattern: grep_repo ${counts.ours.join("/")}, git grep ${counts.git.join("/")} (capped at ${GREP_MAX_RESULTS})${equal ? "" : ": NOT EQUAL"}`,
      ],
    );
    return equal ? figure : { ...figure, met: false };
  } finally {
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
