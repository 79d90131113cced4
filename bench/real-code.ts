import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./child-process.js";

/** One file a PR adds: its path and its text. */
export interface AddedFile {
  path: string;
  text: string;
}

/**
 * The fetched repositories the real-code bench reads, as git directories (`BENCH_REAL_REPOS`,
 * comma-separated; by default the two the project's sessions fetch: Express in JavaScript and
 * Requests in Python). A repository that is not there is reported "skipped: not fetched"; nothing
 * fetched is ever committed.
 */
export function realRepos(env: NodeJS.ProcessEnv = process.env): Array<{ name: string; gitDir: string }> {
  const list = env.BENCH_REAL_REPOS ?? "/work/.mirror/expressjs+express/repo,/work/.mirror/psf+requests/repo";
  return list
    .split(",")
    .map((d) => d.trim())
    .filter(Boolean)
    .map((gitDir) => ({ name: path.basename(path.dirname(gitDir)).replace("+", "/"), gitDir }));
}

/** Source files (by extension) of a checkout folder, read recursively, sorted by path. */
export function filesOfFolder(dir: string, exts: string[], prefix = ""): AddedFile[] {
  const out: AddedFile[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    const full = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...filesOfFolder(full, exts, rel));
    else if (d.isFile() && exts.some((e) => d.name.endsWith(e)))
      out.push({ path: rel, text: readFileSync(full, "utf8") });
  }
  return out;
}

/** This checkout's `src/` TypeScript, as a PR adding it would. */
export function ownSource(): AddedFile[] {
  return filesOfFolder(path.join(ROOT, "src"), [".ts"], "src");
}

/** Source files of a git directory's HEAD (text files with these extensions, under 512 KB), or undefined when it is absent. */
export function filesOfGitDir(gitDir: string, exts: string[]): AddedFile[] | undefined {
  if (!existsSync(gitDir)) return undefined;
  const git = (...args: string[]) =>
    execFileSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  const paths = git("ls-tree", "-r", "--name-only", "HEAD")
    .split("\n")
    .filter((p) => exts.some((e) => p.endsWith(e)));
  const out: AddedFile[] = [];
  for (const p of paths) {
    const text = git("show", `HEAD:${p}`);
    if (text.length < 512 * 1024 && !text.includes("\0")) out.push({ path: p, text });
  }
  return out;
}

/**
 * `count` files of `linesPerFile` lines drawn from real code: file i is a window of the pool's
 * lines (every file of the pool, one after another) starting at a stride through it, so no two
 * files are alike, as in a real PR; their paths follow the pool's.
 */
export function variedFiles(pool: AddedFile[], count: number, linesPerFile: number): AddedFile[] {
  const lines = pool.flatMap((f) => f.text.split("\n"));
  const stride = 7_919; // a prime, so the windows walk the whole pool before they repeat
  return Array.from({ length: count }, (_, i) => {
    const from = (i * stride) % Math.max(1, lines.length - linesPerFile);
    const source = pool[i % pool.length]?.path ?? "src/file.ts";
    const dot = source.lastIndexOf(".");
    return {
      path: `${source.slice(0, dot)}-${i}${source.slice(dot)}`,
      text: lines.slice(from, from + linesPerFile).join("\n"),
    };
  });
}

/** Added lines of these files (what the per-line figure divides by). */
export function addedLines(files: AddedFile[]): number {
  return files.reduce((n, f) => n + f.text.split("\n").length, 0);
}

/** Writes a fixture folder `<dir>/<name>/` of a PR (number `number`) adding these files as new ones. */
export function writeAddedFixture(dir: string, name: string, files: AddedFile[], number: number): void {
  const pr = {
    number,
    title: `Adds ${files.length} files`,
    body: "Generated for the bench from real code.",
    user: { login: "bench-author" },
    base: { ref: "main", sha: "b".repeat(40), repo: { full_name: "bench/real" } },
    head: { ref: "feature", sha: `${String(number).padStart(8, "0")}${"c".repeat(32)}` },
  };
  const listed = files.map((f) => {
    const lines = f.text.split("\n");
    return {
      filename: f.path,
      status: "added",
      additions: lines.length,
      deletions: 0,
      changes: lines.length,
      patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join("\n"),
    };
  });
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, name, "pr.json"), JSON.stringify(pr));
  writeFileSync(path.join(dir, name, "files.json"), JSON.stringify(listed));
}
