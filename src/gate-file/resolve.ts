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
 * one. A repository file with any problem is not used at all; the problem is returned, so the
 * review goes to a person with it rather than run half-configured. The file is parsed by
 * `parser` (the server's worker threads; in-thread by default).
 *
 * @example (await resolveReviewConfig(server, { source: "acme/web:.github/gate.yml@abc", text }, policies)).config.risk.threshold
 */
export async function resolveReviewConfig(
  server: ServerConfig,
  repo: RepoConfigText | undefined,
  policies: readonly Policy[],
  parser: ConfigParser = inThreadParser,
): Promise<{ config: EffectiveConfig; problem?: string }> {
  if (!repo) return { config: server.config };
  try {
    const file = await parser.parse(repo.text, repo.source);
    return {
      config: effectiveConfig(mergeConfig(server.file, file), policies, {
        riskThreshold: server.config.risk.threshold,
        sources: [...server.config.sources, repo.source],
      }),
    };
  } catch (error) {
    return {
      config: server.config,
      problem: `${messageOf(error)}; the repository's configuration was not used, so a person decides`,
    };
  }
}
