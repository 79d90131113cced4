import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { ReviewResult } from "../../src/domain/review-result.js";
import type { Publisher } from "../../src/domain/review.js";
import { ReviewPublishing } from "../../src/review/publish.js";
import { PgJobQueue } from "../../src/store/postgres/job-queue.js";
import { registerFixture, silentLog, testGate, type TestGate } from "../helpers/gate.js";
import { postgresUrl } from "../helpers/postgres.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function pgGate(): Promise<{ g: TestGate; url: string }> {
  const db = await postgresUrl();
  cleanup.push(() => db.drop());
  const g = await testGate({ GATE_DATABASE_URL: db.url });
  cleanup.push(() => g.close());
  return { g, url: db.url };
}

/** A replica's publishing: its own pool and queue (whose lock pool holds the publish locks). */
function replica(g: TestGate, url: string, name: string, publisher: Publisher) {
  const pool = new pg.Pool({ connectionString: url, max: 3, application_name: `publish-${name}` });
  pool.on("error", () => undefined);
  const queue = new PgJobQueue({ pool, replicaId: name, leaseMs: 3000, log: silentLog });
  cleanup.push(async () => {
    await queue.end();
    await pool.end();
  });
  return new ReviewPublishing({
    store: g.store,
    publishersFor: () => [publisher],
    log: silentLog,
    coordination: queue,
  });
}

describe("a publish whose shared lock is lost midway (PostgreSQL)", () => {
  it("is done again under a lock held to its end: a stale result that landed after another replica's verdict does not stay on the check run, and the review is marked published only then", async () => {
    const { g, url } = await pgGate();
    const review = await registerFixture(g, "001_readme_typo");
    const verdict = await g.runner.run(review.id);
    expect(verdict.status).toBe("done");
    // Back to the moment before it settled: running, its "running" result saved.
    const running: ReviewResult = { ...verdict, status: "running", route: null };
    await g.store.setStatus(review.id, "running");
    expect(await g.store.saveResult(review.id, running)).toBe(true);

    // What the check run shows last, as GitHub would keep it.
    const shown: string[] = [];
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    admin.on("error", () => undefined);
    cleanup.push(() => admin.end());
    let b: ReviewPublishing | undefined;
    let overtaken = false;
    const a = replica(g, url, "a", {
      name: "check",
      publish: async (_r, result) => {
        if (!overtaken) {
          overtaken = true;
          // While a publishes "running", its lock's connection ends (a failover); b saves the
          // verdict and publishes it; a's stale publish lands after b's.
          await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE application_name = 'publish-a' AND datname = current_database() AND state = 'idle'`,
          );
          await g.store.setStatus(review.id, "done");
          await g.store.saveResult(review.id, verdict);
          await b?.publish(review.id);
        }
        shown.push(result.status);
        return { checkRunId: 7 };
      },
    });
    b = replica(g, url, "b", {
      name: "check",
      publish: async (_r, result) => {
        shown.push(result.status);
        return { checkRunId: 7 };
      },
    });

    await a.publish(review.id);
    expect(shown).toEqual(["done", "running", "done"]);
    expect(await g.store.unpublished()).toEqual([]);
    expect(await g.store.lastResult(review.id)).toEqual(verdict);
  });
});
