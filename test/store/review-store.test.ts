import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/database.js";
import { ReviewStore } from "../../src/store/review-store.js";
import { tempDir } from "../helpers/gate.js";

const at = new Date("2026-11-30T12:00:00Z");
/** A store on a fresh file, and the connection under it (for what only SQLite itself can show). */
const opened = () => {
  const db = openDatabase(path.join(tempDir(), "gate.db"));
  return { db, s: new ReviewStore(db, () => at) };
};
const store = () => opened().s;
const reg = (s: ReviewStore, id: string, headSha = "a".repeat(40)) =>
  s.register({
    id,
    pr: "acme/web#7",
    repo: "acme/web",
    number: 7,
    headSha,
    source: { kind: "github", owner: "acme", repo: "web", number: 7, headSha },
  });

describe("ReviewStore", () => {
  it("opens in WAL mode with a busy timeout", () => {
    const { db } = opened();
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("busy_timeout", { simple: true })).toBe(5000);
  });

  it("registers a review as queued and finds it by id and by PR", () => {
    const s = store();
    const r = reg(s, "r-1");
    expect(r).toMatchObject({ id: "r-1", status: "queued", pr: "acme/web#7", createdAt: at.toISOString() });
    expect(s.latestForPr("acme/web#7")?.id).toBe("r-1");
    expect(s.source("r-1")).toMatchObject({ kind: "github", owner: "acme" });
  });

  it("lists every review of a PR, newest first, and no other PR's", () => {
    const s = store();
    reg(s, "r-1");
    reg(s, "r-2", "b".repeat(40));
    s.register({
      id: "r-3",
      pr: "acme/web#8",
      repo: "acme/web",
      number: 8,
      headSha: "c".repeat(40),
      source: { kind: "github", owner: "acme", repo: "web", number: 8, headSha: "c".repeat(40) },
    });
    expect(s.allForPr("acme/web#7").map((r) => r.id)).toEqual(["r-2", "r-1"]);
    expect(s.allForPr("acme/web#9")).toEqual([]);
  });

  it("claim lets exactly one caller move a review out of a status", () => {
    const s = store();
    reg(s, "r-1");
    s.setStatus("r-1", "waiting_for_human");
    expect(s.claim("r-1", "waiting_for_human", "running")).toBe(true);
    expect(s.claim("r-1", "waiting_for_human", "running")).toBe(false);
    expect(s.get("r-1")?.status).toBe("running");
  });

  it("settling a review's status leaves a superseded review superseded", () => {
    const s = store();
    reg(s, "r-1");
    reg(s, "r-2");
    expect(s.setStatusUnlessSuperseded("r-1", "done")).toBe(true);
    expect(s.get("r-1")?.status).toBe("done");
    s.supersede("r-2", "b".repeat(40));
    expect(s.setStatusUnlessSuperseded("r-2", "waiting_for_human")).toBe(false);
    expect(s.get("r-2")).toMatchObject({ status: "superseded", supersededBy: "b".repeat(40) });
  });

  it("runs work in one transaction: all of its writes, or none when it throws", () => {
    const s = store();
    const kept = s.transaction(() => s.recordDelivery("d-1", "pull_request") && reg(s, "r-1"));
    expect(kept).toMatchObject({ id: "r-1" });
    expect(() =>
      s.transaction(() => {
        s.recordDelivery("d-2", "pull_request");
        reg(s, "r-2");
        throw new Error("crash before the answer");
      }),
    ).toThrow(/crash/);
    expect(s.hasDelivery("d-2")).toBe(false);
    expect(s.get("r-2")).toBeUndefined();
    expect(s.hasDelivery("d-1")).toBe(true);
  });

  it("records a delivery once; a redelivery is refused", () => {
    const s = store();
    expect(s.recordDelivery("d-1", "pull_request")).toBe(true);
    expect(s.recordDelivery("d-1", "pull_request")).toBe(false);
    expect(s.hasDelivery("d-1")).toBe(true);
    expect(s.hasDelivery("d-2")).toBe(false);
  });

  it("keeps an append-only audit log: updates and deletes are refused", () => {
    const { s, db } = opened();
    s.audit({ reviewId: "r-1", actor: "alice", action: "approve", outcome: "accepted", detail: { note: "ok" } });
    expect(s.auditFor("r-1")).toEqual([
      expect.objectContaining({ actor: "alice", action: "approve", outcome: "accepted", detail: { note: "ok" } }),
    ]);
    expect(() => db.prepare("UPDATE gate_audit SET actor = 'mallory'").run()).toThrow(/append-only/);
    expect(() => db.prepare("DELETE FROM gate_audit").run()).toThrow(/append-only/);
    expect(s.auditFor("r-1")).toHaveLength(1);
  });

  it("knows which results were not published (a crash in between)", () => {
    const s = store();
    reg(s, "r-1");
    const result = { pr: "acme/web#7", route: null, status: "running", review_id: "r-1" } as never;
    s.saveResult("r-1", result);
    expect(s.unpublished().map((r) => r.id)).toEqual(["r-1"]);
    s.recordReceipt("r-1", { checkRunId: 42 });
    expect(s.unpublished().map((r) => r.id)).toEqual(["r-1"]);
    s.markPublished("r-1", result);
    expect(s.unpublished()).toEqual([]);
    expect(s.get("r-1")?.checkRunId).toBe(42);
  });

  it("lists a PR's open reviews and supersedes one", () => {
    const s = store();
    reg(s, "r-1");
    reg(s, "r-2", "b".repeat(40));
    s.supersede("r-1", "b".repeat(40));
    expect(s.openForPr("acme/web#7").map((r) => r.id)).toEqual(["r-2"]);
    expect(s.get("r-1")).toMatchObject({ status: "superseded", supersededBy: "b".repeat(40) });
  });

  it("caches licences, telling a known-unknown (null) from a miss (undefined)", () => {
    const s = store();
    expect(s.cachedLicense("npm:x@1")).toBeUndefined();
    s.cacheLicense("npm:x@1", null);
    s.cacheLicense("npm:y@1", "MIT");
    expect(s.cachedLicense("npm:x@1")).toBeNull();
    expect(s.cachedLicense("npm:y@1")).toBe("MIT");
  });
});
