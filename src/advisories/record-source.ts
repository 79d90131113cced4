import type { AdvisoryLookup, AdvisoryQuery, AdvisorySource } from "../domain/advisory-source.js";
import { affects, UncomparableVersion } from "./affected.js";
import type { OsvRecord } from "./osv-record.js";

/**
 * Where OSV records come from: for each query, the records that may concern it (the caller
 * checks each against the version). Throws when it has no usable answer.
 */
export interface RecordSource {
  /** Named in a failure, e.g. `OSV https://api.osv.dev`. */
  name: string;
  records(queries: readonly AdvisoryQuery[]): Promise<OsvRecord[][]>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The advisory source over a record source: each record is checked against the exact version
 * with the ecosystem's own version rules, so the live API, a folder and a fixture give the same
 * findings. A source that fails fails every query of the batch; a version that cannot be compared
 * fails its query alone. Never throws.
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
          const advisories = (records[i] ?? []).flatMap((r) => affects(r, query) ?? []);
          return { status: "found", advisories: advisories.sort((a, b) => a.id.localeCompare(b.id)) };
        } catch (error) {
          if (!(error instanceof UncomparableVersion)) throw error;
          return { status: "failed", source: source.name, reason: error.message };
        }
      });
    },
  };
}
