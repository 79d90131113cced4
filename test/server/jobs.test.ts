import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { ReviewResult } from "../../src/domain/review-result.js";
import type { Publisher, ReviewRecord } from "../../src/domain/review.js";
import type { ReviewJob } from "../../src/domain/review-jobs.js";
import type { DeliveryIntake } from "../../src/domain/review-store.js";
import { loadFixturePullRequest } from "../../src/fixture/fixture.js";
import { nextTurn } from "../../src/server/answers-first.js";
import { createIntake } from "../../src/server/intake.js";
import { reviewJobHandler } from "../../src/server/jobs.js";
import { InProcessJobs } from "../../src/server/review-queue.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { openedGates, registerFixture, reviewFixture, type TestGate } from "../helpers/gate.js";

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

const silent = pino({ level: "silent" });

/** The server's job wiring on a test gate: an in-process queue whose jobs go through the handler, with the intake. */
function wired(g: TestGate) {
  const jobs = new InProcessJobs(2, silent, (job: ReviewJob) => handle(job));
  const intake = createIntake({ store: g.store, runner: g.runner, jobs, log: silent, later: nextTurn });
  const handle = reviewJobHandler(g.runner, intake);
  return { handle, jobs, intake };
}

/** What a webhook delivery of a bundled fixture's PR asks for. */
function fixtureIntake(name: string, baseChanged = false): DeliveryIntake {
  const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, name);
  return {
    review: {
      source: { kind: "fixture", fixturesDir: BUNDLED_FIXTURES_DIR, name },
      repo: pr.repo,
      number: pr.number,
      headSha: pr.headSha,
      title: pr.title,
      author: pr.author,
    },
    baseChanged,
  };
}

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
    expect(await first.store.receiveDecision(waiting.review_id, { kind: "approve", by: "alice" }, "slack")).toBe(true);
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

  it("an intake job registers the review its delivery asked for, queues its run, and does nothing a second time", async () => {
    const g = await open();
    const { handle, jobs } = wired(g);
    const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, "001_readme_typo");
    expect(await g.store.recordDelivery("d-1", "pull_request", fixtureIntake("001_readme_typo"))).toBe(true);
    expect(await g.store.pendingIntakes()).toEqual(["d-1"]);
    await handle({ kind: "intake", deliveryId: "d-1" });
    expect(await g.store.pendingIntakes()).toEqual([]);
    await jobs.idle();
    const reviews = await g.store.allForPr(`${pr.repo}#${pr.number}`);
    expect(reviews.map((r) => [r.headSha, r.status])).toEqual([[pr.headSha, "done"]]);
    await handle({ kind: "intake", deliveryId: "d-1" });
    await jobs.idle();
    expect(await g.store.allForPr(`${pr.repo}#${pr.number}`)).toHaveLength(1);
  });

  it("an intake for a head already under review registers nothing, unless the PR's base changed", async () => {
    const g = await open();
    const { handle, jobs } = wired(g);
    const waiting = await reviewFixture(g, "002_new_dependency");
    expect(waiting.status).toBe("waiting_for_human");
    const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, "002_new_dependency");
    await g.store.recordDelivery("reopened", "pull_request", fixtureIntake("002_new_dependency"));
    await handle({ kind: "intake", deliveryId: "reopened" });
    await jobs.idle();
    expect((await g.store.allForPr(`${pr.repo}#${pr.number}`)).map((r) => r.id)).toEqual([waiting.review_id]);
    await g.store.recordDelivery("base-moved", "pull_request", fixtureIntake("002_new_dependency", true));
    await handle({ kind: "intake", deliveryId: "base-moved" });
    await jobs.idle();
    const all = await g.store.allForPr(`${pr.repo}#${pr.number}`);
    expect(all).toHaveLength(2);
    expect((await g.store.get(waiting.review_id))?.status).toBe("superseded");
  });

  it("recover registers and runs the deliveries whose review was never registered (a crash after the answer)", async () => {
    const first = await open();
    await first.store.recordDelivery("before-crash", "pull_request", fixtureIntake("001_readme_typo"));
    // A second process on the same database, as a restart is.
    const second = await open(undefined, first.dir);
    const { handle, jobs } = wired(second);
    await handle({ kind: "recover" });
    await jobs.idle();
    const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, "001_readme_typo");
    expect((await second.store.allForPr(`${pr.repo}#${pr.number}`)).map((r) => r.status)).toEqual(["done"]);
    expect(await second.store.pendingIntakes()).toEqual([]);
  });
});
