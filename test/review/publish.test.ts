import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { Publisher, ReviewRecord } from "../../src/domain/review.js";
import { ReviewPublishing } from "../../src/review/publish.js";
import { registerFixture, silentLog, testGate, type TestGate } from "../helpers/gate.js";

const gates: Array<TestGate> = [];
afterEach(async () => {
  for (const g of gates.splice(0)) {
    await g.close();
    fs.rmSync(g.dir, { recursive: true, force: true });
  }
});

describe("ReviewPublishing", () => {
  it("hands each publisher the receipts of those before it, and marks the result published only when all showed it", async () => {
    const g = await testGate();
    gates.push(g);
    const review = await registerFixture(g, "002_new_dependency");
    const seen: Array<Pick<ReviewRecord, "slackTs" | "checkRunId">> = [];
    let checkFails = true;
    const card: Publisher = {
      name: "card",
      publish: async () => ({ slackChannel: "C1", slackTs: "1700000000.000100" }),
    };
    const check: Publisher = {
      name: "check",
      publish: async (r) => {
        seen.push({
          ...(r.slackTs ? { slackTs: r.slackTs } : {}),
          ...(r.checkRunId ? { checkRunId: r.checkRunId } : {}),
        });
        if (checkFails) throw new Error("GitHub answered 502");
        return { checkRunId: 77 };
      },
    };
    const publishing = new ReviewPublishing({ store: g.store, publishersFor: () => [card, check], log: silentLog });
    const result = await g.runner.result(review.id);

    await publishing.record(review.id, result);
    expect(seen).toEqual([{ slackTs: "1700000000.000100" }]);
    expect((await g.store.unpublished()).map((r) => r.id)).toEqual([review.id]);

    checkFails = false;
    await publishing.publish(review.id);
    expect(await g.store.unpublished()).toEqual([]);
    expect(await g.store.get(review.id)).toMatchObject({ slackTs: "1700000000.000100", checkRunId: 77 });
  });
});
