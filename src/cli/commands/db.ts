import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { systemClock } from "../../domain/clock.js";
import { GateError } from "../../domain/errors.js";
import { isPostgresUrl } from "../../settings/core.js";
import { copySqliteToPostgres } from "../../store/copy-state.js";
import { openDatabase } from "../../store/database.js";
import { describeDatabase, openState } from "../../store/open-state.js";
import type { CliContext } from "../context.js";

/**
 * `gate db copy --to postgres://…`: copies the SQLite installation GATE_DB names (stopped) into an
 * empty PostgreSQL database, migrating it first (README, Moving from SQLite to PostgreSQL).
 */
export async function dbCommand(ctx: CliContext, args: string[], to: string | undefined): Promise<number> {
  if (args[0] !== "copy" || args.length > 1 || !to) {
    ctx.err("usage: gate db copy --to postgres://user:password@host:5432/database");
    return 2;
  }
  if (!isPostgresUrl(to)) throw new GateError("CONFIG_INVALID", "--to must be a PostgreSQL URL: postgres://…");
  const { database } = ctx.settings;
  if (database.kind !== "sqlite") {
    throw new GateError("CONFIG_INVALID", "gate db copy reads the SQLite file GATE_DB: unset GATE_DATABASE_URL");
  }
  if (database.path === ":memory:" || !ctx.hasDatabase()) {
    throw new GateError("CONFIG_INVALID", `GATE_DB ${database.path}: there is no SQLite file to copy`);
  }
  const target = { kind: "postgres" as const, url: to };
  const db = openDatabase(database.path);
  try {
    const state = await openState(target, systemClock, ctx.log);
    try {
      if (state.kind !== "postgres") throw new Error("expected a PostgreSQL state");
      const report = await copySqliteToPostgres(
        { db, saver: new SqliteSaver(db) },
        { pool: state.pool, saver: state.checkpointer, where: describeDatabase(target) },
      );
      const rows = Object.entries(report.rows).map(([table, n]) => `${table} ${n}`);
      ctx.out(
        `copied ${database.path} to ${describeDatabase(target)}: ${rows.join(", ")}; ${report.checkpoints} checkpoints of ${report.threads} reviews`,
      );
      return 0;
    } finally {
      await state.close();
    }
  } finally {
    db.close();
  }
}
