import { systemClock } from "../../domain/clock.js";
import { addAuditor } from "../../review/auditor-tokens.js";
import { describeDatabase, openState } from "../../store/open-state.js";
import type { CliContext } from "../context.js";

const USAGE = "usage: gate auditor add NAME | gate auditor list [--json] | gate auditor revoke NAME";

/**
 * `gate auditor add NAME` (prints the auditor's token, this once: only its SHA-256 is stored),
 * `gate auditor list [--json]` (names, when made, last used, revoked) and `gate auditor revoke NAME`,
 * on the configured database (GATE_DB or GATE_DATABASE_URL): who may sign in to the evidence
 * pages (docs/operations.md, "How an auditor gets access"). Exits 2 on bad usage, 1 when the name
 * is taken or unknown.
 */
export async function auditorCommand(ctx: CliContext, args: string[], json: boolean): Promise<number> {
  const [sub, name, ...extra] = args;
  const wantsName = sub === "add" || sub === "revoke";
  if (!(wantsName ? name !== undefined && extra.length === 0 : sub === "list" && name === undefined)) {
    ctx.err(USAGE);
    return 2;
  }
  const { database } = ctx.settings;
  const state = await openState(database, systemClock, ctx.log);
  try {
    const { store } = state;
    if (sub === "add") {
      const token = await addAuditor(store, name ?? "");
      ctx.out(token);
      ctx.err(
        `auditor ${name} added (${describeDatabase(database)}); the token above is shown this once: give it to them privately`,
      );
      return 0;
    }
    if (sub === "revoke") {
      if (!(await store.revokeAuditor(name ?? ""))) {
        ctx.err(`gate auditor revoke: no auditor ${name} with a working token`);
        return 1;
      }
      ctx.err(`auditor ${name} revoked: their token and sessions no longer open any page`);
      return 0;
    }
    const auditors = await store.auditors();
    if (json) ctx.out(JSON.stringify(auditors, null, 2));
    else if (auditors.length === 0) ctx.err("no auditors (gate auditor add NAME)");
    else {
      for (const a of auditors) {
        ctx.out(
          `${a.name}\tcreated ${a.createdAt}\tlast used ${a.lastUsedAt ?? "never"}${a.revokedAt ? `\trevoked ${a.revokedAt}` : ""}`,
        );
      }
    }
    return 0;
  } finally {
    await state.close();
  }
}
