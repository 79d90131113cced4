import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runGateCli } from "../helpers/run-cli.js";
import { corpusWith } from "../detectors/rules/rule-policies.js";
import { PROPOSAL, storeBytes, storeWithReviews } from "./whatif-store.js";

const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "", GATE_LOG_LEVEL: "silent" };

interface Report {
  replayed: number;
  changes: {
    review_id: string;
    pr: string;
    route_then: string | null;
    route_now: string;
    route_would: string;
    appeared: string[];
    disappeared: string[];
  }[];
  summary: { newly_waiting: number; no_longer_waiting: number; unchanged: number };
}

let store: { dir: string; db: string };
let proposal: string;
beforeAll(async () => {
  store = await storeWithReviews(env);
  proposal = path.join(store.dir, "proposed.yml");
  fs.writeFileSync(proposal, PROPOSAL);
}, 180_000);

describe("gate config whatif on SQLite", { timeout: 120_000 }, () => {
  it("lists exactly the reviews a proposal changes, with --json the same, and leaves the store's bytes as they were", async () => {
    const before = storeBytes(store.db);
    const at = { ...env, GATE_DB: store.db, GATE_DATA_DIR: store.dir };
    const json = await runGateCli(["config", "whatif", proposal, "--json"], { env: at, cwd: store.dir });
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as Report;
    expect(report.replayed).toBe(9);
    const changed = report.changes.map((c) => `${c.pr}: ${c.route_now} -> ${c.route_would}`).sort();
    expect(changed).toEqual([
      // The README typo and the date-fns bump pass with no look today; with a threshold of 5 a specialist looks (and clears them).
      "acme/web#101: auto_approved -> approved",
      "acme/web-dashboard#231: auto_approved -> approved",
      // The MPL-2.0 date-fns: a note today, a blocking licence finding once MPL-2.0 is denied.
      "acme/web-dashboard#232: approved -> human",
    ]);
    const mpl = report.changes.find((c) => c.pr === "acme/web-dashboard#232");
    expect(mpl?.route_then).toBe(mpl?.route_now);
    expect(mpl?.appeared.some((f) => f.includes("blocking"))).toBe(true);
    expect(report.summary).toEqual({ newly_waiting: 1, no_longer_waiting: 0, unchanged: 8 });

    const text = await runGateCli(["config", "whatif", proposal], { env: at, cwd: store.dir });
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    const reviewLines = lines
      .filter((l) => / \(r-[0-9a-f]+\): route then /.test(l))
      .map((l) => l.split(" (")[0])
      .sort();
    expect(reviewLines).toEqual(report.changes.map((c) => c.pr).sort());
    // Each route in words that read: the stored one, today's replay, the proposal's.
    expect(lines).toContain(
      `acme/web-dashboard#232 (${mpl?.review_id}): route then ${mpl?.route_then}, now approved, with the proposal human`,
    );
    expect(text.stdout).not.toMatch(/would (auto_approved|approved|human)/);
    for (const f of mpl?.appeared ?? []) expect(text.stdout).toContain(`  + ${f}`);
    expect(lines.at(-1)).toContain(
      "9 review(s) replayed in rules mode (no model calls), 3 change: 1 would newly wait for a person, 0 would no longer, 8 unchanged",
    );

    expect(storeBytes(store.db)).toEqual(before);
  });

  it("--repo and --since narrow what is replayed; a proposal with an error is refused at file:line:col", async () => {
    const at = { ...env, GATE_DB: store.db, GATE_DATA_DIR: store.dir };
    const one = await runGateCli(["config", "whatif", proposal, "--repo", "acme/web", "--json"], {
      env: at,
      cwd: store.dir,
    });
    const report = JSON.parse(one.stdout) as Report;
    expect(report.changes.map((c) => c.pr)).toEqual(["acme/web#101"]);
    const none = await runGateCli(["config", "whatif", proposal, "--since", "0h", "--json"], {
      env: at,
      cwd: store.dir,
    });
    expect((JSON.parse(none.stdout) as Report).replayed).toBe(0);
    const bad = path.join(store.dir, "bad.yml");
    fs.writeFileSync(bad, "version: 1\npolicies:\n  ACME-99: { blocking: true }\n");
    const refused = await runGateCli(["config", "whatif", bad], { env: at, cwd: store.dir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`${bad}:3:3: policies.ACME-99`);
  });

  it("--policies replays with a proposed policy folder: a new rule's findings appear where its code is", async () => {
    const at = { ...env, GATE_DB: store.db, GATE_DATA_DIR: store.dir };
    const rule = [
      "---",
      "id: ACME-02",
      "title: Sessions are checked by the platform's verifySession",
      "specialty: security",
      "severity: medium",
      "blocking: false",
      "version: 1",
      "rules:",
      "  - id: no-own-session-check",
      "    language: TypeScript",
      '    rule: { pattern: "validateSession($$$ARGS)" }',
      "    message: call the platform's verifySession instead",
      "---",
      "# ACME-02",
      "",
      "Sessions are checked in one place.",
      "",
    ].join("\n");
    const same = path.join(store.dir, "same.yml");
    fs.writeFileSync(same, "version: 1\n");
    const r = await runGateCli(["config", "whatif", same, "--policies", corpusWith({ "ACME-02.md": rule }), "--json"], {
      env: at,
      cwd: store.dir,
    });
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout) as Report;
    // Only the auth refactor calls validateSession (twice: the demo reviews 003 and 003b).
    expect(report.changes.map((c) => c.pr).sort()).toEqual(["acme/accounts#214", "acme/accounts#215"]);
    for (const c of report.changes) {
      expect(c.appeared).toEqual([expect.stringMatching(/^ACME-02 src\/auth\/session\.ts:\d+ \(medium\)$/)]);
      expect(c.disappeared).toEqual([]);
    }
  });
});
