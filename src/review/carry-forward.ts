import type { HeadComparison, PriorDecision, PriorReading, PushHistory, SinceEarlier } from "../domain/carry.js";
import { SPECIALTIES } from "../domain/finding.js";
import type { ReviewRecord } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";
import type { ReviewGraph } from "../graph/build-review-graph.js";
import type { ReviewStateValue } from "../graph/state.js";
import { allFindings, coveredFindings } from "./carry-changes.js";
import { threadOf } from "./review-context.js";

type Values = Partial<ReviewStateValue>;

/** What `sinceEarlier` reads. */
export interface SinceDeps {
  store: ReviewStore;
  graph: ReviewGraph;
  history?: PushHistory;
}

/** Whether each of the three specialists gave a batch of its own (none failed). */
function specialistsFinished(values: Values): boolean {
  return SPECIALTIES.every((s) => values.findings?.[s] !== undefined && values.findings[s]?.failed === undefined);
}

/** The head each file was read at by the model specialists of a review (empty: none recorded). */
function reviewedMap(values: Values): Record<string, string> {
  return Object.assign({}, ...SPECIALTIES.map((s) => values.findings?.[s]?.reviewed ?? {}));
}

/** Whether any of these reviews was registered because the PR moved to another base branch. */
async function anyRetarget(store: ReviewStore, reviews: readonly ReviewRecord[]): Promise<boolean> {
  for (const r of reviews) {
    if ((await store.auditFor(r.id)).some((e) => e.action === "register" && e.outcome === "base_changed")) return true;
  }
  return false;
}

/**
 * What a new head inherits from the PR's earlier reviews (`SinceEarlier`): the decision of its
 * newest completed review, and the newest model reading whose specialists all finished. Each is
 * compared with the new head through `history` (no history: `unknown`, nothing carried). A re-run
 * of the same head inherits nothing: it starts over. A decision made before the PR moved to
 * another base branch is marked `retargeted` (it does not carry).
 */
export async function sinceEarlier(deps: SinceDeps, review: ReviewRecord): Promise<SinceEarlier | null> {
  const created = Date.parse(review.createdAt);
  const all = await deps.store.allForPr(review.pr);
  const earlier = all
    .filter((r) => r.id !== review.id && r.headSha !== review.headSha && Date.parse(r.createdAt) <= created)
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const comparisons = new Map<string, Promise<HeadComparison>>();
  const compare = (sha: string) => {
    let c = comparisons.get(sha);
    if (!c) {
      c = deps.history?.compare(review, sha, review.headSha) ?? Promise.resolve({ history: "unknown" as const });
      comparisons.set(sha, c);
    }
    return c;
  };
  const since: SinceEarlier = {};
  const done = earlier.find((r) => r.status === "done");
  if (done) {
    // Every review registered after the decided one (of any head), this one included: was one a retarget?
    const decidedAt = Date.parse(done.createdAt);
    const after = [
      review,
      ...all.filter(
        (r) =>
          r.id !== done.id &&
          r.id !== review.id &&
          Date.parse(r.createdAt) >= decidedAt &&
          Date.parse(r.createdAt) <= created,
      ),
    ];
    const retargeted = await anyRetarget(deps.store, after);
    const values = (await deps.graph.getState(threadOf(done.id))).values as Values;
    const d = values.decision;
    if (d) {
      const decision: PriorDecision = {
        review_id: done.id,
        head_sha: done.headSha,
        kind: d.kind,
        by: d.by,
        at: d.at,
        ...(d.note ? { note: d.note } : {}),
        ...(d.via ? { via: d.via } : {}),
        origin: d.carried_from ?? { review_id: done.id, head_sha: done.headSha, at: d.at },
        covered: coveredFindings(values),
        ...(d.kind === "approve" && d.approvals ? { approvals: d.approvals } : {}),
        ...(values.pr?.baseRef ? { base_ref: values.pr.baseRef } : {}),
        ...(retargeted ? { retargeted: true } : {}),
        ...(await compare(done.headSha)),
      };
      since.decision = decision;
    }
  }
  for (const r of earlier) {
    if (r.status !== "done" && r.status !== "waiting_for_human" && r.status !== "superseded") continue;
    const values = (await deps.graph.getState(threadOf(r.id))).values as Values;
    const reviewed = reviewedMap(values);
    if (!specialistsFinished(values) || Object.keys(reviewed).length === 0) continue;
    const reading: PriorReading = {
      review_id: r.id,
      head_sha: r.headSha,
      reviewed,
      findings: allFindings(values).filter((f) => f.source === "model"),
      ...(await compare(r.headSha)),
    };
    since.reading = reading;
    break;
  }
  return since.decision || since.reading ? since : null;
}
