import { receiveDecision } from "../../src/review/decision-record.js";
import { afterEach, describe, expect, it } from "vitest";
import type { ReviewResult } from "../../src/domain/review-result.js";
import type { Publisher, ReviewRecord } from "../../src/domain/review.js";
import { openedGates, registerFixture, reviewFixture, wiredJobs as wired } from "../helpers/gate.js";

const gates = openedGates();
afterEach(() => gates.closeAll());

/** A publisher that records what it showed, failing while `failing` is set. */
function recordingPublisher() {
  const shown: Array<{ id: string; status: string }> = [];
  const publisher: Publisher & { failing: boolean; shown: typeof shown } = {
    name: "recording",
    failing: false,
    shown,
    async publish(review: ReviewRecord, result: ReviewResult) {
      if (publisher.failing) throw new Error("publisher down");
      shown.push({ id: review.id, status: result.status });
      return {};
    },
  };
  return publisher;
}

const open = (publisher?: Publisher, dir?: string) =>
  gates.open(publisher ? { publishersFor: () => [publisher] } : {}, dir);

describe("review jobs", () => {
  it("a review job runs its queued review after superseding the PR's older open review", async () => {
    const g = await open();
    const older = await reviewFixture(g, "002_new_dependency");
    expect(older.status).toBe("waiting_for_human");
    const newer = await registerFixture(g, "002_new_dependency");
    await wired(g).handle({ kind: "review", reviewId: newer.id });
    expect((await g.store.get(older.review_id))?.status).toBe("superseded");
    expect((await g.runner.result(newer.id)).status).toBe("waiting_for_human");
  });

  it("a decision job finishes the decision another process received and did not apply, once", async () => {
    const first = await open();
    const waiting = await reviewFixture(first, "002_new_dependency");
    expect(await receiveDecision(first.store, waiting.review_id, { kind: "approve", by: "alice" }, "slack")).toBe(true);
    // Another process (the same database) takes the job over.
    const second = await open(undefined, first.dir);
    const { handle } = wired(second);
    await handle({ kind: "decision", reviewId: waiting.review_id });
    expect((await second.runner.result(waiting.review_id)).route).toBe("human_approved");
    await handle({ kind: "decision", reviewId: waiting.review_id });
    const alice = (await second.store.auditFor(waiting.review_id)).filter((e) => e.actor === "alice");
    expect(alice.map((e) => e.outcome)).toEqual(["received", "applied"]);
  });

  it("a review job whose review already settled unpublished publishes it, and publishes nothing when it was", async () => {
    const publisher = recordingPublisher();
    const g = await open(publisher);
    publisher.failing = true;
    const settled = await reviewFixture(g, "001_readme_typo");
    expect(settled.status).toBe("done");
    expect((await g.store.unpublished()).map((r) => r.id)).toEqual([settled.review_id]);
    publisher.failing = false;
    const { handle } = wired(g);
    await handle({ kind: "review", reviewId: settled.review_id });
    expect(publisher.shown).toEqual([{ id: settled.review_id, status: "done" }]);
    expect(await g.store.unpublished()).toEqual([]);
    await handle({ kind: "publish", reviewId: settled.review_id });
    expect(publisher.shown).toHaveLength(1);
  });

  it("a job for a review that does not exist (its registration rolled back) does nothing", async () => {
    const g = await open();
    await expect(wired(g).handle({ kind: "review", reviewId: "r-000000000000" })).resolves.toBeUndefined();
  });
});
