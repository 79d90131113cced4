import { parsePolicyTexts } from "../../policy/load-policies.js";
import { describeError } from "../../domain/errors.js";
import { withFingerprints } from "../../domain/fingerprint.js";
import type { Finding } from "../../domain/finding.js";
import type { HeadFiles } from "../../domain/head-files.js";
import type { LicenseLookup, LicenseResolver, LookupFailure } from "../../domain/license-resolver.js";
import { applyConfig } from "../../gate-file/apply.js";
import type { EffectiveConfig } from "../../gate-file/effective.js";
import { policyRuleDetectors } from "../../detectors/policy-rules.js";
import { buildCoverage, type ReadGap } from "../../coverage/ledger.js";
import { withEmptyFilesShown, withMovedFilesWhole } from "../../coverage/moved-files.js";
import { recordingAdvisoryFailures } from "../../advisories/recording-failures.js";
import type { DetectContext, Detector } from "../../detectors/detector.js";
import { type DetectionPool, DetectionTimeout, isLargeChange } from "../../detectors/offload/detect-pool.js";
import type { DetectorOutcome } from "../../detectors/offload/protocol.js";
import { teamsRulesOffThread } from "./teams-rules.js";
import { configOf, reviewedPullRequest, type ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";
import { DependencyReading } from "../../ecosystems/dependency-reading.js";

/**
 * The review's resolver, noting every lookup that got no answer (once per package and version).
 * After a registry failed, the rest of this review's lookups in that ecosystem fail at once with
 * the same error, so a PR with many new dependencies does not wait out every retry and timeout
 * once per package.
 */
export function recordingFailures(inner: LicenseResolver, failures: LookupFailure[]): LicenseResolver {
  const down = new Map<string, { registry: string; reason: string }>();
  return {
    async lookup(ecosystem, name, version) {
      const known = down.get(ecosystem);
      const answer: LicenseLookup = known
        ? { status: "failed", registry: known.registry, reason: `${known.reason}; not asked again in this review` }
        : await inner.lookup(ecosystem, name, version);
      if (answer.status === "failed") {
        const first = known ?? { registry: answer.registry, reason: answer.reason };
        down.set(ecosystem, first);
        if (!failures.some((f) => f.ecosystem === ecosystem && f.name === name && f.version === version)) {
          failures.push({ ecosystem, name, ...(version !== undefined ? { version } : {}), ...first });
        }
      }
      return answer;
    },
  };
}

/**
 * The review's head files, noting each file the snapshot could not give, and why, instead of
 * letting a detector fall back to the diff alone: the ledger lists it unread and the review goes
 * to a person saying why.
 */
export function recordingSnapshotFailure(inner: HeadFiles, gaps: ReadGap[]): HeadFiles {
  return {
    async read(path) {
      try {
        return await inner.read(path);
      } catch (error) {
        const detail = `the head snapshot could not give it: ${describeError(error)}`;
        if (!gaps.some((g) => g.file === path && g.detail === detail))
          gaps.push({ file: path, reason: "snapshot", detail });
        return undefined;
      }
    },
  };
}

/** The detectors' outcomes from the worker, or undefined (they then run here) when the worker could not take them. */
async function offloaded(
  pool: DetectionPool,
  ctx: DetectContext,
  detectors: Detector[],
  deps: Pick<ReviewGraphDeps, "log">,
  reviewId: string,
): Promise<Array<DetectorOutcome & { outOfTime?: true }> | undefined> {
  try {
    return await pool.detect(
      ctx,
      detectors.map((d) => d.id),
    );
  } catch (error) {
    // Out of time: what hung on the worker would hang here too, so the detectors are failed (a person decides).
    if (error instanceof DetectionTimeout)
      return detectors.map((d) => ({ detector: d.id, error: error.message, outOfTime: true as const }));
    deps.log.warn({ err: error, reviewId }, "the detection worker could not take the change; detecting in-thread");
    return undefined;
  }
}

/**
 * The detectors of the repository's own policies' rules (checked at intake, so a refusal here is
 * a stored configuration this version reads differently): recorded as a failed detector, never skipped.
 */
function repositoryRuleDetectors(config: EffectiveConfig, errors: string[]): Detector[] {
  try {
    return policyRuleDetectors(parsePolicyTexts(config.repoPolicies ?? []));
  } catch (error) {
    errors.push(`the repository's own policies (${describeError(error)})`);
    return [];
  }
}

/**
 * Runs every deterministic detector (free, so always), then applies the review's configuration
 * to what they found (policies switched off or tuned, exceptions), and writes the coverage ledger:
 * what the detectors read and what they could not (a language no detector reads, a binary, an
 * overlong line, a cap, a head file the snapshot could not give). Renamed or copied files whose
 * new path changes what applies are read whole. A detector that throws is recorded, never fatal;
 * so is a licence lookup that got no answer. Unread code and failed lookups go to a person.
 */
export function detectNode(deps: ReviewGraphDeps) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    if (!state.pr) return {};
    const pr = await reviewedPullRequest(deps, state);
    if (!pr) {
      // Fail closed: without the files nothing was checked, so a person decides.
      const detail = "the pull request's stored copy is missing; nothing could be checked";
      return { intakeProblem: detail, escalation: { reason: "intake_failed", detail } };
    }
    const lookupFailures: LookupFailure[] = [];
    const licenses = recordingFailures(deps.licenses(state.source), lookupFailures);
    const config = await configOf(deps, state);
    const gaps: ReadGap[] = [];
    const head = recordingSnapshotFailure(deps.headFiles(state.snapshot), gaps);
    const moved = await withMovedFilesWhole(await withEmptyFilesShown(pr, head), head);
    gaps.push(...moved.gaps);
    const notRead = (file: string, detail: string) => gaps.push({ file, reason: "cap", detail });
    const advisories = recordingAdvisoryFailures(deps.advisories(state.source), lookupFailures);
    const ctx = {
      pr: moved.pr,
      head,
      licenses,
      licenseRules: config.licenses,
      notRead,
      advisories,
      ...(config.vulnerabilities ? { vulnerabilityRules: config.vulnerabilities } : {}),
      // One reading of the manifests for this review: the licence checks and SEC-07 share it.
      dependencies: new DependencyReading(),
    };
    const found: Finding[] = [];
    const detectorErrors: string[] = [];
    // Each failed detector by its policies; one that ran out of time says so (the escalation names the setting).
    const failed = (d: Detector, error: unknown, why?: string) => {
      deps.log.error({ err: error, detector: d.id, reviewId: state.reviewId }, "detector failed");
      detectorErrors.push(`${d.id} (${d.policies.join(", ")}${why ? `; ${why}` : ""})`);
    };
    // A large change is detected on a worker thread (GATE_WORKERS), where it cannot delay HTTP answers.
    const pool = deps.detectionPool && isLargeChange(moved.pr) ? deps.detectionPool : undefined;
    const away = pool ? deps.detectors.filter((d) => pool.runs.has(d.id)) : [];
    const outcomes = pool && away.length > 0 ? await offloaded(pool, ctx, away, deps, state.reviewId) : undefined;
    for (const o of outcomes ?? []) {
      const d = away.find((x) => x.id === o.detector);
      if (!d) continue;
      if ("error" in o) failed(d, new Error(o.error), o.outOfTime ? "out of time, GATE_DETECT_TIMEOUT_MS" : undefined);
      else found.push(...o.findings);
    }
    // Teams' rules (the server's and the repository's) run in the rules process whenever there is one,
    // whatever the change's size: one rule can be quadratic; there its budget stops it mid-search.
    const runner = deps.rulesRunner;
    const isRules = (d: Detector) => d.id.startsWith("rules:");
    let detectors: Detector[];
    let inThread: Detector[];
    if (runner) {
      const serverRules = deps.policies.filter((p) =>
        deps.detectors.some((d) => isRules(d) && d.id === `rules:${p.id}`),
      );
      const teams = await teamsRulesOffThread(runner, ctx, serverRules, config.repoPolicies ?? [], deps.rulesBudgetMs);
      found.push(...teams.findings);
      detectorErrors.push(...teams.errors);
      gaps.push(...teams.gaps);
      detectors = [...deps.detectors.filter((d) => !isRules(d)), ...teams.readers];
      inThread = detectors.filter((d) => !teams.readers.includes(d));
    } else {
      // Without workers (GATE_WORKERS=0, the CLI) a repository's own rules run here, within their budget.
      detectors = [...deps.detectors, ...repositoryRuleDetectors(config, detectorErrors)];
      inThread = detectors;
    }
    await Promise.all(
      inThread
        .filter((d) => !outcomes || !away.includes(d))
        .map(async (d) => {
          try {
            found.push(...(await d.detect(ctx)));
          } catch (error) {
            failed(d, error);
          }
        }),
    );
    // Each finding's fingerprint, read from the lines the patch shows (docs/fingerprints.md).
    const detections = withFingerprints(
      applyConfig(found, config, deps.clock().toISOString().slice(0, 10)),
      moved.pr.files,
    );
    // Stable order, whatever order the detectors finished in.
    detections.sort(
      (a, b) =>
        a.policy.localeCompare(b.policy) || (a.file ?? "").localeCompare(b.file ?? "") || (a.line ?? 0) - (b.line ?? 0),
    );
    lookupFailures.sort((a, b) => `${a.ecosystem}:${a.name}`.localeCompare(`${b.ecosystem}:${b.name}`));
    // Never a silent gap: each lookup that got no answer (a cap on its size included) is logged too.
    for (const f of lookupFailures)
      deps.log.warn(
        {
          reviewId: state.reviewId,
          lookup: f.lookup ?? "licence",
          package: `${f.name}@${f.version ?? ""}`,
          registry: f.registry,
        },
        `lookup failed: ${f.reason}`,
      );
    const coverage = await buildCoverage(moved.pr.files, detectors, gaps, config.coverage.acceptUnread);
    return { detections, detectorErrors: detectorErrors.sort(), lookupFailures, coverage };
  };
}
