import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { runAdmin } from "./pg-admin.js";

/** A database of its own on the test server: its URL, and `drop()` to remove it. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates a fresh, empty database on the PostgreSQL test server (vitest.config.ts: the server
 * GATE_TEST_POSTGRES_URL names, else 127.0.0.1:5432), so that test files, helpers and parallel
 * runs never share tables. Drop it when done (`drop` ends whatever connections remain).
 *
 * @example const db = await postgresUrl(); try { ... db.url ... } finally { await db.drop(); }
 */
export async function postgresUrl(): Promise<TestDatabase> {
  const server = inject("postgresUrl");
  const name = `gate_t_${randomBytes(6).toString("hex")}`;
  await runAdmin(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => runAdmin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
