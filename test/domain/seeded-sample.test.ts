import { describe, expect, it } from "vitest";
import { seededSample } from "../../src/domain/seeded-sample.js";

const items = Array.from({ length: 100 }, (_, i) => `c${i}`);

describe("seededSample", () => {
  it("draws the same items for the same seed, in the items' order, without repeats", () => {
    const a = seededSample(items, 7, "audit-2026-q1");
    expect(a).toEqual(seededSample(items, 7, "audit-2026-q1"));
    expect(new Set(a).size).toBe(7);
    expect(a).toEqual([...a].sort((x, y) => items.indexOf(x) - items.indexOf(y)));
    expect(seededSample(items, 7, "audit-2026-q2")).not.toEqual(a);
  });

  it("pins the draw itself: a change to the PRNG would change every auditor's sample", () => {
    expect(seededSample(items, 5, "1")).toEqual(seededSample(items, 5, "1"));
    expect(seededSample(items, 5, "1")).toMatchInlineSnapshot(`
      [
        "c4",
        "c20",
        "c35",
        "c38",
        "c92",
      ]
    `);
  });

  it("gives them all when asked for as many or more", () => {
    expect(seededSample(items.slice(0, 3), 5, "1")).toEqual(["c0", "c1", "c2"]);
    expect(seededSample(items, 100, "x")).toEqual(items);
  });

  it("spreads its draws: every item is drawn in a fair share of 2000 seeds", () => {
    const counts = new Map<string, number>();
    for (let s = 0; s < 2000; s++)
      for (const x of seededSample(items.slice(0, 10), 2, String(s))) counts.set(x, (counts.get(x) ?? 0) + 1);
    // 2000 draws of 2 from 10: 400 each expected.
    for (const x of items.slice(0, 10)) expect(counts.get(x) ?? 0).toBeGreaterThan(300);
  });
});
