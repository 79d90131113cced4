import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { Answers, PauseBudget, Turns } from "../../src/domain/turns.js";

/** Holds the thread for `ms`, as review work does. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Answers that records how long each wait for quiet was allowed (the real waiting, unchanged). */
class Quiets extends Answers {
  readonly allowed: number[] = [];
  override quiet(maxMs: number): Promise<void> {
    this.allowed.push(maxMs);
    return super.quiet(maxMs);
  }
}

describe("Turns", () => {
  it("is due once the work has held the loop for its slice", () => {
    // Slices far above a busy machine's stalls: "not yet due" must not depend on being scheduled in time.
    const turns = new Turns(100, new Answers());
    expect(turns.due()).toBe(false);
    work(101);
    expect(turns.due()).toBe(true);
  });

  it("lets other work run at each turn, and starts a new slice after it", async () => {
    const turns = new Turns(100, new Answers());
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
    const first = new Turns(100, answers);
    work(101);
    // The first piece ends here without a turn; the next one must not start a slice of its own.
    const next = new Turns(100, answers);
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
    // Two turns of the loop, not a timer: the take is waiting on the open answer by then, whatever the machine's load.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(resumed).toBe(false);
    res.emit("finish");
    await taking;
    expect(resumed).toBe(true);
  });

  it("never waits longer than the work has run: an answer that never ends does not stop it", async () => {
    const answers = new Quiets();
    const began = performance.now();
    const turns = new Turns(1, answers);
    answers.track(new EventEmitter());
    work(3);
    const taking = turns.take();
    // What the take may wait is fixed when it begins (synchronously): at most what it has worked.
    const workedAtMost = performance.now() - began;
    await taking;
    // Counted, not timed: it asked to wait for the open answer no longer than it had worked.
    expect(answers.allowed).toHaveLength(1);
    expect(answers.allowed[0]).toBeGreaterThanOrEqual(3);
    expect(answers.allowed[0]).toBeLessThanOrEqual(Math.min(50, workedAtMost));
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
