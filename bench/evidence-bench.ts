import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { pino } from "pino";
import { buildGate } from "../src/build-gate.js";
import { DEMO_FIXTURES } from "../src/cli/commands/demo.js";
import { loadFixturePullRequest } from "../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR, PACKAGE_ROOT } from "../src/package-paths.js";
import { loadSettings } from "../src/settings/index.js";
import { type Figure, progress, singleFigure } from "./stats.js";

const CHANGES = 100_000;
const RUNS = 3;
/** The installed `gate` command (package.json `bin`): the bundle `npm run bench` builds first. */
const GATE_BIN = path.join(PACKAGE_ROOT, "dist/cli/gate.cjs");

/**
 * A SQLite store of `CHANGES` merged PRs, each with its review: the demo's six reviews run once
 * through a real gate (their saved results are the templates), then copied row by row under new
 * ids, PR numbers and merge times over 90 days (one transaction), as a busy year's quarter holds them.
 */
async function storeOf(dir: string): Promise<string> {
  const file = path.join(dir, "gate.db");
  const settings = loadSettings({ GATE_DB: file, GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "silent" }, dir);
  const gate = await buildGate(settings, pino({ level: "silent" }));
  for (const name of DEMO_FIXTURES) {
    const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, name);
    const review = await gate.runner.register({
      source: { kind: "fixture", fixturesDir: BUNDLED_FIXTURES_DIR, name },
      repo: pr.repo,
      number: pr.number,
      headSha: pr.headSha,
      author: pr.author,
    });
    await gate.runner.run(review.id);
  }
  await gate.close();
  const db = new Database(file);
  const templates = db.prepare("SELECT * FROM gate_reviews WHERE result_json IS NOT NULL").all() as Array<
    Record<string, unknown> & { id: string; repo: string; status: string }
  >;
  const columns = Object.keys(templates[0] ?? {});
  const review = db.prepare(
    `INSERT INTO gate_reviews (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
  );
  const change = db.prepare(`INSERT INTO gate_changes (key, kind, repo, pr, commit_sha, head_sha, branch, author,
      merged_by, merged_at, review_id, passed, recorded_at)
    VALUES (@key, 'merge', @repo, @key, @sha, @sha, 'main', @author, 'octo-admin', @at, @id, @passed, @at)`);
  const start = Date.parse("2026-01-01T00:00:00Z");
  db.transaction(() => {
    for (let i = 0; i < CHANGES; i++) {
      const t = templates[i % templates.length];
      if (!t) throw new Error("no template review");
      const id = `r-${i.toString(16).padStart(12, "0")}`;
      const key = `${t.repo}#${100_000 + i}`;
      const at = new Date(start + Math.floor((i * 90 * 86_400_000) / CHANGES)).toISOString();
      const sha = i.toString(16).padStart(40, "0");
      review.run({ ...t, id, pr: key, number: 100_000 + i, head_sha: sha, created_at: at, updated_at: at });
      const passed = t.status === "done" ? 1 : 0;
      change.run({ key, repo: t.repo, sha, author: "dev", at, id, passed });
    }
  })();
  db.close();
  return file;
}

/** Runs the installed CLI with stdout counted, not kept: its wall time and how many bytes it wrote. */
function timedEvidence(db: string, dir: string): Promise<{ ms: number; bytes: number; lines: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [GATE_BIN, "evidence", "--format", "csv"], {
    env: { PATH: process.env.PATH ?? "", GATE_DB: db, GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let bytes = 0;
  let lines = 0;
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) reject(new Error(`gate evidence exited ${code}: ${stderr}`));
      else resolve({ ms: performance.now() - started, bytes, lines });
    });
  });
}

/**
 * `gate evidence --format csv` over 100,000 merged changes on SQLite (each with its review's saved
 * result): the installed command's wall time, start to last byte, and its output's size.
 */
export async function evidenceFigures(): Promise<Figure[]> {
  if (!fs.existsSync(GATE_BIN))
    throw new Error(`${GATE_BIN} is missing: run \`npm run build\` first (npm run bench does)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-bench-evidence-"));
  try {
    progress(`evidence: storing ${CHANGES.toLocaleString("en")} merged changes`);
    const storing = performance.now();
    const db = await storeOf(dir);
    const stored = performance.now() - storing;
    const size = fs.statSync(db).size;
    const times: number[] = [];
    let out = { bytes: 0, lines: 0 };
    for (let run = 0; run < RUNS; run++) {
      progress(`evidence: run ${run + 1} of ${RUNS}`);
      const r = await timedEvidence(db, dir);
      times.push(r.ms);
      out = r;
    }
    if (out.lines !== CHANGES + 1) throw new Error(`gate evidence printed ${out.lines} lines, not ${CHANGES + 1}`);
    return [
      singleFigure(
        "evidence_csv_100000",
        `gate evidence --format csv over ${CHANGES.toLocaleString("en")} merged changes (SQLite, each with its review's saved result; the installed command, start to last byte)`,
        { label: "whole command", unit: "ms" },
        times,
        undefined,
        [
          `${((Math.min(...times) * 1000) / CHANGES).toFixed(1)} µs per change at best; ${(out.bytes / 1e6).toFixed(1)} MB of CSV`,
          `store: ${(size / 1e6).toFixed(0)} MB, written in ${(stored / 1000).toFixed(1)} s`,
        ],
      ),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
