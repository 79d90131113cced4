import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { type FakeGitHub, startFakeGitHub } from "../test/fakes/github-api.js";
import { runAdmin } from "../test/helpers/pg-admin.js";
import { ROOT } from "./child-process.js";
import { burst, delivery, servePrs, startProcess, stop, waitUntil } from "./server-bench.js";
import { type Figure, singleFigure } from "./stats.js";

const SECRET = "bench-webhook-secret";
/** Docs-only PRs per round, delivered at once and split evenly across the replicas. */
const REVIEWS = 30;
const ROUNDS = 3;
/** The PostgreSQL server the bench makes its databases on (GATE_BENCH_POSTGRES_URL, else the test server). */
const POSTGRES = process.env.GATE_BENCH_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/test";

interface Setup {
  id: string;
  what: string;
  label: string;
  replicas: number;
  postgres: boolean;
}

const SETUPS: Setup[] = [
  {
    id: "replicas_sqlite",
    what: "one server process on SQLite",
    label: "SQLite, 1 process",
    replicas: 1,
    postgres: false,
  },
  {
    id: "replicas_pg_1",
    what: "one replica on PostgreSQL",
    label: "PostgreSQL, 1 replica",
    replicas: 1,
    postgres: true,
  },
  {
    id: "replicas_pg_2",
    what: "two replicas on one PostgreSQL database",
    label: "PostgreSQL, 2 replicas",
    replicas: 2,
    postgres: true,
  },
];

const admin = (sql: string) => runAdmin(POSTGRES, sql);

/** Why the PostgreSQL server cannot be used, or undefined when it can. */
async function unreachable(): Promise<string | undefined> {
  try {
    await admin("SELECT 1");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  }
}

/** Starts a setup's server processes (built `dist/main.js`, GATE_SLACK=off, a token) on a fresh database. */
async function startSetup(setup: Setup, gh: FakeGitHub, dir: string) {
  const database = `gate_bench_${randomBytes(5).toString("hex")}`;
  if (setup.postgres) await admin(`CREATE DATABASE ${database}`);
  const url = new URL(POSTGRES);
  url.pathname = `/${database}`;
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  try {
    for (let i = 0; i < setup.replicas; i++) {
      const logFile = path.join(dir, `${setup.id}-${i}.log`);
      const started = await startProcess(
        [path.join(ROOT, "dist/main.js")],
        {
          PATH: process.env.PATH ?? "",
          GITHUB_WEBHOOK_SECRET: SECRET,
          PORT: "0",
          GATE_SLACK: "off",
          GITHUB_TOKEN: "bench-token",
          GATE_GITHUB_API_URL: gh.url,
          // The fake is on loopback: GitHub's one-write-a-second pacing would be all this measured.
          GATE_GITHUB_WRITE_SPACING_MS: "0",
          GATE_LOG_LEVEL: "info",
          GATE_DATA_DIR: path.join(dir, `${setup.id}-${i}`),
          GATE_REPLICA_ID: `${setup.id}-${i}`,
          ...(setup.postgres ? { GATE_DATABASE_URL: url.toString() } : { GATE_DB: path.join(dir, `${setup.id}.db`) }),
        },
        logFile,
      );
      children.push(started.child);
      ports.push(started.port);
    }
  } catch (error) {
    for (const c of children) c.kill("SIGKILL");
    throw error;
  }
  return {
    ports,
    stop: async () => {
      await Promise.all(children.map(stop));
      if (setup.postgres) await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

/**
 * Reviews per minute through the whole server (webhook to final commit status) on SQLite (one
 * process), on PostgreSQL with one replica, and with two replicas sharing the job table, each
 * replica GATE_CONCURRENCY=2, deliveries split evenly; rounds interleaved across the setups.
 */
export async function replicaFigures(): Promise<Figure[]> {
  const why = await unreachable();
  if (why) {
    process.stderr.write(`bench: replicas: PostgreSQL at ${new URL(POSTGRES).host} unreachable (${why}); skipped\n`);
    return [];
  }
  const gh = await startFakeGitHub();
  const dir = mkdtempSync(path.join(tmpdir(), "gate-bench-replicas-"));
  const rates = new Map<string, number[]>(SETUPS.map((s) => [s.id, []]));
  let next = 1;
  try {
    const running = [];
    for (const setup of SETUPS) running.push({ setup, ...(await startSetup(setup, gh, dir)) });
    try {
      for (let round = 0; round <= ROUNDS; round++) {
        for (const { setup, ports } of running) {
          const prs = servePrs(gh, next, REVIEWS);
          next += REVIEWS;
          const shas = new Set(prs.map((p) => p.sha));
          const deliveries = await Promise.all(prs.map(delivery));
          const started = performance.now();
          await Promise.all(
            ports.map((port, i) =>
              burst(
                port,
                deliveries.filter((_, j) => j % ports.length === i),
              ),
            ),
          );
          await waitUntil(
            `${setup.label}, round ${round}`,
            () =>
              gh.statuses.filter((s) => shas.has(s.sha) && (s.body as { state?: string }).state === "success").length,
            REVIEWS,
            600_000,
          );
          // Round 0 warms each setup up (its first reviews load the graph and the detectors).
          if (round > 0) rates.get(setup.id)?.push(REVIEWS / ((performance.now() - started) / 60_000));
        }
      }
    } finally {
      for (const r of running) await r.stop();
    }
  } finally {
    await gh.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return SETUPS.map((setup) =>
    singleFigure(
      setup.id,
      `reviews per minute of ${REVIEWS} docs-only PRs delivered at once through ${setup.what} (webhook to final status, GATE_CONCURRENCY=2 each, loopback fake GitHub without write pacing)`,
      { label: setup.label, unit: "reviews/min" },
      rates.get(setup.id) ?? [],
    ),
  );
}
