import type { AdvisoryLookup, AdvisoryMatch, AdvisoryQuery, AdvisorySource } from "../domain/advisory-source.js";
import { affects, namedByOsv, UncomparableVersion } from "./affected.js";
import type { OsvRecord } from "./osv-record.js";

/**
 * Where OSV records come from: for each query, the records that may concern it (the caller
 * checks each against the version). Throws when it has no usable answer.
 */
export interface RecordSource {
  /** Named in a failure, e.g. `OSV https://api.osv.dev`. */
  name: string;
  /**
   * Whether each query's records are the ones OSV itself says affect that exact version (its
   * API's `querybatch`), rather than every record of the package (a fixture, a folder).
   */
  namesVersions?: boolean;
  records(queries: readonly AdvisoryQuery[]): Promise<OsvRecord[][]>;
}

/**
 * The advisories of the records given for one query. From a source that names records for the
 * exact version, a record the gate's own reading does not confirm (its ranges do not hold the
 * version, or cannot be compared with it) is kept as unconfirmed, never dropped: OSV says it is
 * affected, and a person decides. Elsewhere a version that cannot be compared throws.
 */
function advisoriesOf(source: RecordSource, records: readonly OsvRecord[], query: AdvisoryQuery): AdvisoryMatch[] {
  const out: AdvisoryMatch[] = [];
  for (const record of records) {
    let match: AdvisoryMatch | undefined;
    try {
      match = affects(record, query);
    } catch (error) {
      if (!(error instanceof UncomparableVersion) || !source.namesVersions) throw error;
      match = namedByOsv(record, query, error.message);
    }
    if (!match && source.namesVersions && !record.withdrawn) {
      match = namedByOsv(record, query, `none of its ranges the gate reads holds ${query.version}`);
    }
    if (match) out.push(match);
  }
  return out;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The advisory source over a record source: each record is checked against the exact version
 * with the ecosystem's own version rules, so the live API, a folder and a fixture give the same
 * findings. A source that fails fails every query of the batch; a version that cannot be compared
 * fails its query alone, unless OSV named the record for that exact version (then it is an
 * unconfirmed advisory). Never throws.
 *
 * @example const advisories = advisorySourceOver(createOsvDirRecords("/srv/osv"));
 */
export function advisorySourceOver(source: RecordSource): AdvisorySource {
  return {
    async lookup(queries) {
      let records: OsvRecord[][];
      try {
        records = await source.records(queries);
      } catch (error) {
        return queries.map((): AdvisoryLookup => ({ status: "failed", source: source.name, reason: messageOf(error) }));
      }
      return queries.map((query, i): AdvisoryLookup => {
        try {
          const advisories = advisoriesOf(source, records[i] ?? [], query);
          return { status: "found", advisories: advisories.sort((a, b) => a.id.localeCompare(b.id)) };
        } catch (error) {
          if (!(error instanceof UncomparableVersion)) throw error;
          return { status: "failed", source: source.name, reason: error.message };
        }
      });
    },
  };
}
