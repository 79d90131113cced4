import { systemClock } from "../../domain/clock.js";
import { GateError } from "../../domain/errors.js";
import { type AuditVerdict, type ChainBreak, verifyAuditLog } from "../../review/audit-verification.js";
import { describeDatabase, openState } from "../../store/open-state.js";
import type { CliContext } from "../context.js";

/**
 * `gate audit verify [--json]`: walks every hash chain of the audit log on the configured
 * database (GATE_DB or GATE_DATABASE_URL) and exits 0 when each holds, 1 naming the first entry
 * of each chain that does not (docs/operations.md, Auditing the decision log).
 */
export async function auditCommand(ctx: CliContext, args: string[], json: boolean): Promise<number> {
  if (args[0] !== "verify" || args.length > 1) {
    ctx.err("usage: gate audit verify [--json]");
    return 2;
  }
  const { database } = ctx.settings;
  if (!ctx.hasDatabase()) {
    // Verifying makes no database: a log that is not there is not one that holds.
    throw new GateError("CONFIG_INVALID", `GATE_DB ${describeDatabase(database)}: there is no database to verify`);
  }
  const state = await openState(database, systemClock, ctx.log);
  try {
    const verdict = await verifyAuditLog(state.store);
    ctx.out(json ? JSON.stringify(verdict, null, 2) : verdictText(verdict, describeDatabase(database)));
    return verdict.intact ? 0 : 1;
  } finally {
    await state.close();
  }
}

/** A chain's name as a person reads it. */
function chainName(chain: string | null): string {
  if (chain === null) return "(unchained rows)";
  return chain === "" ? "(no known review)" : chain;
}

function breakLine(b: ChainBreak): string {
  const where = [b.pr ?? (b.reviewId === null ? undefined : `review ${b.reviewId}`), b.at ?? undefined]
    .filter((part) => part !== undefined)
    .join(", ");
  return `entry #${b.seq}${where ? ` (${where})` : ""} of chain ${chainName(b.chain)}: ${b.what}`;
}

/** The verdict as lines: the summary first, then each chain (or each break). */
export function verdictText(v: AuditVerdict, where: string): string {
  const entries = (n: number) => `${n} ${n === 1 ? "entry" : "entries"}`;
  const chains = v.chains.map((c) => `  ${chainName(c.chain)}: ${entries(c.verified)}, head ${c.head ?? "(none)"}`);
  if (v.intact) {
    const n = v.chains.length;
    return [
      `audit log intact: ${entries(v.verified)} verified in ${n} chain${n === 1 ? "" : "s"} (${where})`,
      ...chains,
    ].join("\n");
  }
  return [
    `audit log NOT intact (${where}): ${v.breaks.length} chain${v.breaks.length === 1 ? "" : "s"} broken`,
    ...v.breaks.map((b) => `  ${breakLine(b)}`),
    `${entries(v.verified)} verified before the breaks`,
  ].join("\n");
}
