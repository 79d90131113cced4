import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { tempDir } from "../helpers/gate.js";
import { runGateSourceCli } from "../helpers/run-cli.js";

const run = promisify(execFile);
const dir = tempDir("gate-installed-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** package.json's `bin`: what `npx gate` runs. `npm ci` builds it (the `prepare` script). */
const BIN = path.join(PACKAGE_ROOT, "dist/cli/gate.cjs");
const LOADER = path.join(PACKAGE_ROOT, "dist/cli/bundle-loader.cjs");

const env = (db: string) => ({
  PATH: process.env.PATH ?? "",
  HOME: dir,
  GATE_DB: path.join(dir, db),
  GATE_LOG_LEVEL: "silent",
});

/** Runs the installed command in its own process, from a directory that is not the package. */
async function installed(args: string[], db: string): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: env(db), cwd: dir, timeout: 60_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/** Node code run in a fresh process: prints what the bundle loader reports. */
async function node(code: string): Promise<string> {
  const { stdout } = await run(process.execPath, ["-e", code], { env: env("unused.db"), cwd: dir });
  return stdout.trim();
}

/** A result without what differs between two runs of one review. */
const comparable = (json: string) => {
  const { review_id: _id, ...rest } = JSON.parse(json) as Record<string, unknown>;
  return rest;
};

describe("the installed `gate` command (the bundle and its code cache)", { timeout: 180_000 }, () => {
  it("is built: package.json's bin is the bundle's launcher", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    };
    expect(path.join(PACKAGE_ROOT, pkg.bin.gate ?? "")).toBe(BIN);
    expect(fs.existsSync(BIN), `${BIN} is missing: run \`npm run build\``).toBe(true);
  });

  it("gives the same review results as the unbundled source, finding for finding", async () => {
    for (const fixture of [
      "001_readme_typo",
      "004_hardcoded_aws_key",
      "006_sql_injection",
      "007_workflow_pull_request_target",
    ]) {
      const bundled = await installed(["review", fixture, "--json"], `${fixture}-bin.db`);
      const source = await runGateSourceCli(["review", fixture, "--json"], { env: env(`${fixture}-src.db`), cwd: dir });
      expect(bundled.stderr).toBe("");
      expect(bundled.code).toBe(0);
      expect(comparable(bundled.stdout)).toEqual(comparable(source.stdout));
    }
  });

  it("runs review, decide and status across processes: a waiting review is approved", async () => {
    const reviewed = await installed(["review", "002_new_dependency", "--json"], "flow.db");
    const waiting = JSON.parse(reviewed.stdout) as { review_id: string; status: string };
    expect(waiting.status).toBe("waiting_for_human");
    const decided = await installed(["decide", waiting.review_id, "approve", "--by", "alice"], "flow.db");
    expect(decided.code).toBe(0);
    const status = JSON.parse((await installed(["status", waiting.review_id, "--json"], "flow.db")).stdout) as {
      route: string;
      decision: { by: string };
    };
    expect(status.route).toBe("human_approved");
    expect(status.decision.by).toBe("alice");
  });

  it("a usage error is the CLI's own: one line on stderr and exit code 2", async () => {
    const r = await installed(["--no-such-flag"], "usage.db");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gate: Unknown option '--no-such-flag'/);
  });

  it("V8 takes the code cache the build wrote for this bundle", async () => {
    expect(await node(`console.log(require(${JSON.stringify(LOADER)}).loadCliBundle().cacheUsed)`)).toBe("true");
  });

  it("a cache made for another build is not used, and the bundle still loads", async () => {
    const stale = path.join(dir, "stale.cache");
    const real = fs.readFileSync(path.join(PACKAGE_ROOT, "dist/gate.cache"));
    // Same V8 data, but the digest of other bytes (as after a rebuild that failed to write the cache).
    fs.writeFileSync(stale, Buffer.concat([Buffer.alloc(32, 7), real.subarray(32)]));
    const code = `const { loadCliBundle, BUNDLE_FILE } = require(${JSON.stringify(LOADER)});
      const b = loadCliBundle(BUNDLE_FILE, ${JSON.stringify(stale)});
      console.log(b.cacheUsed, typeof b.cli.startCli);`;
    expect(await node(code)).toBe("false function");
  });
});
