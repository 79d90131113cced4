/** What the investigation budget depends on: cycles used and allowed, money spent and allowed. */
export interface BudgetState {
  cyclesUsed: number;
  cyclesMax: number;
  costUsd: number;
  /** null: no money cap. */
  maxCostUsd: number | null;
}

/**
 * Why no further investigation (machine or a person's question) may start, or undefined when
 * one may. The one rule reconcile, the human gate and the runner all apply.
 *
 * @example investigationRefusal({ cyclesUsed: 2, cyclesMax: 2, costUsd: 0, maxCostUsd: 1 }) // "2 of 2 cycles used"
 */
export function investigationRefusal(b: BudgetState): string | undefined {
  if (b.cyclesUsed >= b.cyclesMax) return `${b.cyclesUsed} of ${b.cyclesMax} cycles used`;
  if (b.maxCostUsd !== null && b.costUsd >= b.maxCostUsd) {
    return `spent $${b.costUsd.toFixed(4)} of its $${b.maxCostUsd.toFixed(2)}`;
  }
  return undefined;
}

/** The budget of a review's graph state (fields absent in older checkpoints mean no cap). */
export function budgetOf(
  state: {
    investigations?: readonly unknown[];
    cyclesMax?: number;
    usage?: { cost_usd?: number };
    maxCostUsd?: number | null;
  },
  cyclesMaxDefault: number,
): BudgetState {
  return {
    cyclesUsed: state.investigations?.length ?? 0,
    cyclesMax: state.cyclesMax ?? cyclesMaxDefault,
    costUsd: state.usage?.cost_usd ?? 0,
    maxCostUsd: state.maxCostUsd ?? null,
  };
}
