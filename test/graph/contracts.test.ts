import { describe, expect, expectTypeOf, it } from "vitest";
import type { HumanGatePayload } from "../../src/domain/human-gate.js";
import { ResumeSchema } from "../../src/domain/human-gate.js";
import type { ReviewStateUpdate, ReviewStateValue } from "../../src/graph/state.js";
import type { Escalation, ReviewResult } from "../../src/domain/review-result.js";
import type { ResumeValue } from "../../src/domain/review.js";

import type { z } from "zod";

/** true when T holds only JSON values (no functions, classes, Dates, undefined-only fields are fine). */
type IsJson<T> = T extends string | number | boolean | null | undefined
  ? true
  : T extends (...args: never[]) => unknown
    ? false
    : T extends Date | Map<unknown, unknown> | Set<unknown>
      ? false
      : T extends readonly (infer U)[]
        ? IsJson<U>
        : T extends object
          ? { [K in keyof T]-?: IsJson<T[K]> }[keyof T] extends true
            ? true
            : false
          : false;

describe("the contracts are typed and JSON-safe", () => {
  it("the interrupt payload and the resume value are plain JSON", () => {
    expectTypeOf<IsJson<HumanGatePayload>>().toEqualTypeOf<true>();
    expectTypeOf<IsJson<ResumeValue>>().toEqualTypeOf<true>();
    expectTypeOf<IsJson<ReviewResult>>().toEqualTypeOf<true>();
    expectTypeOf<IsJson<ReviewStateValue>>().toEqualTypeOf<true>();
    expectTypeOf<IsJson<{ f: () => void }>>().toEqualTypeOf<false>();
  });

  it("the resume schema accepts exactly the ResumeValue kinds", () => {
    expectTypeOf<z.infer<typeof ResumeSchema>>().toEqualTypeOf<ResumeValue>();
    expect(ResumeSchema.safeParse({ kind: "approve", by: "alice" }).success).toBe(true);
    expect(ResumeSchema.safeParse({ kind: "info", by: "alice", question: "why?" }).success).toBe(true);
    expect(ResumeSchema.safeParse({ kind: "merge", by: "alice" }).success).toBe(false);
    expect(ResumeSchema.safeParse({ kind: "approve", by: "" }).success).toBe(false);
    expect(ResumeSchema.safeParse({ kind: "approve", by: "a", extra: 1 }).success).toBe(false);
  });

  it("state updates: escalation takes an Escalation or 'clear'; findings are per specialty", () => {
    expectTypeOf<{ escalation: "clear" }>().toExtend<ReviewStateUpdate>();
    expectTypeOf<{ escalation: Escalation }>().toExtend<ReviewStateUpdate>();
    expectTypeOf<ReviewStateValue["escalation"]>().toEqualTypeOf<Escalation | null>();
    expectTypeOf<ReviewStateValue["findings"]>().toHaveProperty("security");
  });
});
