import { describe, expect, it } from "vitest";
import { parseReviewRef } from "../../src/slack/review-ref.js";

describe("parseReviewRef", () => {
  const ok: [string, string | undefined, string][] = [
    ["acme/web#12", undefined, "acme/web#12"],
    ["https://github.com/acme/web/pull/12", undefined, "acme/web#12"],
    ["<https://github.com/acme/web/pull/12/files>", undefined, "acme/web#12"],
    ["<https://github.com/acme/web/pull/12|acme/web#12>", undefined, "acme/web#12"],
    ["#7", "acme/api", "acme/api#7"],
    ["r-3f9a1c2b7d4e", undefined, "r-3f9a1c2b7d4e"],
  ];
  for (const [input, repo, ref] of ok) {
    it(`reads ${input}`, () => expect(parseReviewRef(input, repo)).toEqual({ ok: true, ref }));
  }

  it("needs a default repository for #n", () => {
    const r = parseReviewRef("#7");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.why).toContain("no default repository");
  });

  for (const bad of [
    "nonsense",
    "acme#1",
    "https://evil.example/acme/web/pull/1",
    "acme/web#",
    "../x#1",
    "acme/..#1",
    "<!channel>",
  ]) {
    it(`refuses ${bad}`, () => {
      const r = parseReviewRef(bad, "acme/web");
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.why).not.toContain("<!");
    });
  }
});
