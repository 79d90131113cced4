import { describe, expect, it } from "vitest";
import { addSparseUsage, addUsage, ZERO_USAGE } from "../../src/domain/usage.js";

describe("usage sums", () => {
  it("addUsage adds field by field and rounds the cost to a millionth of a dollar", () => {
    const sum = addUsage({ ...ZERO_USAGE, model_calls: 1, cost_usd: 0.1 }, { model_calls: 2, cost_usd: 0.2 });
    expect(sum).toEqual({ ...ZERO_USAGE, model_calls: 3, cost_usd: 0.3 });
  });

  it("addSparseUsage keeps only the fields that are not zero, so a review without a model call carries none", () => {
    expect(addSparseUsage({}, {})).toEqual({});
    expect(addSparseUsage({}, { ...ZERO_USAGE })).toEqual({});
    const once = addSparseUsage({}, { model_calls: 1, input_tokens: 1200, cost_usd: 0.0042 });
    expect(once).toEqual({ model_calls: 1, input_tokens: 1200, cost_usd: 0.0042 });
    // A full usage (a review checkpointed before the sparse form) adds the same way.
    expect(addSparseUsage({ ...ZERO_USAGE, model_calls: 2 }, once)).toEqual({
      model_calls: 3,
      input_tokens: 1200,
      cost_usd: 0.0042,
    });
  });
});
