import { markDecisionApplied, receiveDecision } from "../../src/review/decision-record.js";
import { describe, expect, it } from "vitest";
import type { ReviewStatus } from "../../src/domain/review-result.js";
import type { ReviewStore } from "../../src/domain/review-store.js";
import { type LeftoverJob, leftoverWork, RUN_AFTER_RESTART } from "../../src/review/leftover-work.js";
import { openDatabase } from "../../src/store/database.js";
import { sqliteStore } from "../../src/store/sqlite/sqlite-store.js";

const at = new Date("2026-11-30T12:00:00Z");

async function review(s: ReviewStore, id: string, status: ReviewStatus, result?: "published" | "unpublished") {
  await s.register({
    id,
    pr: `acme/web#${id}`,
    repo: "acme/web",
    number: 1,
    headSha: "a".repeat(40),
    source: { kind: "fixture", fixturesDir: "/f", name: id },
  });
  await s.setStatus(id, status);
  if (!result) return;
  const saved = { pr: `acme/web#${id}`, route: null, status, review_id: id } as never;
  await s.saveResult(id, saved);
  if (result === "published") await s.markPublished(id, saved);
}

/** A database a process stopped on: one review of each kind of left-over work, and settled history. */
async function stopped(): Promise<ReviewStore> {
  const s = sqliteStore(openDatabase(":memory:"), () => at);
  await review(s, "settled", "done", "published");
  await review(s, "waiting", "waiting_for_human", "published");
  await review(s, "decided", "waiting_for_human", "published");
  expect(await receiveDecision(s, "decided", { kind: "approve", by: "alice" }, "slack")).toBe(true);
  await review(s, "queued", "queued");
  await review(s, "running", "running", "published");
  await review(s, "unpublished", "done", "unpublished");
  return s;
}

async function walk(s: ReviewStore, run?: ReviewStatus[], each?: (job: LeftoverJob) => Promise<void>) {
  const jobs: LeftoverJob[] = [];
  for await (const job of leftoverWork(s, run)) {
    jobs.push(job);
    await each?.(job);
  }
  return jobs.map((j) => `${j.kind} ${j.reviewId}`);
}

describe("leftoverWork", () => {
  it("lists decisions to finish first, then the reviews to run, then the results to publish; nothing settled or waiting", async () => {
    const s = await stopped();
    expect(RUN_AFTER_RESTART).toEqual(["queued", "running"]);
    expect(await walk(s)).toEqual([
      "decision decided",
      // The decided review is running until its decision is applied: a walk that does not apply it sees it again.
      "review decided",
      "review queued",
      "review running",
      "publish unpublished",
    ]);
  });

  it("runs only the statuses asked (a replica leaves running reviews to whoever runs them)", async () => {
    expect(await walk(await stopped(), ["queued"])).toEqual([
      "decision decided",
      "review queued",
      "publish unpublished",
    ]);
  });

  it("reads each list when it reaches it: work done on the earlier jobs is not found again", async () => {
    const s = await stopped();
    const jobs = await walk(s, ["queued"], async (job) => {
      if (job.kind !== "decision") return;
      // Finishing the decision settles its review and leaves its result unpublished, and a
      // publisher meanwhile shows the other unpublished result.
      await markDecisionApplied(s, job.reviewId, { kind: "approve", by: "alice" }, "human_approved");
      await s.setStatus(job.reviewId, "done");
      await s.saveResult(job.reviewId, { pr: "x", route: "human_approved", status: "done" } as never);
      const shown = await s.lastResult("unpublished");
      if (shown) await s.markPublished("unpublished", shown);
    });
    expect(jobs).toEqual(["decision decided", "review queued", "publish decided"]);
  });
});
