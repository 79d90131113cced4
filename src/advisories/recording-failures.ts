import type { AdvisorySource } from "../domain/advisory-source.js";
import type { LookupFailure } from "../domain/license-resolver.js";

/**
 * The review's advisory source, noting every query that got no answer (once per package and
 * version) among the review's lookup failures, so the review goes to a person (`lookup_failed`).
 *
 * @example const advisories = recordingAdvisoryFailures(deps.advisories(state.source), lookupFailures);
 */
export function recordingAdvisoryFailures(inner: AdvisorySource, failures: LookupFailure[]): AdvisorySource {
  return {
    async lookup(queries) {
      let answers: Awaited<ReturnType<AdvisorySource["lookup"]>>;
      try {
        answers = await inner.lookup(queries);
      } catch (error) {
        // A source must not throw; one that does anyway has not answered.
        const reason = error instanceof Error ? error.message : String(error);
        answers = queries.map(() => ({ status: "failed", source: "the advisory source", reason }));
      }
      for (const [i, answer] of answers.entries()) {
        const q = queries[i];
        if (answer.status !== "failed" || !q) continue;
        const seen = failures.some(
          (f) =>
            f.lookup === "advisories" && f.ecosystem === q.ecosystem && f.name === q.name && f.version === q.version,
        );
        if (!seen) {
          failures.push({ ...q, lookup: "advisories", registry: answer.source, reason: answer.reason });
        }
      }
      return answers;
    },
  };
}
