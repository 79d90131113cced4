import { EventEmitter } from "node:events";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { StepAside } from "../../src/domain/step-aside.js";
import { Answers } from "../../src/domain/turns.js";
import { workerScript } from "../../src/worker-script.js";

/** Holds the thread for `ms`, as review work does. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** How long `step` held the thread, in ms. */
function timed(step: () => void): number {
  const started = performance.now();
  step();
  return performance.now() - started;
}

describe("Answers.shared", () => {
  it("mirrors the count of requests being answered, from before it was asked for and after", () => {
    const answers = new Answers();
    const first = new EventEmitter();
    answers.track(first);
    const cell = new Int32Array(answers.shared());
    expect(Atomics.load(cell, 0)).toBe(1);
    const second = new EventEmitter();
    answers.track(second);
    expect(Atomics.load(cell, 0)).toBe(2);
    first.emit("finish");
    second.emit("close");
    second.emit("finish");
    expect(Atomics.load(cell, 0)).toBe(0);
    // One memory per Answers: a second worker shares the same count.
    expect(answers.shared()).toBe(cell.buffer);
  });
});

describe("StepAside", () => {
  it("goes on at once while nothing is being answered, and outside a job whatever is", async () => {
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const aside = new StepAside(cell);
    // Counted, not timed: a step that went on at once never paused, so nothing was waited.
    await aside.during(async () => {
      work(20);
      aside.step();
      expect(aside.waitedMs).toBe(0);
    });
    Atomics.store(cell, 0, 1);
    // An idle worker has no work to make way with: nothing to pause.
    aside.step();
    expect(aside.waitedMs).toBe(0);
  });

  it("never waits longer in all than its job has worked: an answer that never ends does not stop it", async () => {
    const cell = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(cell, 0, 1);
    const aside = new StepAside(cell, 1_000);
    let waited = 0;
    await aside.during(async () => {
      work(6);
      for (let i = 0; i < 5; i++) waited += timed(() => aside.step());
    });
    expect(waited).toBeGreaterThan(3);
    expect(aside.waitedMs).toBeGreaterThan(3);
    // About 6 ms worked, so about 6 ms waited; unbounded, five steps would wait 5 s (1 s each). The
    // slack is for a busy machine's late wakes: the bound is a budget, not a stopwatch.
    expect(waited).toBeLessThan(500);
  });

  it("pauses a worker's job while the answering thread answers, and wakes it when the last answer goes out", async () => {
    const answers = new Answers();
    const answer = new EventEmitter();
    answers.track(answer);
    const result = await runWorker(answers, answer);
    expect(result.open).toBe(0);
    expect(result.waited).toBeGreaterThanOrEqual(20);
    expect(result.waited).toBeLessThan(1000);
  });
});

/** Runs step-aside-worker.ts sharing `answers`; ends `answer` 30 ms after the worker says it is stepping aside. */
async function runWorker(answers: Answers, answer: EventEmitter): Promise<{ waited: number; open: number }> {
  const start = workerScript(import.meta.url, "step-aside-worker");
  if (!start) throw new Error("no step-aside-worker beside this test");
  const worker = new Worker(start.script, { eval: start.eval, workerData: { answering: answers.shared() } });
  try {
    return await new Promise((resolve, reject) => {
      worker.on("message", (message: "stepping" | { waited: number; open: number }) => {
        if (message === "stepping") setTimeout(() => answer.emit("finish"), 30);
        else resolve(message);
      });
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`worker exited ${code}`)));
    });
  } finally {
    await worker.terminate();
  }
}
