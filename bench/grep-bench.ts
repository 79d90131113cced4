import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { GREP_MAX_RESULTS, grepRepo } from "../src/investigator/tools/grep-repo.js";

const run = promisify(execFile);

/** One measured contender of a bench. */
export interface BenchRow {
  label: string;
  median_ms: number;
  runs_ms: number[];
  matches: number;
}

/** What every bench returns to `bench/run.ts`. */
export interface BenchResult {
  name: string;
  description: string;
  rows: BenchRow[];
  /** Extra figures, e.g. the ratio between two rows. */
  figures: Record<string, number>;
}

const FILES = 20_000;
const PER_DIR = 100;
const RUNS = 5;
const PATTERN = "auditSession";
const WORDS = ["session", "token", "user", "const", "return", "value", "config", "request", "handler", "logger", "cache", "item"];

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

/** Writes the tree: 200 folders of 100 TypeScript files, a few hundred bytes each; every 97th calls auditSession. */
function buildTree(root: string): number {
  const rand = prng(42);
  let expected = 0;
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, "src", `mod${String(Math.floor(i / PER_DIR)).padStart(3, "0")}`);
    if (i % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    const lines: string[] = [`// file ${i}`];
    for (let l = 0; l < 8; l++) {
      const w = Array.from({ length: 5 }, () => WORDS[Math.floor(rand() * WORDS.length)] ?? "x");
      lines.push(`export const ${w[0]}${i}_${l} = "${w.slice(1).join(" ")}";`);
    }
    if (i % 97 === 0) {
      lines.push(`auditSession(session${i});`);
      expected++;
    }
    writeFileSync(path.join(dir, `f${String(i % PER_DIR).padStart(3, "0")}.ts`), `${lines.join("\n")}\n`);
  }
  return expected;
}

/** The median (the mean of the two middle values of an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

async function time(fn: () => Promise<number>): Promise<{ runs: number[]; matches: number }> {
  await fn(); // warm-up: page cache and JIT, not counted
  const runs: number[] = [];
  let matches = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    matches = await fn();
    runs.push(Math.round((performance.now() - start) * 10) / 10);
  }
  return { runs, matches };
}

/**
 * Times `grep_repo` against `git grep -n` on a generated 20,000-file tree (5 runs each after one
 * warm-up, medians), then removes the tree.
 *
 * @example const result = await grepBench(); result.figures.ratio // e.g. 4.2 (grep_repo / git grep)
 */
export async function grepBench(): Promise<BenchResult> {
  const root = mkdtempSync(path.join(tmpdir(), "gate-grep-bench-"));
  try {
    const expected = buildTree(root);
    const git = (...args: string[]) => run("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", "-c", "gc.auto=0", "-c", "maintenance.auto=false", ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    await git("init", "-q");
    await git("add", "-A");
    await git("commit", "-q", "-m", "bench tree");

    const ours = await time(async () => (await grepRepo(root, { pattern: PATTERN, max_results: GREP_MAX_RESULTS })).matches);
    const theirs = await time(async () => {
      const { stdout } = await git("grep", "-n", PATTERN);
      return stdout.split("\n").filter((l) => l.length > 0).length;
    });
    if (ours.matches !== expected || theirs.matches !== expected) {
      throw new Error(`match counts differ: expected ${expected}, grep_repo ${ours.matches}, git grep ${theirs.matches}`);
    }
    const rows: BenchRow[] = [
      { label: "grep_repo (in-process)", median_ms: median(ours.runs), runs_ms: ours.runs, matches: ours.matches },
      { label: "git grep -n", median_ms: median(theirs.runs), runs_ms: theirs.runs, matches: theirs.matches },
    ];
    const ratio = Math.round(((rows[0]?.median_ms ?? 0) / Math.max(0.1, rows[1]?.median_ms ?? 0)) * 100) / 100;
    return {
      name: "grep",
      description: `${FILES} files, pattern "${PATTERN}", ${RUNS} runs each after a warm-up`,
      rows,
      figures: { files: FILES, ratio },
    };
  } finally {
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
