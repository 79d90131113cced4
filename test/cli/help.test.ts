import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, helpText } from "../../src/cli/command-table.js";
import { CLI_OPTIONS } from "../../src/cli/run-cli.js";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const cwd = tempDir("gate-help-");
const env = { PATH: process.env.PATH ?? "", GATE_DB: path.join(cwd, "gate.db") };
const flagsIn = (text: string) => new Set([...text.matchAll(/--([a-z]+)/g)].map((m) => m[1] ?? ""));

describe("gate --help and the command table", () => {
  it("names every flag the parser accepts, and accepts every flag it names", () => {
    const named = flagsIn(COMMANDS.map((u) => u.synopsis).join("\n"));
    const accepted = new Set(Object.keys(CLI_OPTIONS));
    expect([...accepted].filter((f) => !named.has(f))).toEqual([]);
    expect([...named].filter((f) => !accepted.has(f))).toEqual([]);
  });

  it("lists every command and subcommand the dispatcher runs, and no other", () => {
    const source = fs.readFileSync(path.join(PACKAGE_ROOT, "src/cli/run-cli.ts"), "utf8");
    const dispatched = new Set([
      ...[...source.matchAll(/case "([a-z]+)":/g)].map((m) => m[1]),
      ...[...source.matchAll(/command === "([a-z]+)"/g)].map((m) => m[1]),
    ]);
    const listed = new Set(COMMANDS.map((u) => u.command));
    expect([...dispatched].sort()).toEqual([...listed].sort());
    // The subcommands each command checks for (`args[0] !== "copy"`, `sub !== "check"`, `rest[0] === "test"`).
    const subs: Record<string, string[]> = {
      policies: ["run-cli.ts"],
      // `config whatif` is dispatched before the gate is built (run-cli.ts), `config check` by its command.
      config: ["commands/config.ts", "run-cli.ts"],
      db: ["commands/db.ts"],
      audit: ["commands/audit.ts"],
      auditor: ["commands/auditor.ts"],
      osv: ["commands/osv.ts"],
    };
    for (const u of COMMANDS.filter((c) => c.sub)) {
      const files = (subs[u.command] ?? ["missing"]).map((f) =>
        fs.readFileSync(path.join(PACKAGE_ROOT, "src/cli", f), "utf8"),
      );
      expect(
        files.some((f) => f.includes(`"${u.sub}"`)),
        `${u.command} ${u.sub}`,
      ).toBe(true);
    }
  });

  it("prints every line of the table for `gate --help`, exit 0", async () => {
    const r = await runGateCli(["--help"], { env, cwd });
    expect(r.code).toBe(0);
    for (const u of COMMANDS) {
      expect(r.stdout).toContain(u.synopsis);
      expect(r.stdout).toContain(u.what);
    }
    expect(r.stdout).toContain("gate policies [--repo owner/name] [--json]");
  });

  it("prints one command's lines for `gate <command> --help` and `gate help <command> [<sub>]`", async () => {
    const policies = await runGateCli(["policies", "--help"], { env, cwd });
    expect(policies.code).toBe(0);
    expect(policies.stdout).toContain("--repo owner/name");
    expect(policies.stdout).toContain("gate policies test <policy-file>");
    expect(policies.stdout).not.toContain("gate review");

    const test = await runGateCli(["help", "policies", "test"], { env, cwd });
    expect(test.code).toBe(0);
    expect(test.stdout).toContain("gate policies test <policy-file>");
    expect(test.stdout).not.toContain("--repo");

    const unknown = await runGateCli(["frobnicate", "--help"], { env, cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });

  it("prints package.json's version for `gate --version`, `gate -V` and `gate version`, exit 0", async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [["--version"], ["-V"], ["version"]]) {
      const r = await runGateCli(args, { env, cwd });
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout, args.join(" ")).toBe(`${pkg.version}\n`);
    }
  });

  it("has a text for every command and subcommand of the table", () => {
    for (const u of COMMANDS) {
      const text = helpText(u.command, u.sub);
      expect(text).toContain(u.synopsis);
    }
    expect(helpText("frobnicate")).toBeUndefined();
  });
});
