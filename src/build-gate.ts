import path from "node:path";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { LicenseResolver } from "./domain/license-resolver.js";
import { ALL_DETECTORS } from "./detectors/index.js";
import type { Specialty } from "./domain/finding.js";
import { buildReviewGraph } from "./graph/build-review-graph.js";
import type { Specialist } from "./domain/specialist.js";
import type { ReviewSource } from "./domain/review-source.js";
import type { GitHubAuth } from "./github/client.js";
import { createGitHubLoader } from "./github/live-loader.js";
import { createLoader } from "./fixture/loader.js";
import { createDeterministicStrategy } from "./investigator/deterministic/strategy.js";
import { headFilesFor } from "./snapshot/head-files.js";
import { createInvestigator } from "./investigator/investigator.js";
import type { Strategy } from "./investigator/strategy.js";
import { createFixtureResolver } from "./licenses/offline-resolver.js";
import { createRegistryResolver } from "./licenses/registry-resolver.js";
import { BUNDLED_POLICIES_DIR } from "./package-paths.js";
import { checkModels } from "./claude/check-models.js";
import { createModelClient } from "./claude/client.js";
import { createModelStrategy } from "./claude/investigator-strategy.js";
import { createModelSpecialist } from "./claude/specialist/index.js";
import { loadPolicies } from "./policy/load-policies.js";
import { rulesReviewer } from "./policy/rules-reviewer.js";
import { ProgressHub } from "./review/progress-hub.js";
import { ReviewRunner } from "./review/runner.js";
import type { ApproverConfig } from "./domain/decision.js";
import type { Publisher, ReviewRecord } from "./domain/review.js";
import { openDatabase } from "./store/database.js";
import { pruneCheckpoints, SqlitePullRequestStore } from "./store/pull-request-store.js";
import { ReviewStore } from "./store/review-store.js";

/** What the edges may add to the core: live intake, live licences, model reviewers, publishers. */
export interface GateExtras {
  /** GitHub credentials: live intake (PR, files, head snapshot) and live licence lookups. */
  github?: GitHubAuth;
  specialists?: Partial<Record<Specialty, Specialist>>;
  /** Makes the investigator's strategy, one per investigation. */
  newStrategy?: () => Strategy;
  publishersFor?: (review: ReviewRecord) => Publisher[];
  onSettled?: (review: ReviewRecord) => void | Promise<void>;
  /** Who may decide, at every door (the decision policy's approver lists and login map). */
  approvers?: ApproverConfig;
  clock?: () => Date;
}

/** A live review with no registry configured: every lookup fails (to a person), never unknown. */
const NO_REGISTRY: LicenseResolver = {
  lookup: async () => ({ status: "failed", registry: "no registry", reason: "is configured for live licence lookups" }),
};

/**
 * With ANTHROPIC_API_KEY set: one configured client (docs/design.md, reason 4), injected into the
 * specialists and the investigator's strategy. Without it: nothing, and the rules run.
 */
function modelParts(config: Config, log: Logger) {
  if (!config.ANTHROPIC_API_KEY) return undefined;
  const client = createModelClient({
    apiKey: config.ANTHROPIC_API_KEY,
    ...(config.ANTHROPIC_BASE_URL ? { baseURL: config.ANTHROPIC_BASE_URL } : {}),
  });
  const deps = { client, settings: config.model, prices: config.model.prices, log };
  const models = [
    { setting: "GATE_MODEL_SPECIALIST", id: config.model.specialistModel },
    { setting: "GATE_MODEL_INVESTIGATOR", id: config.model.investigatorModel },
  ];
  return {
    specialist: createModelSpecialist(deps),
    newStrategy: () => createModelStrategy(deps),
    check: () => checkModels(client, models, config.model.prices, log),
  };
}

/**
 * Builds the gate's core from settings: one SQLite file, the policy corpus, the graph with its
 * checkpointer, and the runner. Used by `main.ts` (the server) and the CLI alike.
 *
 * @example const gate = buildGate(loadConfig(), logger); await gate.runner.run(id); gate.close();
 */
export function buildGate(config: Config, log: Logger, extras: GateExtras = {}) {
  const policies = loadPolicies(config.GATE_POLICIES_DIR ?? BUNDLED_POLICIES_DIR);
  const db = openDatabase(config.dbPath);
  const clock = extras.clock ?? (() => new Date());
  const store = new ReviewStore(db, clock);
  const progress = new ProgressHub();
  const liveLicenses = extras.github
    ? createRegistryResolver({
        store,
        ...(config.GATE_NPM_REGISTRY_URL ? { npmRegistryUrl: config.GATE_NPM_REGISTRY_URL } : {}),
        ...(config.GATE_PYPI_URL ? { pypiUrl: config.GATE_PYPI_URL } : {}),
        ...(config.GATE_CRATES_URL ? { cratesUrl: config.GATE_CRATES_URL } : {}),
        ...(config.GATE_GO_LICENSE_URL ? { goLicenseUrl: config.GATE_GO_LICENSE_URL } : {}),
      })
    : undefined;
  const model = modelParts(config, log);
  const investigator = createInvestigator({
    newStrategy: extras.newStrategy ?? model?.newStrategy ?? createDeterministicStrategy,
    // A model's clearance counts only if the rules, asked the same question, find no concern.
    ...(extras.newStrategy ?? model?.newStrategy ? { crossCheck: createDeterministicStrategy } : {}),
    dataDir: config.dataDir,
    limits: {
      maxTurns: config.GATE_INVESTIGATOR_MAX_TURNS,
      maxToolCalls: config.GATE_INVESTIGATOR_MAX_TOOL_CALLS,
      maxFileChars: config.GATE_INVESTIGATOR_MAX_FILE_CHARS,
      timeoutMs: config.GATE_INVESTIGATOR_TIMEOUT_MS,
    },
  });
  const loader = createLoader(
    extras.github
      ? {
          github: createGitHubLoader({
            auth: extras.github,
            dataDir: config.dataDir,
            snapshotMaxBytes: config.GATE_SNAPSHOT_MAX_BYTES,
            log,
          }),
        }
      : {},
  );
  const pullRequests = new SqlitePullRequestStore(db);
  const graph = buildReviewGraph(
    {
      loader,
      pullRequests,
      detectors: [...ALL_DETECTORS],
      headFiles: (snapshot) => headFilesFor(snapshot, { dataDir: config.dataDir }),
      licenses: (source: ReviewSource) =>
        source.kind === "fixture"
          ? createFixtureResolver(path.join(source.fixturesDir, source.name, "registry.json"))
          : (liveLicenses ?? NO_REGISTRY),
      policies,
      specialists: {
        security: extras.specialists?.security ?? model?.specialist ?? rulesReviewer,
        licensing: extras.specialists?.licensing ?? model?.specialist ?? rulesReviewer,
        data: extras.specialists?.data ?? model?.specialist ?? rulesReviewer,
      },
      investigator,
      riskThreshold: config.GATE_RISK_THRESHOLD,
      specialistTimeoutMs: config.GATE_SPECIALIST_TIMEOUT_MS,
      log,
      onProgress: (p) => progress.emit(p),
    },
    { checkpointer: new SqliteSaver(db), clock },
  );
  const runner = new ReviewRunner({
    graph,
    store,
    progress,
    publishersFor: extras.publishersFor ?? (() => []),
    cyclesMax: config.GATE_MAX_CYCLES,
    maxCostUsd: config.GATE_MAX_COST_USD,
    log,
    ...(extras.approvers ? { approvers: extras.approvers } : {}),
    // A settled review frees its snapshot, its stored diff and its older checkpoints (its result,
    // the newest state and the audit log keep what `status` shows); the edges may add more.
    onSettled: async (review) => {
      await pullRequests.delete(review.id);
      pruneCheckpoints(db, review.id);
      const source = store.source(review.id);
      if (source) {
        await loader.release?.(source).catch((error: unknown) => log.warn({ err: error, reviewId: review.id }, "could not free the snapshot"));
      }
      await extras.onSettled?.(review);
    },
  });
  return {
    db,
    store,
    pullRequests,
    graph,
    runner,
    policies,
    progress,
    /** With ANTHROPIC_API_KEY set: asks the Models API whether the configured models exist (a bad id stops the start). */
    checkModels: async () => {
      await model?.check();
    },
    close: () => db.close(),
  };
}

export type Gate = ReturnType<typeof buildGate>;
