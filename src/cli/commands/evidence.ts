import { systemClock } from "../../domain/clock.js";
import { GateError } from "../../domain/errors.js";
import { seededSample } from "../../domain/seeded-sample.js";
import type { ChangeFilter } from "../../domain/store/change-ledger.js";
import { EVIDENCE_COLUMNS, type EvidenceRow, evidencePages } from "../../review/evidence-row.js";
import { describeDatabase, openState } from "../../store/open-state.js";
import type { CliContext } from "../context.js";
import { csvRecord } from "../csv.js";

const USAGE =
  "usage: gate evidence [--repo owner/name] [--since DATE] [--until DATE] [--format json|csv] [--sample N --seed S]";

/** The flags `gate evidence` takes, as the command line gave them. */
export interface EvidenceOptions {
  repo?: string;
  since?: string;
  until?: string;
  format?: string;
  sample?: string;
  seed?: string;
}

/**
 * A `--since`/`--until` value as an instant: a day (`2026-03-01`, midnight UTC; `--until` a day
 * means through its end) or an ISO-8601 time. Throws a usage error naming the flag.
 *
 * @example boundOf("until", "2026-03-31") // "2026-04-01T00:00:00.000Z"
 */
export function boundOf(flag: "since" | "until", text: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const t = Date.parse(day ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}/.test(text)) {
    throw new GateError("CONFIG_INVALID", `--${flag} ${text}: give a day (2026-03-01) or an ISO-8601 time`);
  }
  return new Date(day && flag === "until" ? t + 86_400_000 : t).toISOString();
}

/** The options checked: the filter, the format, the sample. Throws a usage error for a bad one. */
function readOptions(o: EvidenceOptions): {
  filter: ChangeFilter;
  format: "json" | "csv";
  sample?: { n: number; seed: string };
} {
  const format = o.format ?? "csv";
  if (format !== "json" && format !== "csv") {
    throw new GateError("CONFIG_INVALID", `--format ${format}: choose json or csv`);
  }
  if (o.repo !== undefined && !/^[\w.-]+\/[\w.-]+$/.test(o.repo)) {
    throw new GateError("CONFIG_INVALID", `--repo ${o.repo}: give owner/name`);
  }
  const filter: ChangeFilter = {
    ...(o.repo ? { repo: o.repo } : {}),
    ...(o.since ? { since: boundOf("since", o.since) } : {}),
    ...(o.until ? { until: boundOf("until", o.until) } : {}),
  };
  if (filter.since && filter.until && filter.since >= filter.until) {
    throw new GateError("CONFIG_INVALID", `--since ${o.since} is not before --until ${o.until}`);
  }
  if (o.sample === undefined && o.seed === undefined) return { filter, format };
  // A sample an auditor cannot draw again is no evidence: both or neither.
  if (o.sample === undefined || o.seed === undefined) {
    throw new GateError("CONFIG_INVALID", "--sample N and --seed S go together (the seed draws the same sample again)");
  }
  if (!/^[1-9]\d{0,6}$/.test(o.sample)) {
    throw new GateError("CONFIG_INVALID", `--sample ${o.sample}: give a whole number of changes, 1 or more`);
  }
  return { filter, format, sample: { n: Number(o.sample), seed: o.seed } };
}

/**
 * `gate evidence [--repo owner/name] [--since DATE] [--until DATE] [--format json|csv] [--sample N --seed S]`:
 * one row per change that reached a default branch (each merged pull request the gate learned
 * of), with its review, decision and flags (src/review/evidence-row.ts), read from the configured
 * database (GATE_DB or GATE_DATABASE_URL). CSV (RFC 4180, a header row) by default, or a JSON array.
 * `--sample N --seed S` prints N of them drawn by a seeded PRNG: the same seed, the same rows.
 * A count goes to stderr. Exits 2 on a bad flag, before any database is opened.
 */
export async function evidenceCommand(ctx: CliContext, args: string[], o: EvidenceOptions): Promise<number> {
  let opts: ReturnType<typeof readOptions>;
  try {
    if (args.length > 0) throw new GateError("CONFIG_INVALID", `unexpected ${JSON.stringify(args[0])}`);
    opts = readOptions(o);
  } catch (error) {
    ctx.err(`gate evidence: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { database } = ctx.settings;
  if (!ctx.hasDatabase()) {
    throw new GateError(
      "CONFIG_INVALID",
      `GATE_DB ${describeDatabase(database)}: there is no database to read evidence from`,
    );
  }
  const state = await openState(database, systemClock, ctx.log);
  try {
    const write = (text: string) => process.stdout.write(text);
    const sampling = opts.sample !== undefined;
    const kept: EvidenceRow[] = [];
    let count = 0;
    let unreviewed = 0;
    if (opts.format === "csv") write(csvRecord([...EVIDENCE_COLUMNS]));
    else write("[");
    const print = (rows: EvidenceRow[], first: boolean) => {
      if (opts.format === "csv") write(rows.map((r) => csvRecord(EVIDENCE_COLUMNS.map((c) => r[c]))).join(""));
      else if (rows.length > 0) write(`${first ? "\n" : ",\n"}${rows.map((r) => JSON.stringify(r)).join(",\n")}`);
    };
    for await (const page of evidencePages(state.store, opts.filter)) {
      // A sample needs every row first; the whole listing is printed page by page.
      if (sampling) kept.push(...page);
      else print(page, count === 0);
      count += page.length;
      unreviewed += page.filter((r) => !r.reviewed).length;
    }
    const shown = opts.sample ? seededSample(kept, opts.sample.n, opts.sample.seed) : undefined;
    if (shown) print(shown, true);
    if (opts.format === "json") write(count > 0 && (!shown || shown.length > 0) ? "\n]\n" : "]\n");
    ctx.err(
      `${count} change${count === 1 ? "" : "s"} (${unreviewed} not reviewed)${
        shown && opts.sample ? `; a sample of ${shown.length} drawn with seed ${JSON.stringify(opts.sample.seed)}` : ""
      } (${describeDatabase(database)})`,
    );
    return 0;
  } finally {
    await state.close();
  }
}
