import { expect } from "vitest";
import { DEMO_FIXTURES } from "../../src/cli/commands/demo.js";
import type { GateExtras } from "../../src/build-gate.js";
import { reviewFixture, type TestGate } from "./gate.js";

/** The test's clock: every part of the gate reads it; `at` moves it. */
export function movableClock(start: string) {
  let now = new Date(start);
  return {
    clock: () => new Date(now),
    at(iso: string) {
      now = new Date(iso);
    },
  };
}

/** The PRs the evidence store holds, by what happened to each. */
export interface EvidenceCases {
  /** Auto-approved by the gate, then merged. */
  autoApproved: string;
  /** Approved by a person, then merged. */
  approvedBeforeMerge: string;
  /** Merged while it waited (merged_unapproved), then approved after the fact. */
  approvedAfterMerge: string;
  /** Merged while it waited, nobody decided since. */
  mergedUnapproved: string;
  /** Approved by the gate's investigation, then merged. */
  approvedByGate: string;
  /** Merged PRs the gate has no review of. */
  unreviewed: string[];
  /** The review ids of the first four. */
  ids: Record<"autoApproved" | "approvedBeforeMerge" | "approvedAfterMerge" | "mergedUnapproved", string>;
}

export const MERGED_AT = {
  autoApproved: "2026-03-02T10:00:00Z",
  approvedByGate: "2026-03-02T10:10:00Z",
  approvedBeforeMerge: "2026-03-02T11:00:00Z",
  approvedAfterMerge: "2026-03-02T12:00:00Z",
  mergedUnapproved: "2026-03-02T13:00:00Z",
} as const;
export const DECIDED_AT = { approvedBeforeMerge: "2026-03-02T10:30:00Z", approvedAfterMerge: "2026-03-02T15:00:00Z" };
export const EXTRA_MERGES = 20;

/**
 * Writes the evidence cases through a real gate (its runner, as the server's jobs call it): the
 * demo's six reviews, five PRs of them merged (auto-approved; approved by the gate's
 * investigation; approved by a person, then merged; merged while waiting and approved after the
 * fact; merged while waiting: 017's PR is 018's, at an earlier head), and EXTRA_MERGES merges of PRs the
 * gate never reviewed, on the first days of March 2026.
 */
export async function writeEvidenceCases(open: (extras: GateExtras) => Promise<TestGate>): Promise<EvidenceCases> {
  const time = movableClock("2026-03-02T09:00:00Z");
  const gate = await open({ clock: time.clock });
  const results = new Map<string, Awaited<ReturnType<typeof reviewFixture>>>();
  for (const name of DEMO_FIXTURES) results.set(name, await reviewFixture(gate, name));
  const of = (name: string) => {
    const r = results.get(name);
    if (!r) throw new Error(`no result for ${name}`);
    return r;
  };
  const auto = of("001_readme_typo");
  const before = of("002_new_dependency");
  const after = of("003b_auth_change_logs_token");
  const investigated = of("003_auth_change");
  const unapproved = of("018_vulnerable_dependency");
  expect(auto.route).toBe("auto_approved");
  expect(investigated.route).toBe("approved");
  for (const r of [before, after, unapproved]) expect(r.status).toBe("waiting_for_human");
  const merge = async (pr: string, at: string, login = "octo-admin") => {
    const review = await gate.store.latestForPr(pr);
    await gate.runner.mergePr(pr, {
      by: login,
      at,
      ...(review ? { headSha: review.headSha, author: review.author } : { author: "someone" }),
      commitSha: `${(review?.headSha ?? "0".repeat(40)).slice(0, 30)}${String(at.slice(11, 13)).padStart(10, "c")}`,
      branch: "main",
      defaultBranch: "main",
    });
  };

  await merge(auto.pr, MERGED_AT.autoApproved);
  await merge(investigated.pr, MERGED_AT.approvedByGate);
  time.at(DECIDED_AT.approvedBeforeMerge);
  expect((await gate.runner.decide(before.review_id, { kind: "approve", by: "alice", note: "licence ok" })).ok).toBe(
    true,
  );
  await merge(before.pr, MERGED_AT.approvedBeforeMerge);
  await merge(after.pr, MERGED_AT.approvedAfterMerge);
  await merge(unapproved.pr, MERGED_AT.mergedUnapproved);
  time.at(DECIDED_AT.approvedAfterMerge);
  expect(
    (await gate.runner.decideAfterMerge(after.review_id, { kind: "approve_after_merge", by: "bob", note: "hotfix" }))
      .ok,
  ).toBe(true);
  // A merge into another branch is no change to the default branch.
  await gate.runner.mergePr("acme/legacy#999", {
    by: "x",
    at: "2026-03-03T09:00:00Z",
    branch: "release",
    defaultBranch: "main",
  });
  const unreviewed: string[] = [];
  for (let i = 1; i <= EXTRA_MERGES; i++) {
    const pr = `acme/legacy#${i}`;
    unreviewed.push(pr);
    await merge(pr, `2026-03-0${3 + (i % 5)}T${String(8 + (i % 10)).padStart(2, "0")}:00:00Z`, `pusher-${i}`);
  }
  await gate.close();
  return {
    autoApproved: auto.pr,
    approvedBeforeMerge: before.pr,
    approvedAfterMerge: after.pr,
    mergedUnapproved: unapproved.pr,
    approvedByGate: investigated.pr,
    unreviewed,
    ids: {
      autoApproved: auto.review_id,
      approvedBeforeMerge: before.review_id,
      approvedAfterMerge: after.review_id,
      mergedUnapproved: unapproved.review_id,
    },
  };
}
