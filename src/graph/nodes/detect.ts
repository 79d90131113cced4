import type { Finding } from "../../domain/finding.js";
import type { ReviewGraphDeps } from "../deps.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../state.js";

/** Runs every deterministic detector (free, so always). A detector that throws is recorded, never fatal. */
export function detectNode(deps: ReviewGraphDeps) {
  return async (state: ReviewStateValue): Promise<ReviewStateUpdate> => {
    const pr = state.pr;
    if (!pr) return {};
    const ctx = { pr, head: deps.headFiles(state.snapshot), licenses: deps.licenses(state.source) };
    const detections: Finding[] = [];
    const detectorErrors: string[] = [];
    await Promise.all(
      deps.detectors.map(async (d) => {
        try {
          detections.push(...(await d.detect(ctx)));
        } catch (error) {
          deps.log.error({ err: error, detector: d.id, reviewId: state.reviewId }, "detector failed");
          detectorErrors.push(`${d.id} (${d.policies.join(", ")})`);
        }
      }),
    );
    // Stable order, whatever order the detectors finished in.
    detections.sort(
      (a, b) =>
        a.policy.localeCompare(b.policy) ||
        (a.file ?? "").localeCompare(b.file ?? "") ||
        (a.line ?? 0) - (b.line ?? 0),
    );
    return { detections, detectorErrors: detectorErrors.sort() };
  };
}
