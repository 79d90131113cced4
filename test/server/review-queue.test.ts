import { describe, expect, it } from "vitest";
import type { ReviewJob } from "../../src/domain/review-jobs.js";
import { InProcessJobs, ReviewQueue } from "../../src/server/review-queue.js";
import { silentLog } from "../helpers/gate.js";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("ReviewQueue", () => {
  it("runs at most `concurrency` jobs at once, in order, and is idle only when all have finished", async () => {
    const queue = new ReviewQueue(2, silentLog);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    for (let i = 0; i < 6; i++) {
      queue.push(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await tick(5);
        running--;
      });
    }
    await queue.idle();
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(running).toBe(0);
    expect(queue.size).toBe(0);
  });

  it("a job that fails, even synchronously, stops neither the queue nor idle()", async () => {
    const queue = new ReviewQueue(1, silentLog);
    const done: string[] = [];
    queue.push(async () => {
      throw new Error("async failure");
    });
    queue.push((() => {
      throw new Error("sync failure");
    }) as () => Promise<unknown>);
    queue.push(async () => void done.push("third"));
    await queue.idle();
    expect(done).toEqual(["third"]);
  });

  it("starts a job on a later turn of the event loop, never in the caller's turn (the webhook answers first)", async () => {
    const queue = new ReviewQueue(2, silentLog);
    let started = false;
    queue.push(async () => {
      started = true;
    });
    expect(queue.size).toBe(1);
    // The caller's remaining microtasks (the webhook handler's 202) run before the job.
    await Promise.resolve();
    await Promise.resolve();
    expect(started).toBe(false);
    await queue.idle();
    expect(started).toBe(true);
  });

  it("an empty queue is idle at once", async () => {
    await expect(new ReviewQueue(1, silentLog).idle()).resolves.toBeUndefined();
  });
});

describe("InProcessJobs", () => {
  it("hands each job to the handler in order, counts them in its depth until done, and is idle after", async () => {
    const seen: ReviewJob[] = [];
    const jobs = new InProcessJobs(1, silentLog, async (job) => {
      seen.push(job);
      await tick(2);
    });
    await jobs.enqueue({ kind: "review", reviewId: "r-1" });
    await jobs.enqueue({ kind: "close", pr: "acme/web#1" });
    expect(await jobs.depth()).toBe(2);
    await jobs.idle();
    expect(seen).toEqual([
      { kind: "review", reviewId: "r-1" },
      { kind: "close", pr: "acme/web#1" },
    ]);
    expect(await jobs.depth()).toBe(0);
  });
});
