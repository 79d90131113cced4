import { describeError } from "../../domain/errors.js";
import { withFingerprints } from "../../domain/fingerprint.js";
import type { Finding } from "../../domain/finding.js";
import type { HeadFiles } from "../../domain/head-files.js";
import type { LicenseLookup, LicenseResolver, LookupFailure } from "../../domain/license-resolver.js";
import { applyConfig } from "../../gate-file/apply.js";
import { buildCoverage, type ReadGap } from "../../coverage/ledger.js";
import { withEmptyFilesShown, withMovedFilesWhole } from "../../coverage/moved-files.js";
import { recordingAdvisoryFailures } from "../../advisories/recording-failures.js";
import { configOf, reviewedPullRequest, type ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

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
    };
    const found: Finding[] = [];
    const detectorErrors: string[] = [];
    await Promise.all(
      deps.detectors.map(async (d) => {
        try {
          found.push(...(await d.detect(ctx)));
        } catch (error) {
          deps.log.error({ err: error, detector: d.id, reviewId: state.reviewId }, "detector failed");
          detectorErrors.push(`${d.id} (${d.policies.join(", ")})`);
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
    const coverage = buildCoverage(moved.pr.files, deps.detectors, gaps, config.coverage.acceptUnread);
    return { detections, detectorErrors: detectorErrors.sort(), lookupFailures, coverage };
  };
}
