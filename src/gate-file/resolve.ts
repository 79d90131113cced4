import { messageOf } from "../domain/errors.js";
import type { Policy } from "../domain/policy.js";
import { effectiveConfig, type EffectiveConfig } from "./effective.js";
import { type ConfigParser, inThreadParser } from "./config-parser.js";
import { mergeConfig } from "./merge.js";
import type { RepoConfigText } from "./repo-file.js";
import type { GateConfigFile } from "./schema.js";

/** The server-wide configuration: its file as read, and what it resolves to alone. */
export interface ServerConfig {
  file: GateConfigFile;
  config: EffectiveConfig;
}

/**
 * A review's configuration: the repository's file (from the base commit) over the server-wide
 * one, with the repository's own policies (already checked: they only add ids) enforced beside the
 * server's. A repository file with any problem is not used at all; the problem is returned, so the
 * review goes to a person with it rather than run half-configured. The file is parsed by
 * `parser` (the server's worker threads; in-thread by default).
 *
 * @example (await resolveReviewConfig(server, { source: "acme/web:.github/gate.yml@abc", text }, policies)).config.risk.threshold
 */
export async function resolveReviewConfig(
  server: ServerConfig,
  repo: RepoConfigText | undefined,
  policies: readonly Policy[],
  own: { policies: readonly Policy[]; files: readonly RepoConfigText[] } = { policies: [], files: [] },
  parser: ConfigParser = inThreadParser,
): Promise<{ config: EffectiveConfig; problem?: string }> {
  const repoPolicies = own.policies;
  if (!repo && repoPolicies.length === 0) return { config: server.config };
  const withOwn = (config: EffectiveConfig): EffectiveConfig =>
    repoPolicies.length > 0
      ? { ...config, repoPolicies: own.files.map((f) => ({ source: f.source, text: f.text })) }
      : config;
  const corpus = [...policies, ...repoPolicies];
  const sources = [...server.config.sources, ...repoPolicies.map((p) => p.source)];
  const serverOnly = () =>
    repoPolicies.length > 0
      ? effectiveConfig(server.file, corpus, { riskThreshold: server.config.risk.threshold, sources })
      : server.config;
  if (!repo) return { config: withOwn(serverOnly()) };
  try {
    const file = await parser.parse(repo.text, repo.source);
    return {
      config: withOwn(
        effectiveConfig(mergeConfig(server.file, file), corpus, {
          riskThreshold: server.config.risk.threshold,
          sources: [...sources, repo.source],
        }),
      ),
    };
  } catch (error) {
    return {
      config: withOwn(serverOnly()),
      problem: `${messageOf(error)}; the repository's configuration was not used, so a person decides`,
    };
  }
}
