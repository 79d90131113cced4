import type { ReviewResult } from "../../../src/domain/review-result.js";
import type {
  DecideOutcome,
  InvestigationProgress,
  ResumeValue,
  ReviewRecord,
  ReviewService,
} from "../../../src/domain/review.js";

/** A call to decide, as recorded. */
export interface DecideCall {
  reviewId: string;
  resume: ResumeValue;
}

/**
 * The ReviewService port's test double: reviews in a Map, exactly-once decisions (the status
 * flips before the first await, as the runner's per-review lock does), and a scripted
 * investigation for info requests.
 */
export class InMemoryReviewService implements ReviewService {
  readonly reviews = new Map<string, { record: ReviewRecord; result: ReviewResult }>();
  readonly decideCalls: DecideCall[] = [];
  /** Progress events an info request emits, with this many ms between them. */
  progressScript: InvestigationProgress[] = [];
  progressGapMs = 5;

  constructor(private readonly clock: () => string = () => "2026-03-02T09:30:00.000Z") {}

  add(record: ReviewRecord, result: ReviewResult): this {
    this.reviews.set(record.id, { record, result });
    return this;
  }

  async decide(reviewId: string, resume: ResumeValue, opts?: { onProgress?: (p: InvestigationProgress) => void }): Promise<DecideOutcome> {
    this.decideCalls.push({ reviewId, resume });
    const entry = this.reviews.get(reviewId);
    if (!entry) return { ok: false, code: "not_found", message: `no review ${reviewId}` };
    const { record, result } = entry;
    if (record.status === "running") return { ok: false, code: "busy", message: "an investigation is running" };
    if (record.status !== "waiting_for_human") {
      return result.decision
        ? { ok: false, code: "already_decided", message: "this review was already decided", decidedBy: result.decision.by }
        : { ok: false, code: "not_waiting", message: `the review is ${record.status}` };
    }
    if (resume.kind === "info") return this.investigate(reviewId, resume.question, resume.by, opts?.onProgress);
    // Flip synchronously: a second decide sees the decision.
    const at = this.clock();
    record.status = "done";
    record.updatedAt = at;
    result.status = "done";
    result.route = resume.kind === "approve" ? "human_approved" : "human_rejected";
    result.decision = { kind: resume.kind, by: resume.by, at, ...(resume.note ? { note: resume.note } : {}) };
    await Promise.resolve();
    return { ok: true, result: structuredClone(result) };
  }

  private async investigate(reviewId: string, question: string, by: string, onProgress?: (p: InvestigationProgress) => void): Promise<DecideOutcome> {
    const entry = this.reviews.get(reviewId);
    if (!entry) return { ok: false, code: "not_found", message: `no review ${reviewId}` };
    const { record, result } = entry;
    if (result.budget.cycles_used >= result.budget.cycles_max) {
      return { ok: false, code: "budget_spent", message: "no investigation cycles are left" };
    }
    record.status = "running";
    result.status = "running";
    for (const p of this.progressScript) {
      await new Promise((r) => setTimeout(r, this.progressGapMs));
      onProgress?.(p);
    }
    result.budget.cycles_used += 1;
    result.budget.tool_calls += 4;
    result.investigations.push({
      status: "resolved",
      question,
      answers: [`Answer for ${by}: the expiry check moved to middleware/session.ts`],
      evidence: [{ file: "src/middleware/session.ts", line: 17, excerpt: "if (session.expiresAt < now) throw new Expired()" }],
      tool_calls: 4,
      chars_read: 2048,
      reason: "",
    });
    record.status = "waiting_for_human";
    result.status = "waiting_for_human";
    return { ok: true, result: structuredClone(result) };
  }

  async status(ref: string): Promise<ReviewResult | undefined> {
    const byId = this.reviews.get(ref);
    if (byId) return structuredClone(byId.result);
    const newest = [...this.reviews.values()].filter((e) => e.record.pr === ref).sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt))[0];
    return newest ? structuredClone(newest.result) : undefined;
  }

  get(reviewId: string): ReviewRecord | undefined {
    const entry = this.reviews.get(reviewId);
    return entry ? { ...entry.record } : undefined;
  }

  listWaiting(): ReviewRecord[] {
    return [...this.reviews.values()]
      .map((e) => e.record)
      .filter((r) => r.status === "waiting_for_human")
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((r) => ({ ...r }));
  }
}
