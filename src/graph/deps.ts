import type { Logger } from "pino";
import type { Detector } from "../detectors/detector.js";
import type { DetectionPool } from "../detectors/offload/detect-pool.js";
import type { HeadFiles } from "../domain/head-files.js";
import type { LicenseResolver } from "../domain/license-resolver.js";
import type { AdvisorySource } from "../domain/advisory-source.js";
import type { Specialty } from "../domain/finding.js";
import type { PullRequestLoader, PullRequestStore } from "../domain/pull-request-loader.js";
import type { PullRequest } from "../domain/pull-request.js";
import type { InvestigationReport, InvestigationRequest } from "../domain/investigation.js";
import type { SnapshotRef } from "../domain/snapshot-ref.js";
import type { Policy } from "../domain/policy.js";
import type { InvestigationProgress } from "../domain/review.js";
import type { Specialist } from "../domain/specialist.js";
import type { ReviewSource } from "../domain/review-source.js";
import type { EffectiveConfig } from "../gate-file/effective.js";
import type { ServerConfig } from "../gate-file/resolve.js";
import type { ConfigParser } from "../gate-file/config-parser.js";
import type { Clock } from "../domain/clock.js";
import type { ConfigShelf } from "./review-config.js";
import { parsePolicyTexts } from "../policy/load-policies.js";
import type { RulesRunner } from "../detectors/offload/rules-runner.js";

/** The investigator as the graph sees it. It never throws (a failure is an inconclusive report). */
export interface Investigator {
  investigate(
    request: InvestigationRequest,
    ctx: {
      pr: PullRequest;
      snapshot: SnapshotRef;
      signal?: AbortSignal;
      onProgress?: (p: { turn: number; tool_calls: number; chars_read: number; cost_usd: number }) => void;
    },
  ): Promise<InvestigationReport>;
}

/**
 * Everything the review graph's nodes use, passed in by `buildReviewGraph`. The graph constructs
 * no client and reads no environment: I/O lives behind these.
 */
export interface ReviewGraphDeps {
  loader: PullRequestLoader;
  /** Each review's pull request, stored once by `intake` and read by the nodes that need its files. */
  pullRequests: PullRequestStore;
  detectors: Detector[];
  /** Head-commit files of a snapshot, for detectors that read whole manifests or workflows. */
  headFiles(snapshot: SnapshotRef): HeadFiles;
  /** The licence resolver for a review (a fixture's registry.json, or the live registries). */
  licenses(source: ReviewSource): LicenseResolver;
  /** The advisory source for a review (a fixture's osv.json, or OSV live or offline). */
  advisories(source: ReviewSource): AdvisorySource;
  policies: Policy[];
  specialists: Record<Specialty, Specialist>;
  investigator: Investigator;
  /** The server-wide configuration (no repository's file): intake merges a repository's file over it. */
  server: ServerConfig;
  /** Runs the built-in detectors over a large change on worker threads (GATE_WORKERS); in-thread when unset. */
  detectionPool?: DetectionPool;
  /** Runs teams' ast-grep rules in a child process killed past their budget (GATE_WORKERS > 0); in-thread when unset. */
  rulesRunner?: RulesRunner;
  /** GATE_RULES_BUDGET_MS: how long the teams' rules of one review may search. */
  rulesBudgetMs?: number;
  /** Parses a repository's configuration file off the answering thread (GATE_WORKERS); in-thread when unset. */
  configParser?: ConfigParser;
  /** Where each review's configuration is kept once, by digest (the state holds the digest). */
  configs: ConfigShelf;
  /** Today's date decides which exceptions still apply. */
  clock: Clock;
  specialistTimeoutMs: number;
  log: Logger;
  /** Live investigation progress, for the CLI and the Slack card. */
  onProgress?(progress: InvestigationProgress): void;
}

/**
 * The configuration a review runs with: the one intake resolved (kept by digest, or held whole by
 * reviews checkpointed before digests), or the server-wide one for reviews older than both.
 *
 * @example (await configOf(deps, state)).risk.threshold // 30
 */
export async function configOf(
  deps: Pick<ReviewGraphDeps, "server" | "configs">,
  state: { configRef?: string | null; config?: EffectiveConfig | null },
): Promise<EffectiveConfig> {
  return (await deps.configs.of(state)) ?? deps.server.config;
}

/**
 * The review's whole pull request (files and patches), from where `intake` stored it; undefined
 * before intake or when it could not load one.
 *
 * @example const pr = await reviewedPullRequest(deps, state); if (!pr) return {};
 */
export async function reviewedPullRequest(
  deps: Pick<ReviewGraphDeps, "pullRequests">,
  state: { reviewId: string; pr: unknown },
): Promise<PullRequest | undefined> {
  return state.pr ? deps.pullRequests.get(state.reviewId) : undefined;
}

/**
 * The repository's own policies a review's configuration keeps (checked at intake); none when they
 * no longer parse (the detect node records that as a failed detector, so the review goes to a person).
 *
 * @example ownPolicies(config).map((p) => p.id) // ["ACME-01"]
 */
export function ownPolicies(config: EffectiveConfig): Policy[] {
  try {
    // Their prose only: the rules are the detection workers' to parse (20,000 take seconds).
    return parsePolicyTexts(config.repoPolicies ?? [], { rules: false });
  } catch {
    return [];
  }
}
