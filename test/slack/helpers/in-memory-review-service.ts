import type { ReviewResult } from "../../../src/domain/review-result.js";
import {
  refusalMessage,
  routeOfDecision,
  type AfterMergeKind,
  type ApproverConfig,
  type AttemptKind,
  type DecisionDoor,
  type Refusal,
} from "../../../src/domain/decision.js";
import { decisionRefusal } from "../../../src/review/decision-policy.js";
import type {
  CheckOutcome,
  DecideOutcome,
  InvestigationProgress,
  Refused,
  ResumeValue,
  ReviewRecord,
  ReviewService,
} from "../../../src/domain/review.js";
import { CARD, makeResult, makeReview } from "./builders.js";

/** A call to decide, as recorded. */
export interface DecideCall {
  reviewId: string;
  resume: ResumeValue;
}

/** An audit entry, in the shape the review store keeps. */
export interface AuditCall {
  reviewId: string;
  actor: string;
  action: string;
  outcome: string;
  detail: Record<string, unknown>;
}

/**
 * The ReviewService port's test double: reviews in a Map, decided by the real decision policy
 * (`decisionRefusal`), exactly-once decisions (the status flips before the first await, as the
 * runner's per-review lock does), a scripted investigation for info requests, and an audit log
 * in the store's shape.
 */
export class InMemoryReviewService implements ReviewService {
  readonly reviews = new Map<string, { record: ReviewRecord; result: ReviewResult }>();
  readonly decideCalls: DecideCall[] = [];
  readonly audit: AuditCall[] = [];
  approvers: ApproverConfig = { approvers: [] };
  /** GATE_MAX_COST_USD of the reviews (null: no money cap). */
  maxCostUsd: number | null = null;
  /** Progress events an info request emits, with this many ms between them. */
  progressScript: InvestigationProgress[] = [];
  progressGapMs = 5;

  constructor(private readonly clock: () => string = () => "2026-03-02T09:30:00.000Z") {}

  add(record: ReviewRecord, result: ReviewResult): this {
    this.reviews.set(record.id, { record, result });
    return this;
  }

  async check(reviewId: string, attempt: { kind: AttemptKind; by: string }, door: DecisionDoor): Promise<CheckOutcome> {
    const result = await this.status(reviewId);
    const refusal = this.refusalFor(reviewId, attempt, door);
    if (refusal) return this.refuse(reviewId, attempt, door, refusal);
    const record = await this.get(reviewId);
    if (!record || !result) return this.refuse(reviewId, attempt, door, { code: "not_found", reviewId });
    return { ok: true, review: record, result };
  }

  async decide(
    reviewId: string,
    resume: ResumeValue,
    opts?: { door?: DecisionDoor; onProgress?: (p: InvestigationProgress) => void },
  ): Promise<DecideOutcome> {
    this.decideCalls.push({ reviewId, resume });
    const door = opts?.door ?? { kind: "cli" };
    const refusal = this.refusalFor(reviewId, resume, door);
    if (refusal) return this.refuse(reviewId, resume, door, refusal);
    const entry = this.reviews.get(reviewId);
    if (!entry) return this.refuse(reviewId, resume, door, { code: "not_found", reviewId });
    this.audit.push({
      reviewId,
      actor: resume.by,
      action: resume.kind,
      outcome: "received",
      detail: { door: door.kind },
    });
    if (resume.kind === "info") return this.investigate(reviewId, resume.question, resume.by, opts?.onProgress);
    const { record, result } = entry;
    // Flip synchronously: a second decide sees the decision.
    const at = this.clock();
    record.status = "done";
    record.updatedAt = at;
    result.status = "done";
    result.route = routeOfDecision(resume.kind);
    result.decision = { kind: resume.kind, by: resume.by, at, ...(resume.note ? { note: resume.note } : {}) };
    await Promise.resolve();
    return { ok: true, result: structuredClone(result) };
  }

  async decideAfterMerge(
    reviewId: string,
    decision: { kind: AfterMergeKind; by: string; note?: string },
    opts?: { door?: DecisionDoor },
  ): Promise<DecideOutcome> {
    const door = opts?.door ?? { kind: "cli" };
    const refusal = this.refusalFor(reviewId, decision, door);
    if (refusal) return this.refuse(reviewId, decision, door, refusal);
    const entry = this.reviews.get(reviewId);
    if (!entry) return this.refuse(reviewId, decision, door, { code: "not_found", reviewId });
    this.audit.push({ reviewId, actor: decision.by, action: decision.kind, outcome: "applied", detail: {} });
    entry.result.after_the_fact = {
      kind: decision.kind === "incident" ? "incident" : "approve",
      by: decision.by,
      at: this.clock(),
      ...(decision.note ? { note: decision.note } : {}),
    };
    return { ok: true, result: structuredClone(entry.result) };
  }

  /** The real decision policy, on this double's record and result. */
  private refusalFor(
    reviewId: string,
    attempt: { kind: AttemptKind; by: string },
    door: DecisionDoor,
  ): Refusal | undefined {
    const entry = this.reviews.get(reviewId);
    if (!entry) return { code: "not_found", reviewId };
    const { record, result } = entry;
    return decisionRefusal({
      kind: attempt.kind,
      by: attempt.by,
      door,
      review: record,
      ...(result.decision ? { decision: result.decision } : {}),
      ...(result.after_the_fact ? { afterTheFact: result.after_the_fact } : {}),
      blockingSpecialties: result.findings.filter((f) => f.blocking).map((f) => f.specialty),
      budget: {
        cyclesUsed: result.budget.cycles_used,
        cyclesMax: result.budget.cycles_max,
        costUsd: result.budget.cost_usd,
        maxCostUsd: this.maxCostUsd,
      },
      gatePending: true,
      approvers: this.approvers,
    });
  }

  private refuse(
    reviewId: string,
    attempt: { kind: AttemptKind; by: string },
    door: DecisionDoor,
    refusal: Refusal,
  ): Refused {
    const message = refusalMessage(refusal);
    this.audit.push({
      reviewId,
      actor: attempt.by,
      action: attempt.kind,
      outcome: `refused:${refusal.code}`,
      detail: { door: door.kind, message },
    });
    return { ok: false, code: refusal.code, message, refusal };
  }

  private async investigate(
    reviewId: string,
    question: string,
    by: string,
    onProgress?: (p: InvestigationProgress) => void,
  ): Promise<DecideOutcome> {
    const entry = this.reviews.get(reviewId);
    if (!entry) throw new Error(`no review ${reviewId}`);
    const { record, result } = entry;
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
      evidence: [
        { file: "src/middleware/session.ts", line: 17, excerpt: "if (session.expiresAt < now) throw new Expired()" },
      ],
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
    const newest = [...this.reviews.values()]
      .filter((e) => e.record.pr === ref)
      .sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt))[0];
    return newest ? structuredClone(newest.result) : undefined;
  }

  async get(reviewId: string): Promise<ReviewRecord | undefined> {
    const entry = this.reviews.get(reviewId);
    return entry ? { ...entry.record } : undefined;
  }

  async listWaiting(): Promise<ReviewRecord[]> {
    return [...this.reviews.values()]
      .map((e) => e.record)
      .filter((r) => r.status === "waiting_for_human")
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((r) => ({ ...r }));
  }
}

/**
 * A service holding `makeReview`'s review, waiting for a person with its card posted at `CARD`, that
 * only UAPPROVER may decide.
 */
export function serviceWithPostedCard(): InMemoryReviewService {
  const service = new InMemoryReviewService().add(
    makeReview({ slackChannel: CARD.channel, slackTs: CARD.ts }),
    makeResult(),
  );
  service.approvers = { approvers: ["UAPPROVER"] };
  return service;
}
