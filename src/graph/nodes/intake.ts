import { messageOf } from "../../domain/errors.js";
import { resolveReviewConfig } from "../../gate-file/resolve.js";
import { repositoryPolicies } from "../../detectors/repo-policies.js";
import { summarizePullRequest } from "../../domain/pull-request.js";
import type { ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/**
 * Builds the one `PullRequest` value (from GitHub or a fixture) and the configuration the review
 * runs with. A failure goes to a person.
 */
export function intakeNode(deps: ReviewGraphDeps) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    try {
      const r = await deps.loader.load(state.source);
      await deps.pullRequests.put(state.reviewId, r.pr);
      // The repository's own policies from the base commit, checked; a refused one goes to a person.
      const files = r.repoPolicies ?? [];
      // Checked in the rules process when there is one: 20,000 rules take seconds to parse and compile.
      const own =
        deps.rulesRunner && files.length > 0
          ? await deps.rulesRunner.checkPolicies(files, deps.policies).catch((error: unknown) => ({
              policies: [],
              problem: `the repository's own policies could not be checked off the answering thread (${messageOf(error)}); a person decides`,
            }))
          : repositoryPolicies(files, deps.policies);
      // The repository's file from the base commit, over the server's; an invalid one goes to a person.
      const { config, problem } = await resolveReviewConfig(
        deps.server,
        r.repoConfig,
        deps.policies,
        { policies: own.policies, files: own.policies.length > 0 ? files : [] },
        deps.configParser,
      );
      const problems = [r.incomplete, own.problem, problem].filter((p): p is string => p !== undefined);
      // What the review could not read (a diff past GATE_MAX_FILE_LINES, files GitHub did not list) is logged too.
      if (r.incomplete) deps.log.warn({ reviewId: state.reviewId }, `part of the change is not read: ${r.incomplete}`);
      return {
        pr: summarizePullRequest(r.pr),
        snapshot: r.snapshot,
        intakeProblem: problems.length > 0 ? problems.join("; ") : null,
        configRef: await deps.configs.keep(config),
      };
    } catch (error) {
      const detail = `could not load the pull request: ${messageOf(error)}`;
      deps.log.error({ err: error, reviewId: state.reviewId }, "intake failed");
      return { intakeProblem: detail, escalation: { reason: "intake_failed", detail } };
    }
  };
}
