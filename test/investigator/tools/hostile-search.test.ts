import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GREP_BLOCK_BYTES,
  GREP_MAX_FILE_BYTES,
  GREP_MAX_RESULTS,
  GREP_TIME_BUDGET_MS,
  grepRepo,
} from "../../../src/investigator/tools/grep-repo.js";
import { listDir } from "../../../src/investigator/tools/list-dir.js";
import { readFile } from "../../../src/investigator/tools/read-file.js";
import { startStack } from "../../server/helpers.js";

let root: string;
const put = (rel: string, text: string | Buffer): void => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};

/** A line of generated code; `i` varies it. */
const codeLine = (i: number): string => `export const value${i} = compute(${i}, "session", cache[${i % 97}]);`;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "gate-hostile-"));
  put("src/long-line.txt", `${"a".repeat(30_000)}\n`);
  put("src/long-token.txt", `${`${"a".repeat(3000)} token `.repeat(10)}\n`.repeat(20));
  // Over 1 MB, with one match near its end (past the first block) and one in a line longer than a block.
  const lines = Array.from({ length: 40_000 }, (_, i) => codeLine(i));
  lines[39_990] = "const needleInTheHaystack = verifyToken(session);";
  put("dist/bundle.js", `${lines.join("\n")}\n`);
  put("dist/one-line.min.js", `${"x=1;".repeat(GREP_BLOCK_BYTES / 2)}needleInTheHaystack()\nlast line\n`);
  put("dist/tiny.js", "needleInTheHaystack\n");
  // Over the hard cap: sparse, so it costs no disk.
  writeFileSync(path.join(root, "data.bin"), "");
  truncateSync(path.join(root, "data.bin"), GREP_MAX_FILE_BYTES + 1);
  // A name that makes picomatch's own regex backtrack for the globs below.
  put(`names/${"a".repeat(120)}`, "needleInTheHaystack\n");
  mkdirSync(path.join(root, "pipes"));
  execFileSync("mkfifo", [path.join(root, "pipes", "fifo.ts")]);
  put("pipes/after.ts", "needleInTheHaystack\n");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs one search and says how long it took. */
async function timed(args: Parameters<typeof grepRepo>[1]) {
  const started = performance.now();
  const out = await grepRepo(root, args);
  return { out, ms: performance.now() - started };
}

describe("grep_repo against hostile patterns and trees", () => {
  it.each([
    ["(a+)+$", 1],
    ["(.*a){20}", 21],
    [".*x", 1],
    ["a.*token", 20],
    ["(a|aa)+$", 1],
    ["(x+x+)+y", 0],
    ["(\\w+\\s?)*$", 40_023],
  ])("%s finishes the whole tree within the time budget", async (pattern, least) => {
    const { out, ms } = await timed({ pattern, max_results: GREP_MAX_RESULTS });
    expect(out.output).not.toMatch(/time budget/);
    expect(out.matches).toBeGreaterThanOrEqual(Math.min(least, GREP_MAX_RESULTS));
    expect(ms).toBeLessThan(GREP_TIME_BUDGET_MS);
  });

  it.each([
    "*a*a*a*a*a*a*a*a*a*a*b",
    "**/*a*a*a*a*a*a*a*a*a*a*a*b",
    "names/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*",
    "@(a+|aa)+",
    "+(a|aa)",
    "!(a|aa)*b",
    "{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}b",
  ])("the glob %s is matched in linear time", async (glob) => {
    const { out, ms } = await timed({ pattern: "needleInTheHaystack", glob, max_results: 50 });
    expect(out.output).not.toMatch(/time budget|refused/);
    expect(ms).toBeLessThan(GREP_TIME_BUDGET_MS);
  });

  it("matches globs as picomatch does (file name without a slash, path with one, ! negates)", async () => {
    const files = async (glob: string) =>
      (await grepRepo(root, { pattern: "needleInTheHaystack", glob })).output
        .split("\n")
        .filter((l) => !l.startsWith("#"))
        .map((l) => l.split(":")[0]);
    expect(await files("*.js")).toEqual(["dist/bundle.js", "dist/one-line.min.js", "dist/tiny.js"]);
    expect(await files("dist/*.min.js")).toEqual(["dist/one-line.min.js"]);
    expect(await files("names/*a*a*a*a*a*a*a*")).toEqual([`names/${"a".repeat(120)}`]);
    expect(await files("!*.js")).toEqual([`names/${"a".repeat(120)}`, "pipes/after.ts"]);
    expect(await files("**/*.{ts,txt}")).toEqual(["pipes/after.ts"]);
  });

  it("searches a file over 1 MB, block by block, with the right line numbers", async () => {
    const out = await grepRepo(root, { pattern: "needleInTheHaystack", max_results: 50 });
    expect(out.output.split("\n")).toEqual([
      "dist/bundle.js:39991:const needleInTheHaystack = verifyToken(session);",
      `dist/one-line.min.js:1:${"x=1;".repeat(75)}`,
      "dist/tiny.js:1:needleInTheHaystack",
      `names/${"a".repeat(120)}:1:needleInTheHaystack`,
      "pipes/after.ts:1:needleInTheHaystack",
      `# not searched, over 32 MB: data.bin (32.0 MB)`,
    ]);
  });

  it("finds the same lines as a line-by-line reference, across block boundaries", async () => {
    const text = readFileSync(path.join(root, "dist/bundle.js"), "utf8").split("\n");
    for (const [pattern, re] of [
      ["cache\\[13\\]", /cache\[13\]/],
      ["compute\\(1\\d\\d\\d, .*cache\\[4\\]", /compute\(1\d\d\d, .*cache\[4\]/],
      ["\\bvalue1234\\d\\b", /\bvalue1234\d\b/],
      ["value3999[0-9]|value1[05]000 ", /value3999[0-9]|value1[05]000 /],
      ["/VALUE2\\d\\d05 = COMPUTE/i", /VALUE2\d\d05 = COMPUTE/i],
      ["^export const value(1|3)000\\d =", /^export const value(1|3)000\d =/],
    ] as const) {
      const expected = text.flatMap((l, i) => (re.test(l) ? [`dist/bundle.js:${i + 1}:${l}`] : []));
      const out = await grepRepo(root, { pattern, glob: "dist/bundle.js", max_results: GREP_MAX_RESULTS });
      expect(out.output.split("\n"), pattern).toEqual(expected.length > 0 ? expected : ["(no matches)"]);
      expect(expected.length, pattern).toBeGreaterThan(0);
    }
  });

  it("names a line too long to match with a costly pattern rather than holding the event loop", async () => {
    const out = await grepRepo(root, { pattern: "(.*a){20}", glob: "dist/one-line.min.js" });
    expect(out.output).toBe(
      "(no matches)\n# lines too long to match with this pattern, not searched: dist/one-line.min.js:1",
    );
  });

  it("names the files left when its time budget runs out", async () => {
    const out = await grepRepo(root, { pattern: "needleInTheHaystack" }, { budgetMs: 0 });
    expect(out.output).toMatch(
      /^\(no matches\)\n# time budget \(0 s\) ran out; 8 files not searched: data\.bin, dist\/bundle\.js, /,
    );
  });

  it("skips a FIFO in the tree without opening it, and read_file and list_dir refuse it at once", async () => {
    const out = await grepRepo(root, { pattern: "needle|fifo", glob: "pipes/**" });
    expect(out.output).toBe("pipes/after.ts:1:needleInTheHaystack");
    await expect(readFile(root, { path: "pipes/fifo.ts" })).rejects.toThrow(/named pipe \(FIFO\)/);
    await expect(listDir(root, { path: "pipes/fifo.ts" })).rejects.toThrow(/not a directory/);
    expect((await listDir(root, { path: "pipes" })).output).toBe("after.ts\nfifo.ts");
  });
});

describe("grep_repo and the server's event loop", () => {
  it("keeps /healthz answering in under a second while hostile searches run", async () => {
    const stack = await startStack();
    try {
      const latencies: number[] = [];
      let searching = true;
      const poll = (async () => {
        while (searching) {
          const started = performance.now();
          const res = await fetch(`${stack.base}/healthz`);
          await res.arrayBuffer();
          expect(res.status).toBe(200);
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      try {
        for (const pattern of [
          "(.*a){20}",
          "a.*token",
          "(\\w+\\s?)*$",
          "/(a|b|c)*a(a|b){20}q/i",
          "(.{0,45}e){10}\\(",
        ]) {
          const out = await grepRepo(root, { pattern, max_results: GREP_MAX_RESULTS });
          expect(out.output).not.toMatch(/time budget/);
        }
      } finally {
        searching = false;
        await poll;
      }
      expect(latencies.length).toBeGreaterThan(0);
      expect(Math.max(...latencies)).toBeLessThan(1000);
    } finally {
      await stack.close();
    }
  });
});
