import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { GREP_MAX_RESULTS, grepRepo } from "../src/investigator/tools/grep-repo.js";
import { type Figure, median, paired, pairedFigure } from "./stats.js";

const run = promisify(execFile);

/** Source-like files, in folders of varied depth. */
const FILES = 3000;
/** Generated bundles, data and lock files real repositories carry, each over 1 MB. */
const LARGE = [
  { name: "dist/app.bundle.js", bytes: 3_200_000 },
  { name: "dist/vendor.bundle.js", bytes: 2_400_000 },
  { name: "data/fixtures.json", bytes: 1_800_000 },
  { name: "package-lock.json", bytes: 1_300_000 },
  { name: "public/legacy.min.js", bytes: 1_100_000 },
];
/** Binary files (a NUL in the first 8,000 bytes): both searches skip them. */
const BINARIES = 40;

/**
 * Patterns an investigator asks, each with the same pattern for `git grep -n -E`: a literal, a
 * word-boundary identifier (the tree also holds `verifyTokenExpiry` and `preverifyToken`), an
 * alternation, a `.*` pattern and a case-insensitive one.
 */
const PATTERNS: { kind: string; ours: string; git: string[] }[] = [
  { kind: "literal", ours: "auditSession", git: ["-E", "auditSession"] },
  { kind: "word-boundary identifier", ours: "\\bverifyToken\\b", git: ["-E", "\\bverifyToken\\b"] },
  {
    kind: "alternation",
    ours: "SESSION_TTL|sessionExpiry|expireSession",
    git: ["-E", "SESSION_TTL|sessionExpiry|expireSession"],
  },
  { kind: ".* pattern", ours: "logger\\..*password", git: ["-E", "logger\\..*password"] },
  { kind: "case-insensitive", ours: "/session_?expir/i", git: ["-i", "-E", "session_?expir"] },
];

const WORDS = [
  "session",
  "token",
  "user",
  "order",
  "value",
  "config",
  "request",
  "handler",
  "logger",
  "cache",
  "item",
  "account",
  "payload",
  "result",
  "client",
  "status",
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

/** Builds lines of plausible code, planting the patterns' targets (and near misses) now and then. */
function codeLines(rand: () => number, count: number): string[] {
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)] ?? "x";
  const lines: string[] = [];
  for (let l = 0; l < count; l++) {
    const r = rand();
    const a = pick();
    const b = pick();
    if (r < 0.0004) lines.push(`  auditSession(${a}, ${b});`);
    else if (r < 0.0008) lines.push(`  if (!verifyToken(${a}.token)) throw new Error("invalid ${b}");`);
    else if (r < 0.0016) lines.push(`  const ${a}Expiry = verifyTokenExpiry(${b}) || preverifyToken(${a});`);
    else if (r < 0.002) lines.push(`  const SESSION_TTL = ${Math.floor(rand() * 9000)};`);
    else if (r < 0.0024) lines.push(`  ${a}.sessionExpiry = Date.now() + ttl;`);
    else if (r < 0.0026) lines.push(`  logger.debug("login", { user: ${a}.name, password: ${b}.secret });`);
    else if (r < 0.004) lines.push(`  logger.info("${a} ${b} updated", { id: ${a}.id });`);
    else if (r < 0.05) lines.push("");
    else if (r < 0.1) lines.push(`// ${a} ${b}: see the ${pick()} ${pick()} for details`);
    else if (r < 0.2) lines.push(`export function ${a}${Math.floor(rand() * 1000)}(${b}, ${pick()}) {`);
    else if (r < 0.3) lines.push("}");
    else lines.push(`  const ${a}_${l} = await ${b}.${pick()}(${pick()}, "${pick()} ${pick()}", ${l});`);
  }
  return lines;
}

/**
 * 3,000 source files of varied size (a few hundred bytes to about 60 KB) in folders two to four
 * deep, 40 binaries, and five files over 1 MB (bundles, data, a lock file), all holding matches.
 */
export function buildTree(root: string): { bytes: number } {
  const rand = prng(42);
  let bytes = 0;
  const write = (rel: string, body: string | Buffer) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), body);
    bytes += body.length;
  };
  const exts = [".ts", ".ts", ".ts", ".js", ".tsx", ".py", ".go", ".md", ".json", ".yml"];
  for (let i = 0; i < FILES; i++) {
    const depth = 1 + Math.floor(rand() * 3);
    const dirs = Array.from(
      { length: depth },
      (_, d) => `${WORDS[(i * (d + 3)) % WORDS.length]}s${(i >> (d + 3)) % 7}`,
    );
    // Sizes spread like a real tree: most files small, some large.
    const lines = Math.max(5, Math.floor(Math.exp(rand() * 7)));
    const ext = exts[i % exts.length] ?? ".ts";
    write(`src/${dirs.join("/")}/${WORDS[i % WORDS.length]}-${i}${ext}`, `${codeLines(rand, lines).join("\n")}\n`);
  }
  for (let i = 0; i < BINARIES; i++) {
    const body = Buffer.alloc(4000 + i * 100);
    for (let b = 0; b < body.length; b++) body[b] = b % 7 === 0 ? 0 : 65 + ((b * 31) % 26);
    body.write("auditSession verifyToken", 100);
    write(`assets/img-${i}.png`, body);
  }
  for (const large of LARGE) {
    const lines: string[] = [];
    let size = 0;
    while (size < large.bytes) {
      const chunk = codeLines(rand, 500).join("\n");
      lines.push(chunk);
      size += chunk.length + 1;
    }
    write(large.name, `${lines.join("\n")}\n`);
  }
  return { bytes };
}

/** `path:line` of each line grep_repo shows. */
function oursLines(output: string): string[] {
  return output
    .split("\n")
    .filter((l) => !l.startsWith("#") && l !== "(no matches)")
    .map((l) => l.split(":", 2).join(":"));
}

/**
 * `grep_repo` against `git grep -n -E` on a generated tree (3,000 source files of varied size,
 * binaries, five files over 1 MB), five patterns, pairs interleaved. Each side runs all the
 * patterns per measurement. The matched lines must be equal, pattern by pattern (`path:line`
 * sets): a search that skips large files answers faster and wrongly, and its figure fails.
 */
export async function grepFigure(): Promise<Figure> {
  const root = mkdtempSync(path.join(tmpdir(), "gate-grep-bench-"));
  try {
    const { bytes } = buildTree(root);
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
        { cwd: root, maxBuffer: 256 * 1024 * 1024 },
      );
    await git("init", "-q");
    await git("add", "-A");
    await git("commit", "-q", "-m", "bench tree");

    const found = { ours: PATTERNS.map(() => [] as string[]), git: PATTERNS.map(() => [] as string[]) };
    const perPattern = { ours: PATTERNS.map(() => [] as number[]), git: PATTERNS.map(() => [] as number[]) };
    const ours = async () => {
      let total = 0;
      for (const [i, p] of PATTERNS.entries()) {
        const started = performance.now();
        const out = await grepRepo(root, { pattern: p.ours, max_results: GREP_MAX_RESULTS });
        const ms = performance.now() - started;
        total += ms;
        perPattern.ours[i]?.push(ms);
        found.ours[i] = oursLines(out.output);
      }
      return total;
    };
    const theirs = async () => {
      let total = 0;
      for (const [i, p] of PATTERNS.entries()) {
        const started = performance.now();
        const { stdout } = await git("grep", "-n", "-I", ...p.git).catch((e: { stdout?: string }) => ({
          stdout: e.stdout ?? "",
        }));
        const ms = performance.now() - started;
        total += ms;
        perPattern.git[i]?.push(ms);
        found.git[i] = stdout
          .split("\n")
          .filter((l) => l.length > 0)
          .map((l) => l.split(":", 2).join(":"));
      }
      return total;
    };
    const m = await paired(ours, theirs, { runs: 7, warmup: 2 });
    const verdicts = PATTERNS.map((p, i) => {
      const a = found.ours[i] ?? [];
      const b = found.git[i] ?? [];
      const equal = a.length === b.length && a.every((line, k) => line === b[k]);
      const ratio = median(perPattern.ours[i] ?? []) / Math.max(1e-9, median(perPattern.git[i] ?? []));
      return {
        equal,
        note: `${p.kind} ${JSON.stringify(p.ours)}: ${a.length} lines, git grep ${b.length}${equal ? " (equal)" : ": NOT EQUAL"}; ${ratio.toFixed(2)}x`,
      };
    });
    const equal = verdicts.every((v) => v.equal) && verdicts.some((_, i) => (found.git[i]?.length ?? 0) > 0);
    const figure = pairedFigure(
      "grep_vs_git_grep",
      `grep_repo against git grep -n -E: ${FILES} source files, ${BINARIES} binaries and ${LARGE.length} over 1 MB (${(bytes / 1e6).toFixed(1)} MB), ${PATTERNS.length} patterns`,
      { label: `grep_repo, ${PATTERNS.length} patterns`, unit: "ms" },
      { label: `git grep -n -E, ${PATTERNS.length} patterns`, unit: "ms" },
      m,
      { max: 1.5 },
      [
        ...verdicts.map((v) => v.note),
        equal ? "matched lines equal for every pattern" : "matched lines NOT EQUAL: the figure fails",
      ],
    );
    return equal ? figure : { ...figure, met: false };
  } finally {
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
