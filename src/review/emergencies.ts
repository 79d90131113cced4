import { audits } from "./audit-entries.js";
import { grantEmergency, openEmergencies, openEmergency } from "./emergency-pass.js";
import type { ReviewWork } from "./review-work.js";

/**
 * Emergency changes (docs/operations.md, "Emergency changes"): a PR carrying the emergency label
 * passes its check while its review waits for a person, whose approval is due within
 * GATE_EMERGENCY_HOURS. Decided here, beside the graph: the findings are computed and shown as
 * ever, only the check's conclusion changes while it waits. A label added later applies to the
 * PR's waiting review, or to its running one once it waits (`labelPr`); the sweep marks an emergency not approved by its due time
 * overdue, once.
 *
 * @example const marked = await emergencies.sweep();
 */
export class ReviewEmergencies {
  constructor(private readonly work: ReviewWork) {}

  /**
   * A label added to a PR: the emergency label grants the PR's reviews waiting for a person an
   * emergency pass (audited with who labelled it) and republishes them. Returns the reviews granted.
   */
  async labelPr(pr: string, label: string, by?: string): Promise<string[]> {
    if (!label || label !== this.work.deps.emergency?.label) return [];
    const granted: string[] = [];
    for (const open of await this.work.store.openForPr(pr)) {
      if (open.source !== "github") continue;
      // Still queued or running: remembered, and granted if the review goes to a person.
      if (open.status === "queued" || open.status === "running") {
        await this.work.store.audit(audits.emergencyLabeled(open.id, pr, label, by));
        continue;
      }
      if (open.status !== "waiting_for_human") continue;
      await this.work.lock.run(open.id, async () => {
        const ctx = await this.work.context(open.id);
        if (ctx.review.status !== "waiting_for_human") return;
        if (!(await grantEmergency(this.work.deps, ctx.review, label, by))) return;
        await this.work.publishing.record(ctx.id, await ctx.result());
        granted.push(ctx.id);
      });
    }
    return granted;
  }

  /**
   * Marks every emergency past its due time with no decision overdue: audited, its result says
   * `emergency.overdue`, its check run, card and thread say so. A review waiting for a person, or
   * merged (past the gate) with no decision after the fact, is swept; a decided one never is.
   * Each once. Returns how many it marked.
   */
  async sweep(): Promise<number> {
    const now = this.work.deps.clock();
    let marked = 0;
    const reviews = await this.work.store.withStatus("waiting_for_human", "merged_unapproved");
    const passes = await openEmergencies(this.work.store, reviews);
    for (const r of reviews) {
      const pass = passes.get(r.id);
      if (!pass || Date.parse(pass.due_at) > now.getTime()) continue;
      await this.work.lock.run(r.id, async () => {
        const ctx = await this.work.context(r.id);
        const entries = await this.work.store.auditFor(r.id);
        const again = openEmergency(entries);
        const open = ctx.review.status === "waiting_for_human" || ctx.review.status === "merged_unapproved";
        if (!open || !again) return;
        await this.work.store.audit(audits.emergencyOverdue(r.id, r.pr, again.due_at, now.toISOString()));
        await this.work.publishing.record(ctx.id, await ctx.result());
        marked += 1;
      });
    }
    return marked;
  }
}
