import { describe, expect, it } from "vitest";
import { supersedePlan, type SupersedeCandidate, type SupersedeStep } from "../../src/review/supersede-order.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const review = (id: string, headSha: string, eventAt?: string): SupersedeCandidate => ({
  id,
  headSha,
  ...(eventAt ? { eventAt } : {}),
});

const rows: { name: string; open: SupersedeCandidate[]; head: string; newId?: string; plan: SupersedeStep[] }[] = [
  { name: "nothing open", open: [], head: B, newId: "b", plan: [] },
  {
    name: "no new review named: every other head goes",
    open: [review("a", A), review("b", B)],
    head: B,
    plan: [{ id: "a", bySha: B }],
  },
  { name: "no new review named: the same head stays", open: [review("b", B)], head: B, plan: [] },
  {
    name: "the new review is no longer open: others of another head go",
    open: [review("a", A)],
    head: B,
    newId: "b",
    plan: [{ id: "a", bySha: B }],
  },
  {
    name: "registered later, no clock: the older goes",
    open: [review("a", A), review("b", B)],
    head: B,
    newId: "b",
    plan: [{ id: "a", bySha: B }],
  },
  {
    name: "registered earlier, no clock: the new one is the stale one",
    open: [review("a", A), review("b", B)],
    head: A,
    newId: "a",
    plan: [{ id: "a", bySha: B }],
  },
  {
    name: "GitHub's clock wins over arrival: a late-arriving older push supersedes itself",
    open: [review("b", B, "2026-11-30T10:00:05Z"), review("a", A, "2026-11-30T10:00:01Z")],
    head: A,
    newId: "a",
    plan: [{ id: "a", bySha: B }],
  },
  {
    name: "GitHub's clock: the newer push supersedes every older one",
    open: [
      review("a", A, "2026-11-30T10:00:01Z"),
      review("c", C, "2026-11-30T10:00:03Z"),
      review("b", B, "2026-11-30T10:00:05Z"),
    ],
    head: B,
    newId: "b",
    plan: [
      { id: "a", bySha: B },
      { id: "c", bySha: B },
    ],
  },
  {
    name: "several later heads: the stale one is superseded by the newest",
    open: [
      review("a", A, "2026-11-30T10:00:01Z"),
      review("c", C, "2026-11-30T10:00:09Z"),
      review("b", B, "2026-11-30T10:00:05Z"),
    ],
    head: A,
    newId: "a",
    plan: [{ id: "a", bySha: C }],
  },
  {
    name: "equal times fall back to registration order",
    open: [review("a", A, "2026-11-30T10:00:01Z"), review("b", B, "2026-11-30T10:00:01Z")],
    head: B,
    newId: "b",
    plan: [{ id: "a", bySha: B }],
  },
  {
    name: "one time missing falls back to registration order",
    open: [review("a", A, "2026-11-30T10:00:09Z"), review("b", B)],
    head: B,
    newId: "b",
    plan: [{ id: "a", bySha: B }],
  },
  {
    name: "same head again (the base branch changed): the older review of it goes",
    open: [review("a", A), review("a2", A)],
    head: A,
    newId: "a2",
    plan: [{ id: "a", bySha: A }],
  },
];

describe("supersedePlan: which open reviews a new head supersedes", () => {
  for (const row of rows) {
    it(row.name, () => {
      expect(supersedePlan(row.open, row.head, row.newId)).toEqual(row.plan);
    });
  }
});
