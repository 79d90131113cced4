import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { COPIED_TABLES } from "../../src/store/copy-state.js";
import { migrateSqlite, openDatabase, SQLITE_MIGRATIONS } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { tempDir } from "../helpers/gate.js";

const at = new Date("2026-11-30T12:00:00Z");
const versions = (db: Database.Database) =>
  db.prepare("SELECT version, name FROM gate_schema_version ORDER BY version").all() as Array<{
    version: number;
    name: string;
  }>;
const file = () => path.join(tempDir(), "gate.db");

describe("SQLite schema migrations", () => {
  it("gate db copy moves every table of the gate's a fresh file holds (a table a migration adds is not left behind)", () => {
    const db = openDatabase(":memory:");
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'gate\\_%' ESCAPE '\\' AND name <> 'gate_schema_version' ORDER BY name",
      )
      .all() as Array<{ name: string }>;
    expect(tables.map((t) => t.name)).toEqual(COPIED_TABLES.map((t) => t.name).sort());
  });

  it("a fresh file gets every migration, recorded once each", () => {
    const db = openDatabase(file());
    expect(versions(db).map((v) => v.version)).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'gate_reviews'").get()).toBeDefined();
    db.close();
  });

  it("adopts a file made before versioning, with its rows and its append-only audit intact", async () => {
    const f = file();
    const old = new Database(f);
    // Today's schema, as unversioned releases made it: no gate_schema_version table.
    SQLITE_MIGRATIONS[0]?.up(old);
    const before = sqliteStore(old, () => at);
    const headSha = "a".repeat(40);
    await before.register({
      id: "r-old",
      pr: "acme/web#1",
      repo: "acme/web",
      number: 1,
      headSha,
      source: { kind: "github", owner: "acme", repo: "web", number: 1, headSha },
    });
    // As a gate of that time appended it (today's store chains entries, in tables that file lacks).
    old
      .prepare(
        "INSERT INTO gate_audit (review_id, at, actor, action, outcome) VALUES ('r-old', ?, 'U1', 'approve', 'applied')",
      )
      .run(at.toISOString());
    expect(old.prepare("SELECT name FROM sqlite_master WHERE name = 'gate_schema_version'").get()).toBeUndefined();
    old.close();

    const db = openDatabase(f);
    expect(versions(db).map((v) => v.version)).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
    const after = sqliteStore(db, () => at);
    expect(await after.get("r-old")).toMatchObject({ id: "r-old", status: "queued", headSha });
    expect((await after.auditFor("r-old")).map((e) => e.outcome)).toEqual(["applied"]);
    expect(() => db.prepare("DELETE FROM gate_audit").run()).toThrow(/append-only/);
    db.close();
  });

  it("adopts a file from before the late columns, adding them", () => {
    const f = file();
    const old = new Database(f);
    // The result columns every file has had since the first release (a later migration indexes them).
    old.exec(`CREATE TABLE gate_reviews (id TEXT PRIMARY KEY, pr TEXT NOT NULL, repo TEXT NOT NULL,
      number INTEGER NOT NULL, head_sha TEXT NOT NULL, source TEXT NOT NULL, source_json TEXT NOT NULL,
      status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, result_json TEXT, published_json TEXT)`);
    old
      .prepare("INSERT INTO gate_reviews VALUES ('r-1','a/b#1','a/b',1,'s','fixture','{}','closed','t','t',NULL,NULL)")
      .run();
    old.close();
    const db = openDatabase(f);
    const columns = (db.prepare("PRAGMA table_info(gate_reviews)").all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toEqual(expect.arrayContaining(["event_at", "slack_post_started_at", "slack_thread_ts"]));
    expect(db.prepare("SELECT status FROM gate_reviews WHERE id = 'r-1'").get()).toEqual({ status: "closed" });
    db.close();
  });

  it("marks a published result instead of keeping its copy (migration 5), and lists only the unpublished", async () => {
    const f = file();
    const old = new Database(f);
    migrateSqlite(old, "v4", SQLITE_MIGRATIONS.slice(0, 4));
    const row = old.prepare(`INSERT INTO gate_reviews (id, pr, repo, number, head_sha, source, source_json, status,
      created_at, updated_at, result_json, published_json) VALUES (?, 'a/b#1', 'a/b', 1, 's', 'fixture', '{}', 'done', ?, 't', ?, ?)`);
    row.run("r-published", "1", '{"route":"auto_approved"}', '{"route":"auto_approved"}');
    row.run("r-changed", "2", '{"route":"human_approved"}', '{"route":null}');
    row.run("r-never", "3", '{"route":null}', null);
    old.close();
    const db = openDatabase(f);
    const columns = (db.prepare("PRAGMA table_info(gate_reviews)").all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).not.toContain("published_json");
    expect(db.prepare("SELECT id, result_published FROM gate_reviews ORDER BY id").all()).toEqual([
      { id: "r-changed", result_published: 0 },
      { id: "r-never", result_published: 0 },
      { id: "r-published", result_published: 1 },
    ]);
    expect((await sqliteStore(db, () => at).unpublished()).map((r) => r.id)).toEqual(["r-changed", "r-never"]);
    expect(
      db
        .prepare(
          "EXPLAIN QUERY PLAN SELECT * FROM gate_reviews WHERE result_json IS NOT NULL AND result_published = 0 ORDER BY created_at",
        )
        .all(),
    ).toEqual([expect.objectContaining({ detail: expect.stringContaining("gate_reviews_unpublished") })]);
    db.close();
  });

  it("re-opening changes nothing: each migration runs once", () => {
    const f = file();
    openDatabase(f).close();
    const db = openDatabase(f);
    migrateSqlite(db, "again");
    expect(versions(db)).toHaveLength(SQLITE_MIGRATIONS.length);
    db.close();
  });

  it("refuses a file whose schema is newer than the code, with DATABASE_TOO_NEW", () => {
    const f = file();
    const db = openDatabase(f);
    db.prepare(
      "INSERT INTO gate_schema_version (version, name, applied_at) VALUES (999, 'from the future', 'x')",
    ).run();
    db.close();
    let error: unknown;
    try {
      openDatabase(f).close();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GateError);
    expect((error as GateError).code).toBe("DATABASE_TOO_NEW");
    expect((error as GateError).message).toMatch(new RegExp(`version 999.*only up to ${SQLITE_MIGRATIONS.length}`));
  });

  it("runs a later migration only on files that lack it", () => {
    const f = file();
    openDatabase(f).close();
    const db = new Database(f);
    const next = SQLITE_MIGRATIONS.length + 1;
    const later = [
      ...SQLITE_MIGRATIONS,
      {
        version: next,
        name: "a later step",
        up: (d: Database.Database) => {
          d.exec("CREATE TABLE later_step (x INTEGER)");
        },
      },
    ];
    migrateSqlite(db, "test", later);
    migrateSqlite(db, "test", later);
    expect(versions(db).map((v) => v.version)).toEqual(later.map((m) => m.version));
    expect(() => migrateSqlite(db, "test")).toThrow(new RegExp(`schema version ${next}`));
    db.close();
  });
});
