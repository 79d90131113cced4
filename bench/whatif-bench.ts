import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { systemClock } from "../src/domain/clock.js";
import { loadFixturePullRequest } from "../src/fixture/fixture.js";
import { loadServerConfigFile } from "../src/gate-file/corpus-check.js";
import { effectiveConfig } from "../src/gate-file/effective.js";
import { BUNDLED_FIXTURES_DIR } from "../src/package-paths.js";
import { loadPolicies } from "../src/policy/load-policies.js";
import type { ReplayCorpus } from "../src/replay/replay-graph.js";
import { whatIf } from "../src/replay/whatif.js";
import { loadSettings } from "../src/settings/index.js";
import { openState } from "../src/store/open-state.js";
import { openStoredReviews } from "../src/store/replay-reader.js";
import { type Figure, progress, singleFigure } from "./stats.js";

const REVIEWS = 1_000;
const RUNS = 2;
const PROPOSAL = "version: 1\nlicenses:\n  deny: [MPL-2.0]\nrisk: { threshold: 5 }\n";

/** A SQLite store of `REVIEWS` settled reviews, the bundled fixtures in turn, each with its pull request kept. */
async function storeOf(dir: string): Promise<string> {
  const file = path.join(dir, "gate.db");
  const state = await openState({ kind: "sqlite", path: file }, systemClock);
  const names = fs
    .readdirSync(BUNDLED_FIXTURES_DIR)
    .filter((n) => fs.existsSync(path.join(BUNDLED_FIXTURES_DIR, n, "pr.json")))
    .sort();
  for (let i = 0; i < REVIEWS; i++) {
    const name = names[i % names.length] ?? "001_readme_typo";
    const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, name);
    const id = `r-${i.toString(16).padStart(12, "0")}`;
    await state.store.register({
      id,
      pr: `${pr.repo}#${pr.number}`,
      source: { kind: "fixture", fixturesDir: BUNDLED_FIXTURES_DIR, name },
      repo: pr.repo,
      number: pr.number,
      headSha: pr.headSha,
    });
    await state.pullRequests.put(id, pr);
  }
  await state.close();
  return file;
}

function corpus(configFile: string, policiesDir: string, threshold: number): ReplayCorpus {
  const policies = loadPolicies(policiesDir);
  const { file } = loadServerConfigFile(
    configFile,
    policies.map((p) => p.id),
    "2026-12-01",
  );
  return {
    policies,
    server: { file, config: effectiveConfig(file, policies, { riskThreshold: threshold, sources: [configFile] }) },
  };
}

/**
 * `gate config whatif` over 1,000 stored reviews (the bundled fixtures in turn, on SQLite): read
 * them read-only, replay each twice (today's configuration and a proposal denying MPL-2.0 with a
 * threshold of 5) in rules mode. Wall time of the whole replay, and per review.
 */
export async function whatifFigures(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-bench-whatif-"));
  try {
    progress(`whatif: storing ${REVIEWS} reviews`);
    const db = await storeOf(dir);
    const settings = loadSettings({ GATE_DB: db, GATE_DATA_DIR: dir, GATE_LOG_LEVEL: "silent" }, dir);
    const proposal = path.join(dir, "proposed.yml");
    fs.writeFileSync(proposal, PROPOSAL);
    const corpora = {
      current: corpus(settings.configFile, settings.policiesDir, settings.review.riskThreshold),
      proposed: corpus(proposal, settings.policiesDir, settings.review.riskThreshold),
    };
    const log = pino({ level: "silent" });
    const times: number[] = [];
    const cpu: number[] = [];
    let changes = 0;
    for (let run = 0; run < RUNS; run++) {
      progress(`whatif: replay ${run + 1} of ${RUNS}`);
      const started = performance.now();
      const cpuAt = process.cpuUsage();
      const stored = await openStoredReviews(settings.database);
      const reviews = await stored.list({});
      const report = await whatIf(reviews, corpora, settings, log, systemClock);
      await stored.close();
      times.push(performance.now() - started);
      const used = process.cpuUsage(cpuAt);
      cpu.push((used.user + used.system) / 1000);
      changes = report.changes.length;
      if (report.replayed !== REVIEWS) throw new Error(`replayed ${report.replayed} of ${REVIEWS}`);
    }
    return [
      singleFigure(
        "whatif_replay_1000",
        `gate config whatif over ${REVIEWS.toLocaleString("en")} stored reviews (SQLite, rules mode, each replayed with today's and the proposed configuration)`,
        { label: "read + replay twice + compare", unit: "ms" },
        times,
        { max: 300_000 },
        [
          `${(Math.min(...times) / REVIEWS).toFixed(1)} ms per stored review at best (${(Math.min(...cpu) / REVIEWS).toFixed(1)} ms CPU); ${changes} reviews change`,
        ],
      ),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
