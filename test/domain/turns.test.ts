import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { Answers, PauseBudget, Turns } from "../../src/domain/turns.js";

/** Holds the thread for `ms`, as review work does. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("Turns", () => {
  it("is due once the work has held the loop for its slice", () => {
    const turns = new Turns(5, new Answers());
    expect(turns.due()).toBe(false);
    work(6);
    expect(turns.due()).toBe(true);
  });

  it("lets other work run at each turn, and starts a new slice after it", async () => {
    const turns = new Turns(1, new Answers());
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    work(2);
    await turns.take();
    expect(ran).toBe(true);
    expect(turns.due()).toBe(false);
  });

  it("pieces of work run one after another share a slice: a new one is due when the loop has been held already", async () => {
    const answers = new Answers();
    const first = new Turns(5, answers);
    work(6);
    // The first piece ends here without a turn; the next one must not start a slice of its own.
    const next = new Turns(5, answers);
    expect(next.due()).toBe(true);
    await next.take();
    expect(first.due()).toBe(false);
    expect(next.due()).toBe(false);
  });

  it("waits while a request is answered, and goes on once its answer has finished", async () => {
    const answers = new Answers();
    const turns = new Turns(1, answers);
    const res = new EventEmitter();
    answers.track(res);
    work(30);
    let resumed = false;
    const taking = turns.take().then(() => {
      resumed = true;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(resumed).toBe(false);
    res.emit("finish");
    await taking;
    expect(resumed).toBe(true);
  });

  it("never waits longer than the work has run: an answer that never ends does not stop it", async () => {
    const answers = new Answers();
    const turns = new Turns(1, answers);
    answers.track(new EventEmitter());
    work(3);
    const started = performance.now();
    await turns.take();
    // It waited for the open answer, but only about as long as it had worked (3 ms), not its 50 ms cap.
    expect(performance.now() - started).toBeLessThan(40);
    await turns.take();
    await turns.take();
  });
});

describe("Answers", () => {
  it("is quiet at once with nothing open, and counts a request until its finish or its close, once", async () => {
    const answers = new Answers();
    await answers.quiet(10_000);
    const a = new EventEmitter();
    const b = new EventEmitter();
    answers.track(a);
    answers.track(b);
    let quiet = false;
    const waiting = answers.quiet(10_000).then(() => {
      quiet = true;
    });
    a.emit("finish");
    a.emit("close");
    await new Promise((r) => setImmediate(r));
    expect(quiet).toBe(false);
    b.emit("close");
    await waiting;
    expect(quiet).toBe(true);
  });
});

describe("PauseBudget", () => {
  it("allows a pause as long as the work has run less what it has waited, never over its bound", () => {
    const budget = new PauseBudget(1000);
    work(10);
    const first = budget.pause();
    expect(first).toBeGreaterThanOrEqual(10);
    const pausedAt = performance.now();
    work(30); // waited, not worked
    budget.resume(pausedAt);
    expect(budget.waitedMs).toBeGreaterThanOrEqual(30);
    expect(budget.pause()).toBeLessThan(first);
    // Time after `pause` and before `start` counts as neither.
    work(20);
    budget.start();
    expect(budget.pause()).toBeLessThan(first);

    const bounded = new PauseBudget(5);
    work(20);
    expect(bounded.pause()).toBe(5);
  });
});
