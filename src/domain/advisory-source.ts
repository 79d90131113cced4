import type { Ecosystem } from "./license-resolver.js";

/** An advisory's severity in GitHub's words (OSV's GHSA records use them). */
export type AdvisorySeverity = "low" | "moderate" | "high" | "critical";

/** One exact version of one package, as the gate asks about it. */
export interface AdvisoryQuery {
  ecosystem: Ecosystem;
  name: string;
  version: string;
}

/** An advisory that affects the version asked about. Plain JSON. */
export interface AdvisoryMatch {
  /** The OSV id, e.g. `GHSA-35jh-r3h4-6jhm`. */
  id: string;
  /** Other ids of the same advisory (CVE, PYSEC, ...). */
  aliases: string[];
  summary: string;
  severity: AdvisorySeverity;
  /** Where the severity came from: `GitHub's rating`, `CVSS 9.8`, or `no severity given (counted as high)`. */
  severityFrom: string;
  /** The affected range that holds the version, e.g. `>=0 <4.17.21`, or `listed versions`. */
  range: string;
  /** The first version after it that is fixed, when the advisory names one. */
  fixed?: string;
  /**
   * Present when OSV says the advisory affects this version (its API names it for the exact
   * version, or its `versions[]` list it) but the gate's own reading of the record's ranges does
   * not confirm it: why not. Such an advisory is never dropped; a person decides.
   */
  unconfirmed?: string;
}

/**
 * What an advisory lookup concluded for one query. `found` is the database's answer (no
 * advisories is an empty list); `failed` is no answer at all (network, timeout, 5xx, a malformed
 * record, a version the gate cannot compare): the review then goes to a person.
 */
export type AdvisoryLookup =
  | { status: "found"; advisories: AdvisoryMatch[] }
  | { status: "failed"; source: string; reason: string };

/**
 * Known vulnerabilities of exact package versions: live from OSV's API, from a folder of OSV
 * records (`GATE_OSV_DIR`), or from a fixture's `osv.json`. One call answers a batch, one answer
 * per query in the same order. It never throws: a failure is `{ status: "failed" }`.
 *
 * @example const [lodash] = await advisories.lookup([{ ecosystem: "npm", name: "lodash", version: "4.17.20" }]);
 */
export interface AdvisorySource {
  lookup(queries: readonly AdvisoryQuery[]): Promise<AdvisoryLookup[]>;
}
