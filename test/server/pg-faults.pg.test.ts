import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defined } from "../helpers/defined.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { runAdmin } from "../helpers/pg-admin.js";
import { startChildServer, type ChildServer } from "./child-server.js";
import * as stack from "./helpers.js";

/** Two server processes (tsx compiles on the fly), fifty reviews and a database that keeps dropping them: minutes on a loaded machine. */
const SLOW = 240_000;
/** What the test's own connections call themselves, so the terminator spares them. */
const OURS = "gate-fault-test";

/** Fixtures that pass, and fixtures that wait for a person, served as fifty pull requests. */
const FIXTURES = [
  "001_readme_typo",
  "002_new_dependency",
  "004_hardcoded_aws_key",
  "006_sql_injection",
  "008_weak_crypto",
  "013_logs_user_email",
  "016_tests_only",
  "017_version_bump",
];
const DELIVERIES = 50;

const ReviewRow = z.object({
  pr: z.string(),
  status: z.string(),
  result_json: z.string().nullable(),
  result_published: z.number(),
});
type ReviewRow = z.infer<typeof ReviewRow>;
/** Settled, its verdict saved (never a late "queued" or "running" over it) and published. */
const settled = (r: ReviewRow) =>
  (r.status === "done" || r.status === "waiting_for_human") &&
  r.result_json !== null &&
  !["queued", "running"].includes(z.object({ status: z.string() }).parse(JSON.parse(r.result_json)).status) &&
  r.result_published === 1;

let db: TestDatabase | undefined;
const pools: pg.Pool[] = [];
const clients: pg.Client[] = [];
const stops: Array<() => Promise<void>> = [];
let fakes: stack.StackFakes | undefined;
const children: ChildServer[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-pg-faults-"));

afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map((c) => c.exited));
  await Promise.all([...pools.map((p) => p.end()), ...clients.map((c) => c.end().catch(() => undefined))]);
  if (db) await runAdmin(serverUrl(db.url), `ALTER DATABASE ${dbName(db.url)} ALLOW_CONNECTIONS true`);
  await db?.drop();
  await Promise.all([fakes?.gh.close(), fakes?.registry.close(), fakes?.osv.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const dbName = (url: string) => new URL(url).pathname.slice(1);
/** The same server's `test` database: where the admin statements about our database run. */
function serverUrl(url: string): string {
  const u = new URL(url);
  u.pathname = "/test";
  return u.toString();
}

/**
 * Terminates every connection of the gate's processes to `name` every `everyMs`, from an admin
 * connection of its own, until stopped; counts the connections it ended.
 */
async function terminator(url: string, everyMs: number) {
  const admin = new pg.Client({ connectionString: url, application_name: `${OURS}-admin` });
  admin.on("error", () => undefined);
  clients.push(admin);
  await admin.connect();
  let ended = 0;
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const { rows } = await admin.query<{ ok: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name NOT LIKE '${OURS}%'`,
      );
      ended += rows.filter((r) => r.ok).length;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  const halt = async () => {
    stop = true;
    await loop;
  };
  stops.push(halt);
  return { ended: () => ended, stop: halt };
}

/** Sends one delivery until the gate takes it, as GitHub's (or the operator's) redelivery would after a 5xx; the 5xx seen. */
async function deliverUntilTaken(base: string, body: string): Promise<number[]> {
  const id = randomUUID();
  const refused: number[] = [];
  for (let i = 0; i < 40; i++) {
    const answer = await stack.postWebhook(base, body, { id }).catch(() => ({ status: 599 }));
    if (answer.status === 202 || (answer.status === 200 && refused.length > 0)) return refused;
    expect(answer.status, "a webhook that could not be stored answers 5xx, nothing else").toBeGreaterThanOrEqual(500);
    refused.push(answer.status);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`delivery ${id} was never taken (answers: ${refused.join(", ")}; 599: no answer at all)`);
}

describe("PostgreSQL connections terminated under two gate processes", { timeout: 3 * SLOW }, () => {
  it("a burst of 50 deliveries while pg_terminate_backend keeps ending their connections: no process exits, one completed check run per delivery, nothing stuck; /healthz says 503 while the database refuses connections and 200 once it takes them again", async () => {
    db = await postgresUrl();
    const sql = new pg.Pool({ connectionString: db.url, max: 2, application_name: OURS });
    sql.on("error", () => undefined);
    pools.push(sql);
    const reviews = async () => z.array(ReviewRow).parse((await sql.query("SELECT * FROM gate_reviews")).rows);
    const jobs = async () => (await sql.query("SELECT id FROM gate_jobs")).rows.length;

    fakes = await stack.startFakes();
    const { gh } = fakes;
    const prs = Array.from({ length: DELIVERIES }, (_, i) =>
      stack.serveFixture(defined(fakes, "the fakes"), FIXTURES[i % FIXTURES.length] ?? "", {
        number: 1000 + i,
        headSha: randomBytes(20).toString("hex"),
      }),
    );
    const exits: string[] = [];
    const replica = async (name: string) => {
      const env = stack.stackEnv(defined(fakes, "the fakes"), path.join(dir, name), {
        env: { GATE_DATABASE_URL: db?.url ?? "", GATE_REPLICA_ID: name, GATE_JOB_LEASE: "3s", GATE_CONCURRENCY: "2" },
      });
      const child = await startChildServer(env, SLOW);
      void child.exited.then((e) => exits.push(`${name} exited (${e.code ?? e.signal})`));
      children.push(child);
      return child;
    };
    const [a, b] = await Promise.all([replica("replica-a"), replica("replica-b")]);

    // Connections end every 150 ms, from before the burst until well into the reviews it starts.
    const cut = await terminator(db.url, 150);
    const refusals = await Promise.all(
      prs.map(async (pr, i) => {
        await new Promise((r) => setTimeout(r, i * 20));
        return deliverUntilTaken(i % 2 === 0 ? a.base : b.base, JSON.stringify(stack.pullRequestEvent("opened", pr)));
      }),
    );
    // The faults last until half the reviews settled, or a minute: on a starved machine a statement
    // can take longer than the 150 ms between cuts, and the reviews then wait for the cuts to stop.
    const faultsUntil = Date.now() + 60_000;
    await stack.waitFor(
      "half the reviews settled, or a minute of faults",
      async () => Date.now() > faultsUntil || (await reviews()).filter(settled).length >= DELIVERIES / 2,
      SLOW,
    );
    await cut.stop();
    expect(cut.ended(), "connections terminated").toBeGreaterThan(20);

    await stack
      .waitFor(
        "every review settled and published, and no job left",
        async () => {
          const rows = await reviews();
          return rows.length === DELIVERIES && rows.every(settled) && (await jobs()) === 0;
        },
        SLOW,
      )
      .catch(async (error: unknown) => {
        // What is stuck, for the failure to say: the reviews not settled, the jobs left, each replica's last lines.
        const stuck = (await reviews())
          .filter((r) => !settled(r))
          .map(({ pr, status, result_json, result_published }) => ({
            pr,
            status,
            saved: result_json === null ? null : z.object({ status: z.string() }).parse(JSON.parse(result_json)).status,
            result_published,
          }));
        const left = (await sql.query("SELECT * FROM gate_jobs")).rows;
        const tail = (logs: unknown[]) => logs.slice(-15).map((l) => JSON.stringify(l).slice(0, 300));
        throw new Error(
          `${String(error)}\nnot settled: ${JSON.stringify(stuck)}\njobs left: ${JSON.stringify(left)}\nreplica-a: ${tail(a.logs).join("\n")}\nreplica-b: ${tail(b.logs).join("\n")}`,
        );
      });
    expect(exits).toEqual([]);
    const rows = await reviews();
    expect(rows.filter((r) => r.status === "queued" || r.status === "running")).toEqual([]);
    expect(new Set(rows.map((r) => r.pr)).size).toBe(DELIVERIES);
    // One run per head under the check's name (what branch protection reads); a second one two
    // replicas made after both lost their publish lock is retired: renamed, completed, neutral.
    let retired = 0;
    for (const pr of prs) {
      const all = stack.checkRunsOn(gh, pr.headSha);
      const runs = all.filter((r) => r.fields.name === "compliance-gate");
      expect(runs, `${pr.repo}#${pr.number}`).toHaveLength(1);
      expect(runs[0]?.fields.status, `${pr.repo}#${pr.number}`).toBe("completed");
      for (const extra of all.filter((r) => r !== runs[0])) {
        expect(extra.fields, `${pr.repo}#${pr.number}`).toMatchObject({
          name: "compliance-gate (duplicate)",
          status: "completed",
          conclusion: "neutral",
        });
        retired++;
      }
    }
    // The faults reached the gate: its processes saw connections lost, and stayed up.
    const lost = [...a.logs, ...b.logs].filter((l) =>
      /PostgreSQL connection .*lost|statement sent again/.test(String(l.msg)),
    );
    expect(lost.length).toBeGreaterThan(0);
    const fiveXx = refusals.flat();
    const again = [...a.logs, ...b.logs].filter((l) => /publish lock was lost midway/.test(String(l.msg)));
    process.stdout.write(
      `pg faults: ${cut.ended()} connections terminated, ${lost.length} losses logged, ${fiveXx.length} deliveries answered 5xx and redelivered, ${again.length} publishes done again after losing their lock, ${retired} duplicate check runs retired\n`,
    );

    // The database refuses connections: /healthz says so, with the reason, and recovers by itself.
    const name = dbName(db.url);
    const down = await terminator(db.url, 100);
    await runAdmin(serverUrl(db.url), `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    const trouble = await stack.waitFor(
      "/healthz reporting the database",
      async () => {
        const res = await fetch(`${a.base}/healthz`);
        const text = await res.text();
        return res.status === 503 ? text : undefined;
      },
      30_000,
    );
    expect(trouble).toMatch(/^database: .*not currently accepting connections/);
    await down.stop();
    await runAdmin(serverUrl(db.url), `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    for (const child of [a, b]) {
      const ok = await stack.waitFor(
        "/healthz ok again",
        async () => {
          const res = await fetch(`${child.base}/healthz`);
          return res.status === 200 ? await res.text() : undefined;
        },
        30_000,
      );
      expect(ok).toBe("ok");
    }
    expect(exits).toEqual([]);
  });
});
