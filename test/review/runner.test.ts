import { systemClock } from "../../src/domain/clock.js";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { leftoverWork } from "../../src/review/leftover-work.js";
import { newReviewId, ReviewRunner } from "../../src/review/runner.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { registerFixture, silentLog, testGate, type TestGate } from "../helpers/gate.js";
import { defined } from "../helpers/defined.js";

const gates: Array<TestGate> = [];
afterEach(async () => {
  for (const g of gates.splice(0)) {
    await g.close();
    fs.rmSync(g.dir, { recursive: true, force: true });
  }
});
async function gate() {
  const g = await testGate();
  gates.push(g);
  return g;
}

describe("newReviewId", () => {
  it("gives r- and 12 hex digits, a new one each time", () => {
    const ids = Array.from({ length: 2000 }, () => newReviewId());
    for (const id of ids) expect(id).toMatch(/^r-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("ReviewRunner.supersedeOlder", () => {
  it("supersedes only reviews registered before the new one, never a newer head", async () => {
    const g = await gate();
    const a = await registerFixture(g, "002_new_dependency");
    const b = await g.runner.register({
      source: { kind: "fixture", fixturesDir: BUNDLED_FIXTURES_DIR, name: "002_new_dependency" },
      repo: a.repo,
      number: a.number,
      headSha: "b".repeat(40),
    });
    // Both pushes were queued before either job ran; the older push's job runs first and finds
    // itself the stale one: it is superseded by the newer head, which stays queued.
    const byOlder = await g.runner.supersedeOlder(a.pr, a.headSha, a.id);
    expect(byOlder.map((r) => r.id)).toEqual([a.id]);
    expect(await g.store.get(a.id)).toMatchObject({ status: "superseded", supersededBy: b.headSha });
    expect((await g.store.get(b.id))?.status).toBe("queued");
    const byNewer = await g.runner.supersedeOlder(b.pr, b.headSha, b.id);
    expect(byNewer).toEqual([]);
    expect((await g.store.get(b.id))?.status).toBe("queued");
  });

  it("orders out-of-order deliveries by GitHub's clock: a late-arriving older push never supersedes the newer head", async () => {
    const g = await gate();
    const base = {
      source: { kind: "fixture" as const, fixturesDir: BUNDLED_FIXTURES_DIR, name: "002_new_dependency" },
      repo: "acme/web",
      number: 9,
    };
    // Push B (later) is delivered first; push A (earlier) arrives after it.
    const b = await g.runner.register({ ...base, headSha: "b".repeat(40), eventAt: "2026-11-30T10:00:05Z" });
    await g.runner.supersedeOlder(b.pr, b.headSha, b.id);
    const a = await g.runner.register({ ...base, headSha: "a".repeat(40), eventAt: "2026-11-30T10:00:01Z" });
    const superseded = await g.runner.supersedeOlder(a.pr, a.headSha, a.id);
    expect(superseded.map((r) => r.id)).toEqual([a.id]);
    expect(await g.store.get(a.id)).toMatchObject({ status: "superseded", supersededBy: "b".repeat(40) });
    expect((await g.store.get(b.id))?.status).toBe("queued");
    expect((await g.store.auditFor(b.id)).some((e) => e.action === "supersede")).toBe(false);
  });
});

describe("ReviewRunner.decide on a review that failed closed", () => {
  it("refuses a question (there is no gate to resume) and keeps the review waiting for a person", async () => {
    const g = await gate();
    // The real compiled graph, except that running it fails: the runner fails closed to a person.
    const failing = Object.assign(Object.create(g.graph) as typeof g.graph, {
      invoke: async () => {
        throw new Error("boom");
      },
    });
    const runner = new ReviewRunner({
      graph: failing,
      store: g.store,
      progress: g.progress,
      publishersFor: () => [],
      cyclesMax: 2,
      log: silentLog,
      clock: systemClock,
    });
    const review = await registerFixture(g, "002_new_dependency");
    const failed = await runner.run(review.id);
    expect(failed.route).toBe("human");
    expect((await g.store.get(review.id))?.status).toBe("waiting_for_human");

    const asked = await runner.decide(review.id, { kind: "info", by: "alice", question: "is it safe?" });
    expect(asked.ok).toBe(false);
    expect((await g.store.get(review.id))?.status).toBe("waiting_for_human");
    expect((await runner.status(review.id))?.route).toBe("human");

    // A person can still decide it.
    const decided = await runner.decide(review.id, { kind: "reject", by: "alice", note: "no" });
    expect(decided.ok && decided.result.route).toBe("human_rejected");
  });
});

describe("ReviewRunner.decide and check: the decision policy at the runner", () => {
  it("applies the approver lists and the author bar, audits every refusal in one shape, and changes nothing until allowed", async () => {
    const g = await gate();
    const approvers = { approvers: ["ULEGAL"], githubToSlack: { "dev-priya": "UPRIYA" } };
    const runner = new ReviewRunner({
      graph: g.graph,
      store: g.store,
      progress: g.progress,
      publishersFor: () => [],
      cyclesMax: 2,
      log: silentLog,
      clock: systemClock,
      approvers,
    });
    const review = await registerFixture(g, "002_new_dependency");
    expect((await runner.run(review.id)).status).toBe("waiting_for_human");

    const byAuthor = await runner.decide(review.id, { kind: "approve", by: "Dev-Priya" });
    expect(byAuthor).toMatchObject({ ok: false, code: "not_allowed" });
    const mappedFromSlack = await runner.check(
      review.id,
      { kind: "reject", by: "UPRIYA" },
      { kind: "slack", groups: [] },
    );
    expect(mappedFromSlack).toMatchObject({ ok: false, code: "not_allowed" });
    const stranger = await runner.decide(review.id, { kind: "approve", by: "mallory" }, { door: { kind: "cli" } });
    expect(stranger.ok === false && stranger.message).toMatch(/not among the configured approvers/);
    expect((await g.store.get(review.id))?.status).toBe("waiting_for_human");

    const allowed = await runner.check(review.id, { kind: "approve", by: "ULEGAL" }, { kind: "slack" });
    expect(allowed.ok && allowed.result.status).toBe("waiting_for_human");
    const decided = await runner.decide(review.id, { kind: "approve", by: "ULEGAL" }, { door: { kind: "slack" } });
    expect(decided.ok && decided.result.route).toBe("human_approved");

    const audit = (await g.store.auditFor(review.id)).filter((e) => e.actor !== "gate");
    expect(audit.map((e) => [e.actor, e.action, e.outcome, e.detail.door])).toEqual([
      ["Dev-Priya", "approve", "refused:not_allowed", "cli"],
      ["UPRIYA", "reject", "refused:not_allowed", "slack"],
      ["mallory", "approve", "refused:not_allowed", "cli"],
      ["ULEGAL", "approve", "received", "slack"],
      ["ULEGAL", "approve", "applied", undefined],
    ]);
    expect(audit[0]?.detail.message).toBe(
      `You may not decide on ${review.pr}: you opened this pull request, and its author can never decide on it. Nothing was changed.`,
    );
  });
});

describe("ReviewRunner publishing", () => {
  it("announces a registered review at once, and a late announcement never overwrites the verdict", async () => {
    const g = await gate();
    const shown: Array<[string | null, string]> = [];
    const recorder = {
      name: "recorder",
      publish: async (_r: unknown, result: { route: string | null; status: string }) => {
        shown.push([result.route, result.status]);
        return {};
      },
    };
    const runner = new ReviewRunner({
      graph: g.graph,
      store: g.store,
      progress: g.progress,
      publishersFor: () => [recorder],
      cyclesMax: 2,
      log: silentLog,
      clock: systemClock,
    });
    const review = await registerFixture(g, "001_readme_typo");
    await runner.announce(review.id);
    expect(shown).toEqual([[null, "queued"]]);

    const staleQueued = defined(await g.store.lastResult(review.id), "the queued result");
    await runner.run(review.id);
    expect(shown.at(-1)).toEqual(["auto_approved", "done"]);

    // A publish after an older result was produced (a slow announcement, a retry) shows the latest.
    expect(staleQueued.status).toBe("queued");
    await runner.publish(review.id);
    expect(shown.at(-1)).toEqual(["auto_approved", "done"]);
    await runner.announce(review.id);
    expect(shown.at(-1)).toEqual(["auto_approved", "done"]);
    expect(await g.store.unpublished()).toEqual([]);
  });
});

describe("ReviewRunner: a run that stopped between settling and saving its verdict", () => {
  it("is found by the restart's leftover work, and its publish saves and shows the verdict, not the stale 'running'", async () => {
    const g = await gate();
    const review = await registerFixture(g, "001_readme_typo");
    await g.runner.run(review.id);
    const verdict = await g.runner.result(review.id);
    expect(verdict).toMatchObject({ status: "done", route: "auto_approved" });
    // A second run (a job taken over) announced "running", then settled, then lost its connection.
    await g.store.setStatus(review.id, "running");
    expect(await g.store.saveResult(review.id, { ...verdict, status: "running", route: null })).toBe(true);
    await g.store.markPublished(review.id, defined(await g.store.lastResult(review.id), "the running result"));
    expect(await g.store.setStatusUnlessSuperseded(review.id, "done")).toBe(true);

    const left = [];
    for await (const job of leftoverWork(g.store)) left.push(job);
    expect(left).toEqual([{ kind: "publish", reviewId: review.id }]);
    expect(await g.runner.publishIfUnpublished(review.id)).toBe(true);
    expect(await g.store.lastResult(review.id)).toMatchObject({ status: "done", route: "auto_approved" });
    expect(await g.store.unpublished()).toEqual([]);
    expect(await g.runner.publishIfUnpublished(review.id)).toBe(false);
  });
});

describe("ReviewRunner.handToPerson", () => {
  it("sends a queued review that cannot be run to a person with the reason, audited; a settled review is left alone", async () => {
    const g = await gate();
    const stuck = await registerFixture(g, "001_readme_typo");
    await g.runner.handToPerson(stuck.id, "its review job failed 5 times");
    expect((await g.store.get(stuck.id))?.status).toBe("waiting_for_human");
    const result = await g.runner.result(stuck.id);
    expect(result.route).toBe("human");
    expect(result.escalation?.detail).toContain("its review job failed 5 times");
    const audit = await g.store.auditFor(stuck.id);
    expect(audit.map((e) => `${e.action}:${e.outcome}`)).toContain("run:handed_over");

    const done = await registerFixture(g, "001_readme_typo");
    await g.runner.run(done.id);
    const before = await g.runner.result(done.id);
    await g.runner.handToPerson(done.id, "too late");
    expect(await g.runner.result(done.id)).toEqual(before);
    expect((await g.store.auditFor(done.id)).some((e) => e.outcome === "handed_over")).toBe(false);
  });
});
