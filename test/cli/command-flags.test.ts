import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS, flagProblem, flagsOf } from "../../src/cli/command-table.js";
import { CLI_OPTIONS } from "../../src/cli/run-cli.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const cwd = tempDir("gate-flags-");
afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "", GATE_DB: path.join(cwd, "state", "gate.db"), GATE_LOG_LEVEL: "silent" };
const flagsIn = (synopsis: string) => [...synopsis.matchAll(/--([a-z]+)/g)].map((m) => m[1] ?? "");

/** Every command and subcommand of the table, with the flags its lines name. */
const groups = [...new Set(COMMANDS.map((u) => `${u.command} ${u.sub ?? ""}`.trim()))].map((key) => {
  const [command = "", sub] = key.split(" ");
  const lines = COMMANDS.filter((u) => u.command === command && u.sub === sub);
  return { key, command, sub, named: new Set(lines.flatMap((u) => flagsIn(u.synopsis))) };
});

describe("each command takes only the flags its lines of the table name", () => {
  it.each(groups)("gate $key", ({ key, command, sub, named }) => {
    expect(new Set(flagsOf(command, sub))).toEqual(named);
    for (const flag of Object.keys(CLI_OPTIONS)) {
      const problem = flagProblem(command, sub, [flag]);
      if (named.has(flag) || flag === "help" || flag === "version") {
        expect(problem, `--${flag}`).toBeUndefined();
      } else {
        expect(problem, `--${flag}`).toContain(`"gate ${key}" does not take --${flag}; its flags: `);
        for (const f of named) expect(problem).toContain(`--${f}`);
        if (named.size === 0) expect(problem).toContain("its flags: none");
      }
    }
  });

  it("a subcommand the table does not hold is judged by the command's own lines", () => {
    expect(flagProblem("policies", "acme/web", ["repo", "json"])).toBeUndefined();
    expect(flagProblem("policies", "acme/web", ["strict"])).toContain('"gate policies" does not take --strict');
  });
});

describe("the CLI refuses a flag its command does not take", { timeout: 60_000 }, () => {
  it("`gate graph --json`: exit 2, one line naming graph's flags (none), nothing on stdout, no database", async () => {
    const r = await runGateCli(["graph", "--json"], { env, cwd });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('gate: "gate graph" does not take --json; its flags: none (gate help graph)\n');
    expect(fs.existsSync(path.join(cwd, "state"))).toBe(false);
    // Without it, the same command runs.
    const ok = await runGateCli(["graph"], { env, cwd });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("graph TD;");
  });

  it("names the flags the command does take: `gate review <fixture> --blocks`, `gate config check <file> --json`", async () => {
    const review = await runGateCli(["review", "001_readme_typo", "--blocks"], { env, cwd });
    expect(review.code).toBe(2);
    expect(review.stderr).toContain('"gate review" does not take --blocks; its flags: --json');
    const check = await runGateCli(["config", "check", "gate.yml", "--json"], { env, cwd });
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('"gate config check" does not take --json; its flags: --strict');
  });
});
