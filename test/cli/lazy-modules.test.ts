import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGateSourceCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/gate.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";

const dir = tempDir("gate-lazy-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A preload that registers a module hook writing every module URL the process loads to MODULES_OUT,
 * and at exit the CommonJS modules it required (a `require` made with createRequire passes no ESM hook).
 */
const RECORDER = `data:text/javascript,${encodeURIComponent(`
import fs from "node:fs";
import { createRequire, register } from "node:module";
register("data:text/javascript," + encodeURIComponent(
  'import fs from "node:fs";' +
  'export async function load(url, ctx, next) { fs.appendFileSync(process.env.MODULES_OUT, url + "\\\\n"); return next(url, ctx); }'
));
process.on("exit", () => {
  const required = Object.keys(createRequire(process.cwd() + "/").cache);
  fs.appendFileSync(process.env.MODULES_OUT, required.join("\\n") + "\\n");
});
`)}`;

/** What a detector, the investigator or a live review needs, and a docs-only review does not. */
const ON_DEMAND: Record<string, RegExp> = {
  "ast-grep": /\/node_modules\/@ast-grep\/napi\//,
  secretlint: /\/node_modules\/@secretlint\//,
  "smol-toml": /\/node_modules\/smol-toml\//,
  semver: /\/node_modules\/semver\//,
  tar: /\/node_modules\/tar\//,
  re2js: /\/node_modules\/re2js\//,
  investigator: /\/src\/investigator\//,
  "snapshot download": /\/src\/snapshot\/tarball\.ts/,
  "live licence registries": /\/src\/ecosystems\/registry-resolver\.ts/,
};

/** The ON_DEMAND names among the modules a run loaded. */
function onDemandLoaded(loaded: string[]): string[] {
  return Object.entries(ON_DEMAND)
    .filter(([, pattern]) => loaded.some((u) => pattern.test(u)))
    .map(([name]) => name);
}

/** Reviews a fixture with the recorder on; returns the review's route and the modules its process loaded. */
async function reviewRecorded(fixture: string): Promise<{ route: string; loaded: string[] }> {
  const name = fixture.replace(/\W/g, "_");
  const out = path.join(dir, `${name}.modules.txt`);
  const r = await runGateSourceCli(["review", path.join(BUNDLED_FIXTURES_DIR, fixture), "--json"], {
    env: { PATH: process.env.PATH ?? "", HOME: dir, GATE_DB: path.join(dir, `${name}.db`), MODULES_OUT: out },
    cwd: dir,
    preload: [RECORDER],
  });
  expect(r.code, r.stderr).toBe(0);
  return { route: (JSON.parse(r.stdout) as { route: string }).route, loaded: fs.readFileSync(out, "utf8").split("\n") };
}

describe("a command loads only what its run uses", () => {
  it("a fixture review without an API key or GitHub credentials never loads the Anthropic SDK, Octokit or PostgreSQL's client", async () => {
    const out = path.join(dir, "modules.txt");
    const r = await runGateSourceCli(["review", "001_readme_typo", "--json"], {
      env: { PATH: process.env.PATH ?? "", HOME: dir, GATE_DB: path.join(dir, "gate.db"), MODULES_OUT: out },
      cwd: dir,
      preload: [RECORDER],
    });
    expect(r.stderr).toBe("");
    expect((JSON.parse(r.stdout) as { route: string }).route).toBe("auto_approved");
    const loaded = fs.readFileSync(out, "utf8").split("\n");
    // The recorder sees the modules the review does load (the graph runs on LangGraph) ...
    expect(loaded.some((u) => u.includes("/node_modules/@langchain/langgraph/"))).toBe(true);
    // ... and none of the clients it has no use for.
    expect(loaded.filter((u) => u.includes("/node_modules/@anthropic-ai/sdk/"))).toEqual([]);
    expect(loaded.filter((u) => u.includes("/node_modules/@octokit/"))).toEqual([]);
    expect(loaded.filter((u) => /\/node_modules\/(pg|@langchain\/langgraph-checkpoint-postgres)\//.test(u))).toEqual(
      [],
    );
    // Nor the parsers, scanners and investigator that only other pull requests need.
    expect(onDemandLoaded(loaded)).toEqual([]);
  });

  it("a review whose files need a parser, secretlint or an investigation loads them then", async () => {
    const [code, secret, cargo] = await Promise.all([
      reviewRecorded("003b_auth_change_logs_token"),
      reviewRecorded("004_hardcoded_aws_key"),
      reviewRecorded("eval/lic-cargo-gpl"),
    ]);
    // TypeScript parsed, the question investigated (re2js greps the snapshot).
    expect(onDemandLoaded(code.loaded)).toEqual(["ast-grep", "re2js", "investigator"]);
    expect(onDemandLoaded(secret.loaded)).toEqual(["secretlint"]);
    expect(onDemandLoaded(cargo.loaded)).toEqual(["smol-toml"]);
    expect([code.route, secret.route, cargo.route]).toEqual(["human", "human", "human"]);
  });

  it("`gate config check` loads neither the graph nor the database", async () => {
    const out = path.join(dir, "config-modules.txt");
    const file = path.join(dir, "gate.yml");
    fs.writeFileSync(file, "version: 1\nrisk: { threshold: 20 }\n");
    const r = await runGateSourceCli(["config", "check", file], {
      env: { PATH: process.env.PATH ?? "", HOME: dir, MODULES_OUT: out },
      cwd: dir,
      preload: [RECORDER],
    });
    expect(r.code).toBe(0);
    const loaded = fs.readFileSync(out, "utf8").split("\n");
    expect(loaded.some((u) => u.includes("/src/cli/commands/config.ts"))).toBe(true);
    expect(loaded.filter((u) => u.includes("/node_modules/@langchain/"))).toEqual([]);
    expect(loaded.filter((u) => u.includes("/src/build-gate.ts"))).toEqual([]);
  });
});
