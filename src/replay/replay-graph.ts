import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import type { Logger } from "pino";
import { fixtureOsvRecords, osvDirRecords } from "../advisories/offline-records.js";
import { advisorySourceOver } from "../advisories/record-source.js";
import { ALL_DETECTORS } from "../detectors/index.js";
import { policyRuleDetectors } from "../detectors/policy-rules.js";
import type { AdvisorySource } from "../domain/advisory-source.js";
import type { Clock } from "../domain/clock.js";
import type { LicenseResolver } from "../domain/license-resolver.js";
import type { Policy } from "../domain/policy.js";
import type { IntakeResult, PullRequestStore } from "../domain/pull-request-loader.js";
import type { PullRequest } from "../domain/pull-request.js";
import type { ReviewSource } from "../domain/review-source.js";
import { snapshotOf } from "../domain/snapshot-ref.js";
import { loadFixtureBaseConfig, loadFixtureBasePolicies } from "../fixture/fixture.js";
import type { ServerConfig } from "../gate-file/resolve.js";
import { buildReviewGraph } from "../graph/build-review-graph.js";
import { configShelf } from "../graph/review-config.js";
import { createDeterministicStrategy } from "../investigator/deterministic/strategy.js";
import { createInvestigator } from "../investigator/investigator.js";
import { createFixtureResolver } from "../licenses/offline-resolver.js";
import { rulesReviewer } from "../policy/rules-reviewer.js";
import type { Settings } from "../settings/index.js";
import { headFilesFor } from "../snapshot/head-files.js";
import { createSnapshotCache } from "../snapshot/snapshot-cache.js";

/** The corpus and the server-wide configuration a replay runs with (today's, or the proposed). */
export interface ReplayCorpus {
  policies: Policy[];
  server: ServerConfig;
}

/** What asking an outside service would answer in a replay: it asks none. */
const NOT_ASKED = "is not asked in a what-if replay (it asks no outside service)";

const noLicenses: LicenseResolver = {
  lookup: async () => ({ status: "failed", registry: "registry", reason: NOT_ASKED }),
};
const noAdvisories: AdvisorySource = {
  lookup: async (queries) => queries.map(() => ({ status: "failed", source: "OSV", reason: NOT_ASKED })),
};

/** One stored review to replay: its id, its source and the pull request the store kept. */
export interface ReplayInput {
  id: string;
  source: ReviewSource;
  pullRequest: PullRequest;
}

/**
 * The review graph as a replay runs it: rules mode (the rules reviewer, the deterministic
 * investigator; no model), an in-memory checkpointer and configuration shelf, the stored pull
 * request as intake, a fixture's own files for its registry, advisories and base-commit
 * configuration, and no outside service (a live review's lookups fail, as they would offline, the
 * same way in every replay). Head snapshots are copied only under a temporary folder, removed by
 * `close`. Nothing is written to the gate's database.
 *
 * @example const replay = replayGraph(corpus, settings, log, clock); const values = await replay.run(input); await replay.close();
 */
export function replayGraph(corpus: ReplayCorpus, settings: Settings, log: Logger, clock: Clock) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-whatif-"));
  const snapshots = createSnapshotCache({ dataDir, caps: settings.snapshot, log });
  const kept = new Map<string, PullRequest>();
  const pullRequests: PullRequestStore = {
    put: async (id, pr) => void kept.set(id, pr),
    get: async (id) => kept.get(id),
    delete: async (id) => void kept.delete(id),
  };
  const configsKept = new Map<string, string>();
  const configs = configShelf({
    keepConfig: async (digest, json) => void configsKept.set(digest, json),
    configJson: async (digest) => configsKept.get(digest),
  });
  let current: ReplayInput | undefined;
  const checkpointer = new MemorySaver();
  const offlineAdvisories = settings.advisories.osvDir
    ? advisorySourceOver(osvDirRecords(settings.advisories.osvDir))
    : noAdvisories;
  const graph = buildReviewGraph(
    {
      loader: {
        async load(source): Promise<IntakeResult> {
          if (!current) throw new Error("no review is being replayed");
          const result: IntakeResult = { pr: current.pullRequest, snapshot: snapshotOf(source) };
          if (source.kind !== "fixture") return result;
          const repoConfig = loadFixtureBaseConfig(source.fixturesDir, source.name);
          const repoPolicies = loadFixtureBasePolicies(source.fixturesDir, source.name);
          return { ...result, ...(repoConfig ? { repoConfig } : {}), ...(repoPolicies.length ? { repoPolicies } : {}) };
        },
      },
      pullRequests,
      detectors: [...ALL_DETECTORS, ...policyRuleDetectors(corpus.policies)],
      headFiles: (snapshot) => headFilesFor(snapshot, snapshots),
      licenses: (source) =>
        source.kind === "fixture"
          ? createFixtureResolver(path.join(source.fixturesDir, source.name, "registry.json"))
          : noLicenses,
      advisories: (source) =>
        source.kind === "fixture"
          ? advisorySourceOver(fixtureOsvRecords(path.join(source.fixturesDir, source.name, "osv.json")))
          : offlineAdvisories,
      policies: corpus.policies,
      specialists: { security: rulesReviewer, licensing: rulesReviewer, data: rulesReviewer },
      investigator: createInvestigator({
        newStrategy: createDeterministicStrategy,
        snapshots,
        limits: settings.investigator,
      }),
      server: corpus.server,
      configs,
      clock,
      specialistTimeoutMs: settings.review.specialistTimeoutMs,
      log,
    },
    { checkpointer, clock },
  );
  let runs = 0;
  return {
    /** Replays one review from intake to where it would stop (a verdict, or the human gate); its state's values. */
    async run(input: ReplayInput) {
      current = input;
      const thread = `whatif-${++runs}`;
      try {
        const out = (await graph.invoke(
          { reviewId: thread, source: input.source, cyclesMax: settings.review.maxCycles, maxCostUsd: null },
          { configurable: { thread_id: thread } },
        )) as Record<string, unknown>;
        return {
          values: (await graph.getState({ configurable: { thread_id: thread } })).values,
          waiting: "__interrupt__" in out,
        };
      } finally {
        current = undefined;
        kept.delete(thread);
        await checkpointer.deleteThread(thread);
      }
    },
    close: () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}
