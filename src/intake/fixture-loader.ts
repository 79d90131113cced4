import type { ReviewSource } from "../graph/state.js";
import { GateError } from "../errors.js";
import { loadFixturePullRequest } from "./fixture.js";
import type { IntakeResult, PullRequestLoader } from "./source.js";

/**
 * Loads fixture sources from disk, and hands GitHub sources to the live loader when there is one.
 *
 * @example await createLoader({}).load({ kind: "fixture", fixturesDir, name: "001_readme_typo" })
 */
export function createLoader(opts: { github?: PullRequestLoader }): PullRequestLoader {
  return {
    async load(source: ReviewSource, signal?: AbortSignal): Promise<IntakeResult> {
      if (source.kind === "fixture") {
        const pr = loadFixturePullRequest(source.fixturesDir, source.name);
        return { pr, snapshot: { kind: "fixture", fixturesDir: source.fixturesDir, name: source.name } };
      }
      if (!opts.github) {
        throw new GateError("GITHUB_INTAKE", "GitHub is not configured (set GITHUB_TOKEN or a GitHub App)");
      }
      return opts.github.load(source, signal);
    },
    async release(source: ReviewSource) {
      if (source.kind === "github") await opts.github?.release?.(source);
    },
  };
}
