import type { AdvisoryMatch, AdvisoryQuery } from "../domain/advisory-source.js";
import { GateError } from "../domain/errors.js";
import { normalizePackageName } from "../licenses/offline-resolver.js";
import { osvEcosystem, type OsvRange, type OsvRecord } from "./osv-record.js";
import { advisorySeverity } from "./severity.js";
import { versionOrder, type VersionOrder } from "../ecosystems/common/version-order.js";

/** A version (of the query, or in an advisory's range) that the ecosystem's rules cannot read. */
export class UncomparableVersion extends GateError {
  constructor(message: string) {
    super("ADVISORIES_UNAVAILABLE", message);
    this.name = "UncomparableVersion";
  }
}

type Event = { kind: "introduced" | "fixed" | "last_affected"; version: string; read: string | undefined };

function eventsOf(range: OsvRange, order: VersionOrder, advisory: string): Event[] {
  const out: Event[] = [];
  for (const e of range.events) {
    for (const kind of ["introduced", "fixed", "last_affected"] as const) {
      const version = e[kind];
      if (version === undefined) continue;
      // OSV's "0" means "from the first version on".
      const read = kind === "introduced" && version === "0" ? undefined : order.read(version);
      if (read === undefined && !(kind === "introduced" && version === "0")) {
        throw new UncomparableVersion(`${advisory} gives the version "${version}", which cannot be compared`);
      }
      out.push({ kind, version, read });
    }
  }
  // OSV evaluates a range's events in version order ("0" first).
  return out.sort((a, b) => (a.read === undefined ? -1 : b.read === undefined ? 1 : order.compare(a.read, b.read)));
}

/** Whether `v` lies in the range, and the interval that holds it (OSV schema, "Evaluation"). */
function inRange(events: Event[], v: string, order: VersionOrder): { range: string; fixed?: string } | undefined {
  let from: Event | undefined;
  for (const e of events) {
    if (e.kind === "introduced" && (e.read === undefined || order.compare(v, e.read) >= 0)) from = e;
    else if (e.kind === "fixed" && e.read !== undefined && order.compare(v, e.read) >= 0) from = undefined;
    else if (e.kind === "last_affected" && e.read !== undefined && order.compare(v, e.read) > 0) from = undefined;
  }
  if (!from) return undefined;
  const start = from;
  const lower = start.read === undefined ? "" : `>=${start.version}`;
  const end = events.find(
    (e) =>
      e.kind !== "introduced" &&
      e.read !== undefined &&
      (start.read === undefined || order.compare(e.read, start.read) > 0),
  );
  if (end?.kind === "fixed") return { range: `${lower} <${end.version}`.trim(), fixed: end.version };
  if (end?.kind === "last_affected") return { range: `${lower} <=${end.version}`.trim() };
  return { range: lower || "every version" };
}

/** The record's summary, else the first line of its details. */
function summaryOf(record: OsvRecord): string {
  return record.summary?.trim() || record.details?.trim().split("\n")[0]?.slice(0, 200) || "no summary given";
}

/** The first fixed version after `v` in any of the ranges (for a version the advisory lists by name). */
function firstFixedAfter(ranges: OsvRange[], v: string, order: VersionOrder): string | undefined {
  const fixed = ranges
    .flatMap((r) => r.events.map((e) => e.fixed))
    .filter((f): f is string => f !== undefined && order.read(f) !== undefined)
    .filter((f) => order.compare(order.read(f) ?? f, v) > 0);
  return fixed.sort((a, b) => order.compare(order.read(a) ?? a, order.read(b) ?? b))[0];
}

/**
 * Whether an OSV record affects one exact version: its `versions[]` list it, or one of its SEMVER
 * or ECOSYSTEM ranges holds it (introduced / fixed / last_affected events). GIT ranges name commits
 * and are not read. A withdrawn record affects nothing. Throws `UncomparableVersion` when the
 * version, or a version in a range that must be compared, cannot be read by the ecosystem's rules.
 *
 * @example affects(lodashRecord, { ecosystem: "npm", name: "lodash", version: "4.17.20" })?.fixed // "4.17.21"
 */
export function affects(record: OsvRecord, query: AdvisoryQuery): AdvisoryMatch | undefined {
  if (record.withdrawn) return undefined;
  const order = versionOrder(query.ecosystem);
  const v = order.read(query.version);
  if (v === undefined) {
    throw new UncomparableVersion(`the version "${query.version}" cannot be compared by ${query.ecosystem}'s rules`);
  }
  const wanted = normalizePackageName(query.ecosystem, query.name);
  const ecosystem = osvEcosystem(query.ecosystem);
  for (const a of record.affected ?? []) {
    if (a.package?.ecosystem !== ecosystem || normalizePackageName(query.ecosystem, a.package.name) !== wanted)
      continue;
    const ranges = (a.ranges ?? []).filter((r) => r.type === "SEMVER" || r.type === "ECOSYSTEM");
    let hit: { range: string; fixed?: string; unconfirmed?: string } | undefined;
    if ((a.versions ?? []).some((listed) => listed === query.version || order.read(listed) === v)) {
      // Listed by OSV: a range that holds it confirms it; ranges that do not (or cannot be read) leave it unconfirmed.
      let held: { range: string; fixed?: string } | undefined;
      let why = `OSV lists ${query.version} among the affected versions, but none of its ranges holds it`;
      try {
        for (const r of ranges) held ??= inRange(eventsOf(r, order, record.id), v, order);
      } catch (error) {
        if (!(error instanceof UncomparableVersion)) throw error;
        why = `OSV lists ${query.version} among the affected versions, but ${error.message}`;
      }
      const fixed = held?.fixed ?? safeFirstFixedAfter(ranges, v, order);
      hit =
        held ??
        (ranges.length === 0
          ? { range: "a version the advisory lists", ...(fixed !== undefined ? { fixed } : {}) }
          : { range: "a version the advisory lists", unconfirmed: why });
    }
    for (const r of ranges) {
      if (hit) break;
      hit = inRange(eventsOf(r, order, record.id), v, order);
    }
    if (!hit) continue;
    const { severity, from } = advisorySeverity(record);
    return {
      id: record.id,
      aliases: [...(record.aliases ?? [])],
      summary: summaryOf(record),
      severity,
      severityFrom: from,
      range: hit.range,
      ...(hit.fixed !== undefined ? { fixed: hit.fixed } : {}),
      ...(hit.unconfirmed !== undefined ? { unconfirmed: hit.unconfirmed } : {}),
    };
  }
  return undefined;
}

function safeFirstFixedAfter(ranges: OsvRange[], v: string, order: VersionOrder): string | undefined {
  try {
    return firstFixedAfter(ranges, v, order);
  } catch {
    return undefined;
  }
}

/**
 * An advisory OSV names for the exact version that the gate's own reading does not confirm
 * (`why`): kept, marked unconfirmed, with the record's id, aliases, summary and severity.
 *
 * @example namedByOsv(record, { ecosystem: "maven", name: "g:a", version: "1.0" }, "none of its ranges holds 1.0").unconfirmed
 */
export function namedByOsv(record: OsvRecord, query: AdvisoryQuery, why: string): AdvisoryMatch {
  const { severity, from } = advisorySeverity(record);
  return {
    id: record.id,
    aliases: [...(record.aliases ?? [])],
    summary: summaryOf(record),
    severity,
    severityFrom: from,
    range: `not confirmed for ${query.version}`,
    unconfirmed: why,
  };
}
