import type { AdvisorySource } from "./advisory-source.js";
import type { LicenseResolver } from "./license-resolver.js";

/** How one lookup ended: the registry's answer (`found`, `unknown`: no such package or no licence), or none (`failed`). */
export type LookupOutcome = "found" | "unknown" | "failed";

/**
 * Told of every lookup a live review makes: `source` is the ecosystem whose registry was asked for
 * a licence (`npm`, `pypi`, ...), or `osv` for known vulnerabilities (one per package version).
 */
export type LookupObserver = (source: string, outcome: LookupOutcome) => void;

/**
 * The resolver, telling `observe` how each lookup ended.
 *
 * @example const resolver = observedLicenses(live, (source, outcome) => counter.inc({ source, outcome }));
 */
export function observedLicenses(resolver: LicenseResolver, observe: LookupObserver): LicenseResolver {
  return {
    async lookup(ecosystem, name, version) {
      const answer = await resolver.lookup(ecosystem, name, version);
      observe(ecosystem, answer.status);
      return answer;
    },
  };
}

/**
 * The advisory source, telling `observe` how each query of a batch ended (`source` `osv`).
 *
 * @example const advisories = observedAdvisories(osv, observe);
 */
export function observedAdvisories(source: AdvisorySource, observe: LookupObserver): AdvisorySource {
  return {
    async lookup(queries) {
      const answers = await source.lookup(queries);
      for (const answer of answers) observe("osv", answer.status);
      return answers;
    },
  };
}
