import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../src/domain/clock.js";
import { GateError } from "../../src/domain/errors.js";
import { openState, type OpenState } from "../../src/store/open-state.js";
import { SCHEMA_VERSION_TABLE } from "../../src/store/migrations.js";
import { POSTGRES_MIGRATIONS } from "../../src/store/postgres/migrations.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";

const opened: OpenState[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

async function database(): Promise<TestDatabase> {
  const db = await postgresUrl();
  databases.push(db);
  return db;
}

async function open(url: string): Promise<OpenState> {
  const state = await openState({ kind: "postgres", url }, systemClock);
  opened.push(state);
  return state;
}

async function failure(work: Promise<unknown>): Promise<GateError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GateError);
  return error as GateError;
}

const versions = async (state: OpenState) =>
  (await state.query<{ version: number }>("SELECT version FROM gate_schema_version ORDER BY version")).map(
    (r) => r.version,
  );

describe("PostgreSQL schema migrations", () => {
  it("a fresh database gets every migration and the checkpointer's tables", async () => {
    const state = await open((await database()).url);
    expect(await versions(state)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    const tables = await state.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["gate_reviews", "gate_audit", "gate_schema_version", "checkpoints", "checkpoint_writes"]),
    );
  });

  it("two replicas starting at once on an empty database both open it; each migration runs once", async () => {
    const { url } = await database();
    const [a, b, c] = await Promise.all([open(url), open(url), open(url)]);
    expect(await versions(a as OpenState)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    await (b as OpenState).store.audit({ reviewId: "r-1", actor: "a", action: "x", outcome: "y" });
    expect(await (c as OpenState).store.auditFor("r-1")).toHaveLength(1);
  });

  it("marks a published result instead of keeping its copy (migration 5), and lists only the unpublished", async () => {
    const { url } = await database();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(SCHEMA_VERSION_TABLE);
      for (const m of POSTGRES_MIGRATIONS.slice(0, 4)) {
        await m.up(client);
        await client.query("INSERT INTO gate_schema_version (version, name, applied_at) VALUES ($1, $2, 'x')", [
          m.version,
          m.name,
        ]);
      }
      const row = `INSERT INTO gate_reviews (id, pr, repo, number, head_sha, source, source_json, status, created_at,
        updated_at, result_json, published_json) VALUES ($1, 'a/b#1', 'a/b', 1, 's', 'fixture', '{}', 'done', $2, 't', $3, $4)`;
      await client.query(row, ["r-published", "1", '{"route":"auto_approved"}', '{"route":"auto_approved"}']);
      await client.query(row, ["r-changed", "2", '{"route":"human_approved"}', '{"route":null}']);
      await client.query(row, ["r-never", "3", '{"route":null}', null]);
    } finally {
      await client.end();
    }
    const state = await open(url);
    expect(await versions(state)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    expect(await state.query("SELECT id, result_published FROM gate_reviews ORDER BY id")).toEqual([
      { id: "r-changed", result_published: 0 },
      { id: "r-never", result_published: 0 },
      { id: "r-published", result_published: 1 },
    ]);
    const columns = await state.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'gate_reviews'",
    );
    expect(columns.map((c) => c.column_name)).not.toContain("published_json");
    expect((await state.store.unpublished()).map((r) => r.id)).toEqual(["r-changed", "r-never"]);
  });

  it("re-opening changes nothing and keeps the rows", async () => {
    const { url } = await database();
    const first = await open(url);
    await first.store.cacheLicense("npm:x@1", "MIT");
    const again = await open(url);
    expect(await versions(again)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    expect(await again.store.cachedLicense("npm:x@1")).toBe("MIT");
  });

  it("refuses a database whose schema is newer than the code, with DATABASE_TOO_NEW", async () => {
    const { url } = await database();
    const state = await open(url);
    await state.query(
      "INSERT INTO gate_schema_version (version, name, applied_at) VALUES (999, 'from the future', 'x')",
    );
    const error = await failure(openState({ kind: "postgres", url }, systemClock));
    expect(error.code).toBe("DATABASE_TOO_NEW");
    expect(error.message).toMatch(/GATE_DATABASE_URL .* is at schema version 999/);
  });

  it("a server that does not answer stops the start with CONFIG_INVALID naming GATE_DATABASE_URL, never the password", async () => {
    // Port 1: nothing listens there, so the connection is refused at once.
    const error = await failure(
      openState({ kind: "postgres", url: "postgres://gate:s3cret@127.0.0.1:1/gate" }, systemClock),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toMatch(/^GATE_DATABASE_URL postgres:\/\/gate:\*\*\*@127\.0\.0\.1:1\/gate: cannot open it/);
    expect(error.message).not.toContain("s3cret");
  });

  it("the audit log's triggers hold for the database's own owner", async () => {
    const { url } = await database();
    await open(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        "INSERT INTO gate_audit (review_id, at, actor, action, outcome) VALUES ('r', 't', 'a', 'b', 'c')",
      );
      for (const sql of ["UPDATE gate_audit SET actor = 'm'", "DELETE FROM gate_audit", "TRUNCATE gate_audit"])
        await expect(client.query(sql), sql).rejects.toThrow(/append-only/);
    } finally {
      await client.end();
    }
  });
});
