import { markDecisionApplied, receiveDecision } from "../../src/review/decision-record.js";
import { describe, expect, it } from "vitest";
import type { InboxEntry, ReviewStore } from "../../src/domain/review-store.js";

/** The time every store under contract is pinned to. */
export const at = new Date("2026-11-30T12:00:00Z");

/**
 * Opens a fresh, empty store on the clock `() => at`, with a way to run one raw SQL statement
 * on its database (for what only the database itself can show, the append-only audit log).
 */
export type OpenStore = () => Promise<{ store: ReviewStore; exec: (sql: string) => Promise<unknown> }>;

export const reg = (s: ReviewStore, id: string, headSha = "a".repeat(40)) =>
  s.register({
    id,
    pr: "acme/web#7",
    repo: "acme/web",
    number: 7,
    headSha,
    source: { kind: "github", owner: "acme", repo: "web", number: 7, headSha },
  });

/** What every `ReviewStore` must do, whatever database holds it: run on SQLite and on PostgreSQL. */
export function reviewStoreContract(name: string, open: OpenStore): void {
  describe(`ReviewStore on ${name}`, () => {
    it("registers a review as queued and finds it by id and by PR", async () => {
      const { store: s } = await open();
      const r = await reg(s, "r-1");
      expect(r).toMatchObject({ id: "r-1", status: "queued", pr: "acme/web#7", createdAt: at.toISOString() });
      expect((await s.latestForPr("acme/web#7"))?.id).toBe("r-1");
      expect(await s.source("r-1")).toMatchObject({ kind: "github", owner: "acme" });
    });

    it("lists every review of a PR, newest first, and no other PR's", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      await reg(s, "r-2", "b".repeat(40));
      await s.register({
        id: "r-3",
        pr: "acme/web#8",
        repo: "acme/web",
        number: 8,
        headSha: "c".repeat(40),
        source: { kind: "github", owner: "acme", repo: "web", number: 8, headSha: "c".repeat(40) },
      });
      expect((await s.allForPr("acme/web#7")).map((r) => r.id)).toEqual(["r-2", "r-1"]);
      expect(await s.allForPr("acme/web#9")).toEqual([]);
    });

    it("records each change once and lists them page by page, by time then key, each with its review", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      await s.setStatus("r-1", "done");
      const change = (n: number, mergedAt: string, repo = "acme/web") => ({
        kind: "merge" as const,
        repo,
        pr: `${repo}#${n}`,
        author: "dev",
        mergedBy: "octo",
        mergedAt,
        passed: n === 7,
        ...(n === 7 ? { reviewId: "r-1" } : {}),
      });
      // Keys that sort differently bytewise and by a locale: "acme/web#10" < "acme/web#7" < "acme/web-x#1".
      const same = "2026-03-02T10:00:00Z";
      for (const c of [
        change(7, same),
        change(10, same),
        change(1, same, "acme/web-x"),
        change(3, "2026-03-01T09:00:00Z"),
      ])
        expect(await s.recordChange(c)).toBe(true);
      // A redelivery records nothing.
      expect(await s.recordChange(change(7, "2026-03-05T00:00:00Z"))).toBe(false);
      const keys: string[] = [];
      let after: { mergedAt: string; key: string } | undefined;
      for (;;) {
        const page = await s.changesPage({}, after, 2);
        keys.push(...page.map((c) => c.key));
        const last = page.at(-1);
        if (!last || page.length < 2) break;
        after = { mergedAt: last.mergedAt, key: last.key };
      }
      expect(keys).toEqual(["acme/web#3", "acme/web#10", "acme/web#7", "acme/web-x#1"]);
      const [seven] = await s.changesPage(
        { repo: "acme/web", since: "2026-03-02T10:00:00.000Z" },
        { mergedAt: "2026-03-02T10:00:00.000Z", key: "acme/web#10" },
        5,
      );
      expect(seven).toMatchObject({
        key: "acme/web#7",
        mergedAt: "2026-03-02T10:00:00.000Z",
        reviewId: "r-1",
        passed: true,
        review: { status: "done" },
      });
      expect(await s.changesPage({ until: "2026-03-02T00:00:00.000Z" }, undefined, 5)).toMatchObject([
        { key: "acme/web#3", passed: false },
      ]);
    });

    it("claim lets exactly one caller move a review out of a status", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      await s.setStatus("r-1", "waiting_for_human");
      expect(await s.claim("r-1", "waiting_for_human", "running")).toBe(true);
      expect(await s.claim("r-1", "waiting_for_human", "running")).toBe(false);
      expect((await s.get("r-1"))?.status).toBe("running");
    });

    it("settling a review's status leaves a superseded review superseded", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      await reg(s, "r-2");
      expect(await s.setStatusUnlessSuperseded("r-1", "done")).toBe(true);
      expect((await s.get("r-1"))?.status).toBe("done");
      await s.supersede("r-2", "b".repeat(40));
      expect(await s.setStatusUnlessSuperseded("r-2", "waiting_for_human")).toBe(false);
      expect(await s.get("r-2")).toMatchObject({ status: "superseded", supersededBy: "b".repeat(40) });
    });

    it("runs work in one transaction: all of its writes, or none when it throws", async () => {
      const { store: s } = await open();
      const kept = await s.transaction(
        async (tx) => (await tx.recordDelivery("d-1", "pull_request")) && reg(tx, "r-1"),
      );
      expect(kept).toMatchObject({ id: "r-1" });
      await expect(
        s.transaction(async (tx) => {
          await tx.recordDelivery("d-2", "pull_request");
          await reg(tx, "r-2");
          throw new Error("crash before the answer");
        }),
      ).rejects.toThrow(/crash/);
      expect(await s.hasDelivery("d-2")).toBe(false);
      expect(await s.get("r-2")).toBeUndefined();
      expect(await s.hasDelivery("d-1")).toBe(true);
    });

    it("keeps other callers out of an open transaction: a rolled-back transaction takes none of their writes", async () => {
      const { store: s } = await open();
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const failed = s.transaction(async (tx) => {
        await tx.recordDelivery("d-1", "pull_request");
        await held;
        throw new Error("crash");
      });
      // Another caller (another request) writes while the transaction is open: it waits for the end.
      const outside = s.recordDelivery("d-2", "pull_request");
      release();
      await expect(failed).rejects.toThrow(/crash/);
      expect(await outside).toBe(true);
      expect(await s.hasDelivery("d-1")).toBe(false);
      expect(await s.hasDelivery("d-2")).toBe(true);
    });

    it("records a delivery once; a redelivery is refused", async () => {
      const { store: s } = await open();
      expect(await s.recordDelivery("d-1", "pull_request")).toBe(true);
      expect(await s.recordDelivery("d-1", "pull_request")).toBe(false);
      expect(await s.hasDelivery("d-1")).toBe(true);
      expect(await s.hasDelivery("d-2")).toBe(false);
    });

    it("keeps a delivery's entry until it is taken, once, oldest first; a redelivery adds none; a rolled-back one leaves none", async () => {
      const { store: s } = await open();
      const entry = (number: number): InboxEntry => ({
        review: {
          source: { kind: "github", owner: "acme", repo: "web", number, headSha: "b".repeat(40) },
          repo: "acme/web",
          number,
          headSha: "b".repeat(40),
          eventAt: "2026-11-30T11:59:00Z",
        },
        baseChanged: number === 9,
      });
      expect(await s.recordDelivery("d-1", "pull_request", entry(8))).toBe(true);
      expect(await s.recordDelivery("d-2", "pull_request", entry(9))).toBe(true);
      expect(await s.recordDelivery("d-1", "pull_request", entry(10))).toBe(false);
      await expect(
        s.transaction(async (tx) => {
          await tx.recordDelivery("d-3", "pull_request", entry(11));
          throw new Error("crash");
        }),
      ).rejects.toThrow(/crash/);
      expect(await s.hasDelivery("d-3")).toBe(false);
      expect(await s.inboxDeliveries()).toEqual(["d-1", "d-2"]);
      // Read without taking (a push's, before GitHub is asked about its commits): still there after.
      expect(await s.peekInbox("d-2")).toEqual(entry(9));
      expect(await s.peekInbox("d-9")).toBeUndefined();
      expect(await s.takeFromInbox("d-2")).toEqual(entry(9));
      expect(await s.peekInbox("d-2")).toBeUndefined();
      expect(await s.takeFromInbox("d-2")).toBeUndefined();
      expect(await s.inboxDeliveries()).toEqual(["d-1"]);
      // Taken inside a transaction that fails: the entry is still in the inbox.
      await expect(
        s.transaction(async (tx) => {
          expect(await tx.takeFromInbox("d-1")).toEqual(entry(8));
          throw new Error("crash");
        }),
      ).rejects.toThrow(/crash/);
      expect(await s.inboxDeliveries()).toEqual(["d-1"]);
    });

    it("keeps an append-only audit log: updates and deletes are refused", async () => {
      const { store: s, exec } = await open();
      await s.audit({
        reviewId: "r-1",
        actor: "alice",
        action: "approve",
        outcome: "accepted",
        detail: { note: "ok" },
      });
      expect(await s.auditFor("r-1")).toEqual([
        expect.objectContaining({ actor: "alice", action: "approve", outcome: "accepted", detail: { note: "ok" } }),
      ]);
      await expect(exec("UPDATE gate_audit SET actor = 'mallory'")).rejects.toThrow(/append-only/);
      await expect(exec("DELETE FROM gate_audit")).rejects.toThrow(/append-only/);
      expect(await s.auditFor("r-1")).toHaveLength(1);
    });

    it("names the reviews in a status whose audit log holds an action, and no others", async () => {
      const { store: s } = await open();
      for (const id of ["r-1", "r-2", "r-3"]) await reg(s, id, id.repeat(14).slice(0, 40));
      await s.setStatus("r-1", "waiting_for_human");
      await s.setStatus("r-2", "waiting_for_human");
      await s.setStatus("r-3", "done");
      const entry = (reviewId: string, action: string) =>
        s.audit({ reviewId, actor: "octocat", action, outcome: "granted", detail: {} });
      await entry("r-1", "emergency");
      await entry("r-1", "emergency");
      await entry("r-2", "approve");
      await entry("r-3", "emergency");
      expect([...(await s.auditedWithStatus("emergency", "waiting_for_human"))]).toEqual(["r-1"]);
      expect([...(await s.auditedWithStatus("emergency", "waiting_for_human", "done"))].sort()).toEqual(["r-1", "r-3"]);
      expect((await s.auditedWithStatus("emergency", "merged_unapproved")).size).toBe(0);
      expect((await s.auditedWithStatus("emergency")).size).toBe(0);
    });
    it("knows which results were not published (a crash in between)", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      const result = { pr: "acme/web#7", route: null, status: "running", review_id: "r-1" } as never;
      await s.saveResult("r-1", result);
      expect((await s.unpublished()).map((r) => r.id)).toEqual(["r-1"]);
      await s.recordReceipt("r-1", { checkRunId: 42 });
      expect((await s.unpublished()).map((r) => r.id)).toEqual(["r-1"]);
      await s.markPublished("r-1", result);
      expect(await s.unpublished()).toEqual([]);
      expect((await s.get("r-1"))?.checkRunId).toBe(42);
    });

    it("a stale result published after the saved one leaves the saved one unpublished (published again)", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      const running = { pr: "acme/web#7", route: null, status: "running", review_id: "r-1" } as never;
      const done = { pr: "acme/web#7", route: "approved", status: "done", review_id: "r-1" } as never;
      await s.saveResult("r-1", done);
      await s.markPublished("r-1", done);
      expect(await s.unpublished()).toEqual([]);
      // A publish that read "running" before "done" was saved lands last: "done" must be shown again.
      await s.markPublished("r-1", running);
      expect((await s.unpublished()).map((r) => r.id)).toEqual(["r-1"]);
      // Saving the same result again keeps what is known of it; publishing it settles it.
      await s.saveResult("r-1", done);
      expect((await s.unpublished()).map((r) => r.id)).toEqual(["r-1"]);
      await s.markPublished("r-1", done);
      expect(await s.unpublished()).toEqual([]);
    });

    it("a queued or running result saved after the review settled (a late announcement) is refused; the verdict stays", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      const queued = { pr: "acme/web#7", route: null, status: "queued", review_id: "r-1" } as never;
      const running = { pr: "acme/web#7", route: null, status: "running", review_id: "r-1" } as never;
      const done = { pr: "acme/web#7", route: "approved", status: "done", review_id: "r-1" } as never;
      // While the review is queued or running, its announcements are saved.
      expect(await s.saveResult("r-1", queued)).toBe(true);
      expect(await s.claim("r-1", "queued", "running")).toBe(true);
      expect(await s.saveResult("r-1", running)).toBe(true);
      // Another replica settles it and publishes its verdict.
      expect(await s.setStatusUnlessSuperseded("r-1", "done")).toBe(true);
      expect(await s.saveResult("r-1", done)).toBe(true);
      await s.markPublished("r-1", done);
      // The first replica's announcement arrives late: nothing changes, nothing is to publish again.
      expect(await s.saveResult("r-1", queued)).toBe(false);
      expect(await s.saveResult("r-1", running)).toBe(false);
      expect(await s.lastResult("r-1")).toMatchObject({ status: "done", route: "approved" });
      expect(await s.unpublished()).toEqual([]);
      // Nor is a settled review claimed to run again from the status read before it settled.
      expect(await s.claim("r-1", "queued", "running")).toBe(false);
      expect((await s.get("r-1"))?.status).toBe("done");
    });

    it("settling a status marks the saved result unpublished: a process that stops before saving the verdict leaves work found", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      const running = { pr: "acme/web#7", route: null, status: "running", review_id: "r-1" } as never;
      expect(await s.claim("r-1", "queued", "running")).toBe(true);
      expect(await s.saveResult("r-1", running)).toBe(true);
      await s.markPublished("r-1", running);
      expect(await s.unpublished()).toEqual([]);
      // Settled; the verdict never saved (the connection was lost, the process died).
      expect(await s.setStatusUnlessSuperseded("r-1", "done")).toBe(true);
      expect((await s.unpublished()).map((r) => r.id)).toEqual(["r-1"]);
      expect((await s.unpublished("r-1")).map((r) => r.id)).toEqual(["r-1"]);
    });

    it("lists one review's unpublished result on its own: only that review, only while it is unpublished", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      await reg(s, "r-2");
      await reg(s, "r-3");
      const result = (id: string, route: string | null = null) =>
        ({ pr: "acme/web#7", route, status: "done", review_id: id }) as never;
      await s.saveResult("r-1", result("r-1"));
      await s.saveResult("r-2", result("r-2"));
      await s.markPublished("r-2", result("r-2"));
      expect((await s.unpublished("r-1")).map((r) => r.id)).toEqual(["r-1"]);
      // Published, never saved, unknown: none of them is listed.
      expect(await s.unpublished("r-2")).toEqual([]);
      expect(await s.unpublished("r-3")).toEqual([]);
      expect(await s.unpublished("r-9")).toEqual([]);
      // A newer result than the one published is unpublished again.
      await s.saveResult("r-2", result("r-2", "auto_approved"));
      expect((await s.unpublished("r-2")).map((r) => r.id)).toEqual(["r-2"]);
      expect((await s.unpublished()).map((r) => r.id)).toEqual(["r-1", "r-2"]);
    });

    it("lists one review's decisions received and not applied, and no other review's", async () => {
      const { store: s } = await open();
      for (const id of ["r-1", "r-2", "r-3"]) {
        await reg(s, id);
        await s.setStatus(id, "waiting_for_human");
      }
      const alice = { kind: "approve" as const, by: "alice" };
      const bob = { kind: "reject" as const, by: "bob", note: "no" };
      expect(await receiveDecision(s, "r-1", alice, "slack")).toBe(true);
      expect(await receiveDecision(s, "r-2", bob, "cli")).toBe(true);
      expect(await s.pendingDecisions("r-1")).toEqual([{ reviewId: "r-1", resume: alice, door: "slack" }]);
      expect(await s.pendingDecisions("r-2")).toEqual([{ reviewId: "r-2", resume: bob, door: "cli" }]);
      expect(await s.pendingDecisions("r-3")).toEqual([]);
      await markDecisionApplied(s, "r-1", alice, "human_approved");
      expect(await s.pendingDecisions("r-1")).toEqual([]);
      expect((await s.pendingDecisions()).map((d) => d.reviewId)).toEqual(["r-2"]);
    });

    it("lists a PR's open reviews and supersedes one", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      await reg(s, "r-2", "b".repeat(40));
      await s.supersede("r-1", "b".repeat(40));
      expect((await s.openForPr("acme/web#7")).map((r) => r.id)).toEqual(["r-2"]);
      expect(await s.get("r-1")).toMatchObject({ status: "superseded", supersededBy: "b".repeat(40) });
    });

    it("keeps a configuration once per digest; a second keep changes nothing", async () => {
      const { store: s } = await open();
      expect(await s.configJson("d1")).toBeUndefined();
      await s.keepConfig("d1", '{"a":1}');
      await s.keepConfig("d1", '{"a":2}');
      expect(await s.configJson("d1")).toBe('{"a":1}');
    });

    it("auditors: added once by name, found by token hash and name, stamped when used, revoked once; listed without hashes", async () => {
      const { store } = await open();
      expect(await store.addAuditor("kim", "h1")).toBe(true);
      expect(await store.addAuditor("kim", "h2")).toBe(false);
      expect(await store.addAuditor("lee", "h1")).toBe(false);
      expect(await store.auditorByTokenHash("h1")).toMatchObject({ name: "kim", tokenHash: "h1", lastUsedAt: null });
      expect(await store.auditorByTokenHash("h2")).toBeUndefined();
      await store.auditorUsed("kim");
      expect((await store.auditorByName("kim"))?.lastUsedAt).toEqual(expect.any(String));
      expect(await store.revokeAuditor("kim")).toBe(true);
      expect(await store.revokeAuditor("kim")).toBe(false);
      expect(await store.revokeAuditor("nobody")).toBe(false);
      const listed = await store.auditors();
      expect(listed).toEqual([
        { name: "kim", createdAt: expect.any(String), lastUsedAt: expect.any(String), revokedAt: expect.any(String) },
      ]);
    });

    it("Slack memory: a thread note is claimed once, a person's newest name wins, a post intent keeps its first time", async () => {
      const { store: s } = await open();
      await reg(s, "r-1");
      expect(await s.claimSlackNote("ask:acme/web#7:a", "r-1")).toBe(true);
      expect(await s.claimSlackNote("ask:acme/web#7:a", "r-1")).toBe(false);
      expect(await s.personName("U1")).toBeUndefined();
      await s.recordPerson("U1", "Alice");
      await s.recordPerson("U1", "Alice Liddell");
      expect(await s.personName("U1")).toBe("Alice Liddell");
      await s.recordSlackPostIntent("r-1", "2026-11-30T12:00:01.000Z");
      await s.recordSlackPostIntent("r-1", "2026-11-30T12:00:02.000Z");
      expect((await s.get("r-1"))?.slackPostStartedAt).toBe("2026-11-30T12:00:01.000Z");
    });

    it("decision log: a stored decision is pending until marked applied, once", async () => {
      const { store: s } = await open();
      const alice = { kind: "approve" as const, by: "alice" };
      await s.storeDecision("r-1", alice, "slack");
      expect(await s.pendingDecisions()).toEqual([{ reviewId: "r-1", resume: alice, door: "slack" }]);
      expect(await s.markApplied("r-1")).toBe(true);
      expect(await s.markApplied("r-1")).toBe(false);
      expect(await s.pendingDecisions()).toEqual([]);
      // The store appends no audit entry of its own: what the log says is the decision code's.
      expect(await s.auditFor("r-1")).toEqual([]);
    });

    it("caches licences, telling a known-unknown (null) from a miss (undefined)", async () => {
      const { store: s } = await open();
      expect(await s.cachedLicense("npm:x@1")).toBeUndefined();
      await s.cacheLicense("npm:x@1", null);
      await s.cacheLicense("npm:y@1", "MIT");
      expect(await s.cachedLicense("npm:x@1")).toBeNull();
      expect(await s.cachedLicense("npm:y@1")).toBe("MIT");
    });
  });
}
