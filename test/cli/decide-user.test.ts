import { afterEach, describe, expect, it } from "vitest";
import { decideCommand } from "../../src/cli/commands/decide.js";
import { contextOver } from "../../src/cli/context.js";
import { registerFixture, silentLog, testGate, type TestGate } from "../helpers/gate.js";

const gates: TestGate[] = [];
afterEach(async () => {
  for (const g of gates.splice(0)) await g.close();
});

/** A CLI context over a test gate whose settings came from `env`, output captured. */
async function context(env: Record<string, string>, clock?: () => Date) {
  const gate = await testGate(env, clock ? { clock } : {});
  gates.push(gate);
  const out: string[] = [];
  const ctx = contextOver(gate, {
    settings: gate.settings,
    log: silentLog,
    out: (t) => out.push(t),
    err: (t) => out.push(t),
  });
  return { ctx, gate, out };
}

describe("gate decide without --by", () => {
  it("records the USER the settings read as the decider", async () => {
    const { ctx, gate } = await context({ USER: "dana" });
    const review = await registerFixture(gate, "002_new_dependency");
    await gate.runner.run(review.id);
    expect(await decideCommand(ctx, [review.id, "reject"], { json: true })).toBe(0);
    expect((await gate.runner.result(review.id)).decision?.by).toBe("dana");
  });

  it("records `cli` when USER is not set", async () => {
    const { ctx, gate } = await context({});
    const review = await registerFixture(gate, "002_new_dependency");
    await gate.runner.run(review.id);
    expect(await decideCommand(ctx, [review.id, "reject"], { json: true })).toBe(0);
    expect((await gate.runner.result(review.id)).decision?.by).toBe("cli");
  });

  it("stamps the decision with the gate's clock", async () => {
    const at = new Date("2026-01-02T03:04:05.000Z");
    const { ctx, gate } = await context({ USER: "dana" }, () => at);
    const review = await registerFixture(gate, "002_new_dependency");
    await gate.runner.run(review.id);
    expect(await decideCommand(ctx, [review.id, "approve"], { json: true })).toBe(0);
    expect((await gate.runner.result(review.id)).decision?.at).toBe(at.toISOString());
  });
});
