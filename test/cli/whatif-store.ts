import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

/** What the proposal under test says: MPL-2.0 denied, and a risk threshold far below the default. */
export const PROPOSAL = "version: 1\nlicenses:\n  deny: [MPL-2.0]\nrisk: { threshold: 5 }\n";

/**
 * A copy of fixture 017 (a date-fns version bump, auto-approved today) as another PR whose
 * date-fns is MPL-2.0: today a licence off the allow-list is a note; denied, it blocks.
 */
export function mplFixture(): string {
  const dir = path.join(tempDir("gate-whatif-fixture-"), "mpl_date_fns");
  fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "017_version_bump"), dir, { recursive: true });
  const pr = JSON.parse(fs.readFileSync(path.join(dir, "pr.json"), "utf8"));
  fs.writeFileSync(
    path.join(dir, "pr.json"),
    JSON.stringify({ ...pr, number: 232, html_url: "https://github.com/acme/web-dashboard/pull/232" }),
  );
  const registry = JSON.parse(fs.readFileSync(path.join(dir, "registry.json"), "utf8"));
  registry["npm:date-fns"] = { license: "MPL-2.0" };
  fs.writeFileSync(path.join(dir, "registry.json"), JSON.stringify(registry));
  fs.rmSync(path.join(dir, "expected.json"), { force: true });
  return dir;
}

/** A SQLite store holding the demo's six reviews and three fixtures' (the MPL copy, 011, 009), made by the real CLI. */
export async function storeWithReviews(env: NodeJS.ProcessEnv): Promise<{ dir: string; db: string }> {
  const dir = tempDir("gate-whatif-");
  const db = path.join(dir, "gate.db");
  const at = { ...env, GATE_DB: db, GATE_DATA_DIR: dir };
  for (const args of [
    ["demo", "--json"],
    ["review", mplFixture(), "--json"],
    ["review", "011_unknown_license", "--json"],
    ["review", "009_gpl_dev_dependency", "--json"],
  ]) {
    const r = await runGateCli(args, { env: at, cwd: dir });
    if (r.stdout === "") throw new Error(`gate ${args.join(" ")} failed: ${r.stderr}`);
  }
  return { dir, db };
}

/** sha256 of each file beside (and of) the SQLite store: the file, its WAL and its shared memory. */
export function storeBytes(db: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of [db, `${db}-wal`, `${db}-shm`]) {
    if (fs.existsSync(f)) out[path.basename(f)] = createHash("sha256").update(fs.readFileSync(f)).digest("hex");
  }
  return out;
}
