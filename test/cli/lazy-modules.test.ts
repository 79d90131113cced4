import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGateCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/gate.js";

const dir = tempDir("gate-lazy-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A preload that registers a module hook writing every module URL the process loads to MODULES_OUT. */
const RECORDER = `data:text/javascript,${encodeURIComponent(`
import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(
  'import fs from "node:fs";' +
  'export async function load(url, ctx, next) { fs.appendFileSync(process.env.MODULES_OUT, url + "\\\\n"); return next(url, ctx); }'
));
`)}`;

describe("a command loads only what its run uses", () => {
  it("a fixture review without an API key or GitHub credentials never loads the Anthropic SDK, Octokit or PostgreSQL's client", async () => {
    const out = path.join(dir, "modules.txt");
    const r = await runGateCli(["review", "001_readme_typo", "--json"], {
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
  });

  it("`gate config check` loads neither the graph nor the database", async () => {
    const out = path.join(dir, "config-modules.txt");
    const file = path.join(dir, "gate.yml");
    fs.writeFileSync(file, "version: 1\nrisk: { threshold: 20 }\n");
    const r = await runGateCli(["config", "check", file], {
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
