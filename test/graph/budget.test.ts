import { describe, expect, it } from "vitest";
import { budgetOf, investigationRefusal } from "../../src/graph/budget.js";

describe("investigationRefusal: the one budget rule for machine and human investigations", () => {
  it.each([
    [{ cyclesUsed: 0, cyclesMax: 2, costUsd: 0, maxCostUsd: 1 }, undefined],
    [{ cyclesUsed: 2, cyclesMax: 2, costUsd: 0, maxCostUsd: 1 }, "2 of 2 cycles used"],
    [{ cyclesUsed: 1, cyclesMax: 2, costUsd: 1.2, maxCostUsd: 1 }, "spent $1.2000 of its $1.00"],
    [{ cyclesUsed: 1, cyclesMax: 2, costUsd: 99, maxCostUsd: null }, undefined],
  ])("%j → %s", (budget, expected) => {
    expect(investigationRefusal(budget)).toBe(expected);
  });

  it("reads a checkpoint from before the money cap as uncapped", () => {
    expect(budgetOf({ investigations: [{}], usage: { cost_usd: 5 } }, 2)).toEqual({
      cyclesUsed: 1,
      cyclesMax: 2,
      costUsd: 5,
      maxCostUsd: null,
    });
  });
});
