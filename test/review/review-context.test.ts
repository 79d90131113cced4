import { systemClock } from "../../src/domain/clock.js";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ReviewRunner } from "../../src/review/runner.js";
import type { ReviewStore } from "../../src/domain/review-store.js";
import { registerFixture, silentLog, testGate, type TestGate } from "../helpers/gate.js";

const gates: Array<TestGate> = [];
afterEach(async () => {
  for (const g of gates.splice(0)) {
    await g.close();
    fs.rmSync(g.dir, { recursive: true, force: true });
  }
});

const READS = new Set(["get", "source", "lastResult", "latestForPr", "openForPr", "withStatus", "unpublished"]);

/** The real gate's graph and store, with their reads counted. */
async function counted() {
  const g = await testGate();
  gates.push(g);
  const reads = { state: 0, store: 0 };
  const graph = Object.assign(Object.create(g.graph) as typeof g.graph, {
    getState: (...args: Parameters<typeof g.graph.getState>) => {
      reads.state++;
      return g.graph.getState(...args);
    },
  });
  const store = new Proxy(g.store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (typeof prop === "string" && READS.has(prop)) reads.store++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as ReviewStore;
  const publisher = { name: "recorder", publish: async () => ({}) };
  const runner = new ReviewRunner({
    graph,
    store,
    progress: g.progress,
    publishersFor: () => [publisher],
    cyclesMax: 2,
    log: silentLog,
    clock: systemClock,
  });
  return { g, runner, reads };
}

describe("one run carries its review's context", () => {
  // Before the runner carried a context, this run read the graph state 4 times and the store 11.
  it("an auto-approved run reads the graph state twice (before and after the graph) and the store at most six times", async () => {
    const { g, runner, reads } = await counted();
    const review = await registerFixture(g, "001_readme_typo");
    const result = await runner.run(review.id);
    expect(result.route).toBe("auto_approved");
    expect(reads.state).toBeLessThanOrEqual(2);
    expect(reads.store).toBeLessThanOrEqual(6);
  });

  // Before: the decision read the graph state 3 times and the store 6.
  it("a run that waits for a person, then an approval, each read the graph state twice; the approval reads the store three times", async () => {
    const { g, runner, reads } = await counted();
    const review = await registerFixture(g, "002_new_dependency");
    expect((await runner.run(review.id)).status).toBe("waiting_for_human");
    const afterRun = { ...reads };
    const decided = await runner.decide(review.id, { kind: "approve", by: "alice" });
    expect(decided.ok && decided.result.route).toBe("human_approved");
    expect(afterRun.state).toBeLessThanOrEqual(2);
    expect(reads.state - afterRun.state).toBeLessThanOrEqual(2);
    expect(reads.store - afterRun.store).toBeLessThanOrEqual(3);
  });
});
