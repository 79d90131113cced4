import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import type { ReviewJob } from "../../src/domain/review-jobs.js";
import type { ReviewRegistration } from "../../src/domain/review-store.js";
import { onNextTurn } from "../../src/server/answers-first.js";
import { createInbox } from "../../src/server/inbox.js";
import { reviewJobHandler } from "../../src/server/jobs.js";
import { InProcessJobs } from "../../src/server/review-queue.js";
import { buildGate, type GateExtras } from "../../src/build-gate.js";
import { loadSettings } from "../../src/settings/index.js";
import type { OpenState } from "../../src/store/open-state.js";
import { loadFixturePullRequest } from "../../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";

/** A fresh temp directory, removed by the caller's cleanup. */
export function tempDir(prefix = "gate-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const silentLog = pino({ level: "silent" });

/** A gate on a temp SQLite file with the given settings and extras. */
export async function testGate(env: Record<string, string> = {}, extras: GateExtras = {}, dir = tempDir()) {
  const settings = loadSettings({ GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir, ...env }, dir);
  const gate = await buildGate(settings, silentLog, extras);
  return { ...gate, dir, settings };
}

export type TestGate = Awaited<ReturnType<typeof testGate>>;

/** The SQLite connection under a gate (for what only SQLite itself can show); fails on a PostgreSQL gate. */
export function sqliteDb(gate: { state: OpenState }) {
  if (gate.state.kind !== "sqlite") throw new Error(`this test reads SQLite, and the gate is on ${gate.state.kind}`);
  return gate.state.db;
}

/** The registration of a bundled fixture's review, as a delivery of its PR would ask for it. */
export function fixtureRegistration(name: string, fixturesDir = BUNDLED_FIXTURES_DIR): ReviewRegistration {
  const pr = loadFixturePullRequest(fixturesDir, name);
  return {
    source: { kind: "fixture", fixturesDir, name },
    repo: pr.repo,
    number: pr.number,
    headSha: pr.headSha,
    title: pr.title,
    url: pr.url,
    author: pr.author,
  };
}

/** Registers a bundled fixture's review (not yet run). */
export function registerFixture(gate: TestGate, name: string, fixturesDir = BUNDLED_FIXTURES_DIR) {
  return gate.runner.register(fixtureRegistration(name, fixturesDir));
}

/** Registers and runs a bundled fixture's review. */
export async function reviewFixture(gate: TestGate, name: string, fixturesDir = BUNDLED_FIXTURES_DIR) {
  const review = await registerFixture(gate, name, fixturesDir);
  return gate.runner.run(review.id);
}

/**
 * The gates a test file opens: `open` makes one (on `dir` to share a database, as a second
 * process would), `closeAll` (afterEach) closes them and removes their folders.
 */
export function openedGates() {
  let gates: TestGate[] = [];
  return {
    async open(extras: GateExtras = {}, dir?: string) {
      const g = await testGate({}, extras, dir);
      gates.push(g);
      return g;
    },
    async closeAll() {
      for (const g of gates) await g.close();
      for (const dir of new Set(gates.map((g) => g.dir))) fs.rmSync(dir, { recursive: true, force: true });
      gates = [];
    },
  };
}

/** The server's job wiring on a test gate: an in-process queue whose jobs go through the handler, with the inbox. */
export function wiredJobs(g: TestGate) {
  const jobs = new InProcessJobs(2, silentLog, (job: ReviewJob) => handle(job));
  const inbox = createInbox({ store: g.store, runner: g.runner, jobs, log: silentLog, later: onNextTurn });
  const handle = reviewJobHandler(g.runner, inbox);
  return { handle, jobs, inbox };
}
