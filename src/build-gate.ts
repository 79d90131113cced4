import path from "node:path";
import type { Logger } from "pino";
import type { LicenseResolver } from "./domain/license-resolver.js";
import { type LookupObserver, observedAdvisories, observedLicenses } from "./domain/lookup-observer.js";
import { ALL_DETECTORS } from "./detectors/index.js";
import { policyRuleDetectors } from "./detectors/policy-rules.js";
import { systemClock, type Clock } from "./domain/clock.js";
import type { Specialty } from "./domain/finding.js";
import { buildReviewGraph } from "./graph/build-review-graph.js";
import type { Specialist } from "./domain/specialist.js";
import type { ReviewSource } from "./domain/review-source.js";
import type { GitHubAuth } from "./github/client.js";
import { octokitFor } from "./github/octokit-for.js";
import { createGitHubLoader } from "./github/live-loader.js";
import { createPushHistory } from "./github/push-history.js";
import { loaderBySource } from "./fixture/source-switch.js";
import { headFilesFor } from "./snapshot/head-files.js";
import { createSnapshotCache } from "./snapshot/snapshot-cache.js";
import { snapshotOf } from "./domain/snapshot-ref.js";
import type { Investigator } from "./investigator/investigator.js";
import type { Strategy } from "./investigator/strategy.js";
import { createFixtureResolver } from "./licenses/offline-resolver.js";
import { advisorySourcesFor } from "./advisories/advisory-sources.js";
import { effectiveConfig, type EffectiveConfig } from "./gate-file/effective.js";
import type { ReviewStateValue } from "./graph/state.js";
import { configShelf } from "./graph/review-config.js";
import { loadServerConfigFile } from "./gate-file/corpus-check.js";
import { approversWith } from "./gate-file/approvers-with.js";
import { loadPolicies } from "./policy/load-policies.js";
import { rulesReviewer } from "./policy/rules-reviewer.js";
import { ProgressHub } from "./review/progress-hub.js";
import { ReviewRunner } from "./review/runner.js";
import { threadOf } from "./review/review-context.js";
import type { Publisher, ReviewRecord } from "./domain/review.js";
import type { ReviewResult } from "./domain/review-result.js";
import type { Settings } from "./settings/index.js";
import { openState } from "./store/open-state.js";
import { configParser as configParserFor } from "./gate-file/config-parser.js";
import { detectionPool as detectionPoolFor } from "./detectors/offload/detect-pool.js";
import { rulesRunner as rulesRunnerFor } from "./detectors/offload/rules-runner.js";
import type { PgJobQueue } from "./store/postgres/job-queue.js";

/** What the edges may add to the core: live intake, live licences, model reviewers, publishers. */
export interface GateExtras {
  /** GitHub credentials: live intake (PR, files, head snapshot) and live licence lookups. */
  github?: GitHubAuth;
  specialists?: Partial<Record<Specialty, Specialist>>;
  /** Makes the investigator's strategy, one per investigation. */
  newStrategy?: () => Strategy;
  publishersFor?: (review: ReviewRecord) => Publisher[];
  /** Called when a review settles, with the result it settled on. */
  onSettled?: (review: ReviewRecord, result: ReviewResult) => void | Promise<void>;
  /** Called each time a review goes to a person, with the result it waits on. */
  onEscalated?: (review: ReviewRecord, result: ReviewResult) => void;
  /** Told how each live licence and advisory lookup ended (a fixture's are not told). */
  onLookup?: LookupObserver;
  clock?: Clock;
}

/** A live review with no registry configured: every lookup fails (to a person), never unknown. */
const NO_REGISTRY: LicenseResolver = {
  lookup: async () => ({ status: "failed", registry: "no registry", reason: "is configured for live licence lookups" }),
};

/**
 * The model parts when ANTHROPIC_API_KEY is set; without a key, none (the rules run), and the
 * Anthropic SDK is never loaded.
 */
async function modelPartsFor(claude: Settings["claude"], log: Logger) {
  if (!claude.apiKey) return undefined;
  const { modelParts } = await import("./claude/model-parts.js");
  return modelParts({ ...claude, apiKey: claude.apiKey }, log);
}

/**
 * The investigator, built by `make` when a review first investigates: its harness, tools and
 * strategies (re2js among them) are loaded then, never by a review that asks no question.
 *
 * @example const investigator = investigatorOnFirstUse(async () => createInvestigator({ ... }));
 */
function investigatorOnFirstUse(make: () => Promise<Investigator>): Investigator {
  let made: Promise<Investigator> | undefined;
  return {
    async investigate(req, ctx) {
      made ??= make();
      return (await made).investigate(req, ctx);
    },
  };
}

/**
 * With ANTHROPIC_API_KEY set: asks the Models API whether the configured models exist (a bad id
 * throws), without building the gate or opening its database. Without a key: nothing.
 *
 * @example await checkConfiguredModels(settings.claude, log)
 */
export async function checkConfiguredModels(claude: Settings["claude"], log: Logger): Promise<void> {
  await (await modelPartsFor(claude, log))?.check();
}

/**
 * Builds the gate's core from settings: its state (a SQLite file, or PostgreSQL), the policy corpus, the graph
 * with its checkpointer, and the runner. Used by `main.ts` (the server) and the CLI alike.
 *
 * @example const gate = await buildGate(loadSettings(env), logger); await gate.runner.run(id); await gate.close();
 */
export async function buildGate(settings: Settings, log: Logger, extras: GateExtras = {}) {
  const policies = loadPolicies(settings.policiesDir);
  // A policy's own ast-grep rules are checked here: a rule ast-grep refuses stops the start, naming it.
  const ruleDetectors = policyRuleDetectors(policies, { budgetMs: settings.rulesBudgetMs });
  const clock = extras.clock ?? systemClock;
  // The server-wide configuration, read whole and checked as strictly as `gate config check` before
  // anything is reviewed: an invalid file, or a policy id with no policy file, stops the start.
  const { file: configFile, warnings } = loadServerConfigFile(
    settings.configFile,
    policies.map((p) => p.id),
    clock().toISOString().slice(0, 10),
  );
  for (const w of warnings) log.warn({ file: w.file, line: w.line, col: w.col, key: w.key }, w.message);
  const config = effectiveConfig(configFile, policies, {
    riskThreshold: settings.review.riskThreshold,
    sources: [settings.configFile],
  });
  const state = await openState(settings.database, clock, log);
  const { store, pullRequests } = state;
  // Several replicas on PostgreSQL share a job table; the server starts its workers.
  const jobQueue: PgJobQueue | undefined =
    state.kind === "postgres"
      ? // Loaded only in PostgreSQL mode, like the rest of node-postgres.
        (await import("./store/postgres/job-queue.js")).openJobQueue(state.pool, settings.jobs, log)
      : undefined;
  const progress = new ProgressHub();
  // The registries' clients are loaded only with GitHub credentials: a fixture reads its registry.json.
  const registries = extras.github
    ? (await import("./ecosystems/registry-resolver.js")).createRegistryResolver({
        store,
        ...settings.licenses,
        maxBytes: settings.caps.answerBytes,
      })
    : undefined;
  const onLookup = extras.onLookup;
  const liveLicenses = registries && onLookup ? observedLicenses(registries, onLookup) : registries;
  const advisoriesFor = advisorySourcesFor(
    { ...settings.advisories, maxAnswerBytes: settings.caps.answerBytes },
    store,
    clock,
  );
  const model = await modelPartsFor(settings.claude, log);
  // This process's copies of head snapshots, fetched when first read (README, Security).
  const github = extras.github;
  const snapshots = createSnapshotCache({
    dataDir: settings.dataDir,
    caps: settings.snapshot,
    log,
    ...(github ? { octokitFor: (ref) => octokitFor(github, ref) } : {}),
  });
  const investigator = investigatorOnFirstUse(async () => {
    const [{ createInvestigator }, { createDeterministicStrategy }] = await Promise.all([
      import("./investigator/investigator.js"),
      import("./investigator/deterministic/strategy.js"),
    ]);
    const newStrategy = extras.newStrategy ?? model?.newStrategy;
    return createInvestigator({
      newStrategy: newStrategy ?? createDeterministicStrategy,
      // A model's clearance counts only if the rules, asked the same question, find no concern.
      ...(newStrategy ? { crossCheck: createDeterministicStrategy } : {}),
      snapshots,
      limits: settings.investigator,
    });
  });
  const fileCaps = { lines: settings.caps.fileLines, bytes: settings.caps.fileBytes };
  const loader = loaderBySource({
    fileCaps,
    ...(github
      ? {
          github: createGitHubLoader({
            auth: github,
            fileCaps: { ...fileCaps, answerBytes: settings.caps.answerBytes },
          }),
        }
      : {}),
  });
  const configs = configShelf(store);
  // Repositories' configuration files are parsed on GATE_WORKERS worker threads, off the thread that answers.
  const configParser = configParserFor(settings.workers, log);
  // Large changes are detected there too (detectors/offload/).
  const detectionPool = detectionPoolFor(settings.workers, log, settings.detectTimeoutMs);
  // Teams' ast-grep rules in a child process, killed when one overruns GATE_RULES_BUDGET_MS.
  const rulesRunner = settings.workers > 0 ? rulesRunnerFor(log, settings.detectTimeoutMs) : undefined;
  const graph = buildReviewGraph(
    {
      loader,
      pullRequests,
      detectors: [...ALL_DETECTORS, ...ruleDetectors],
      headFiles: (snapshot) => headFilesFor(snapshot, snapshots),
      licenses: (source: ReviewSource) =>
        source.kind === "fixture"
          ? createFixtureResolver(path.join(source.fixturesDir, source.name, "registry.json"))
          : (liveLicenses ?? NO_REGISTRY),
      // Known vulnerabilities (SEC-07): a fixture's osv.json, else GATE_OSV_DIR or OSV's API.
      advisories: (source: ReviewSource) =>
        source.kind !== "fixture" && onLookup
          ? observedAdvisories(advisoriesFor(source), onLookup)
          : advisoriesFor(source),
      policies,
      specialists: {
        security: extras.specialists?.security ?? model?.specialist ?? rulesReviewer,
        licensing: extras.specialists?.licensing ?? model?.specialist ?? rulesReviewer,
        data: extras.specialists?.data ?? model?.specialist ?? rulesReviewer,
      },
      investigator,
      server: { file: configFile, config },
      configParser,
      ...(detectionPool ? { detectionPool } : {}),
      ...(rulesRunner ? { rulesRunner } : {}),
      rulesBudgetMs: settings.rulesBudgetMs,
      configs,
      clock,
      specialistTimeoutMs: settings.review.specialistTimeoutMs,
      log,
      onProgress: (p) => progress.emit(p),
    },
    { checkpointer: state.checkpointer, clock },
  );
  const runner = new ReviewRunner({
    configs,
    clock,
    graph,
    store,
    progress,
    publishersFor: extras.publishersFor ?? (() => []),
    cyclesMax: settings.review.maxCycles,
    maxCostUsd: settings.review.maxCostUsd,
    emergency: settings.emergency,
    log,
    // The server-wide file's approvers over GATE_APPROVERS* (a repository's file adds its own per review).
    approvers: approversWith(settings.approvers, config.approvers),
    // Live PRs' heads are compared (carried decisions, files read again); fixtures start over.
    ...(github ? { history: createPushHistory(github, log) } : {}),
    ...(jobQueue ? { coordination: jobQueue } : {}),
    // A settled review keeps its pull request (gzipped, once: `gate config whatif` replays it) and
    // only its last checkpoint, and frees this process's copy of its snapshot; the edges may add more.
    onSettled: async (review, result) => {
      await state.pruneCheckpoints(review.id);
      const source = await store.source(review.id);
      // An open review of the same head (a re-run) reads the same copy: keep it.
      const shared = (await store.openForPr(review.pr)).some((r) => r.id !== review.id && r.headSha === review.headSha);
      if (source && !shared) {
        await snapshots
          .release(snapshotOf(source))
          .catch((error: unknown) => log.warn({ err: error, reviewId: review.id }, "could not free the snapshot"));
      }
      await extras.onSettled?.(review, result);
    },
    ...(extras.onEscalated ? { onEscalated: extras.onEscalated } : {}),
  });
  return {
    /** The database under the store (its kind, and read-only queries for tests and tools). */
    state,
    store,
    pullRequests,
    graph,
    runner,
    /** PostgreSQL: the job table every replica takes reviews from (undefined on SQLite: the server queues in process). */
    jobQueue,
    policies,
    /** The server-wide configuration file as read, and what it resolves to (no repository's file). */
    configFile,
    config,
    /** Each review's configuration, kept once by digest. */
    configs,
    /** The configuration a review ran with (the repository's file merged in), while its graph state is kept. */
    reviewConfig: async (reviewId: string): Promise<EffectiveConfig | undefined> => {
      const state = await graph.getState(threadOf(reviewId));
      return configs.of(state.values as Partial<ReviewStateValue>);
    },
    progress,
    clock,
    /** With ANTHROPIC_API_KEY set: asks the Models API whether the configured models exist (a bad id stops the start). */
    checkModels: async () => {
      await model?.check();
    },
    close: async () => {
      await jobQueue?.end();
      await Promise.all([configParser.close(), detectionPool?.close(), rulesRunner?.close()]);
      await state.close();
    },
  };
}

export type Gate = Awaited<ReturnType<typeof buildGate>>;
