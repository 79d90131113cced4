import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeError, describeIssues, GateError } from "../../src/domain/errors.js";

describe("describeIssues", () => {
  it("names each field path with its message, capped", () => {
    const err = z.object({ a: z.string(), b: z.object({ c: z.number() }) }).safeParse({ a: 1, b: { c: "x" } }).error!;
    expect(describeIssues(err)).toMatch(/^a: .+; b\.c: .+$/);
    expect(describeIssues(err, { max: 1 })).toMatch(/^a: [^;]+$/);
    expect(describeIssues(z.string().safeParse(1).error!, { root: "(input)" })).toMatch(/^\(input\): /);
  });
});

describe("describeError", () => {
  it("adds the advice of a coded error, and passes other errors through", () => {
    expect(describeError(new GateError("GITHUB_SIGNATURE", "bad signature"))).toBe(
      "bad signature (the webhook secret does not match GITHUB_WEBHOOK_SECRET)",
    );
    expect(describeError(new Error("plain"))).toBe("plain");
    expect(describeError("text")).toBe("text");
  });
});
