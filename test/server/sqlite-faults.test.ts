import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeError, GateError } from "../../src/domain/errors.js";
import { defined } from "../helpers/defined.js";
import * as stack from "./helpers.js";

const start = stack.stacksClosedAfterEach();
const count = async (s: stack.Stack, table: "gate_deliveries" | "gate_reviews" | "gate_jobs") => {
  const [row] = await s.server.gate.state.query(`SELECT COUNT(*) AS n FROM ${table}`);
  return z.object({ n: z.coerce.number() }).parse(row).n;
};
const sqliteOf = (s: stack.Stack): Database.Database => {
  const state = s.server.gate.state;
  if (state.kind !== "sqlite") throw new Error("a SQLite stack was expected");
  return state.db;
};

describe("SQLite faults under the webhook route", () => {
  it("SQLITE_FULL: the delivery answers 500 with nothing of it written, the error says the disk is full; once there is room, the redelivery is taken", async () => {
    const s = await start();
    const pr = stack.serveFixture(s, "001_readme_typo");
    const db = sqliteOf(s);
    // A long title: the delivery's inbox entry needs pages of its own.
    const event = stack.pullRequestEvent("opened", pr);
    const body = JSON.stringify({
      ...event,
      pull_request: { ...stack.record(event.pull_request), title: "t".repeat(100_000) },
    });
    const id = randomUUID();
    const before = { deliveries: await count(s, "gate_deliveries"), reviews: await count(s, "gate_reviews") };
    // The file may not grow: the delivery's transaction cannot be written.
    const pages = z.number().parse(db.pragma("page_count", { simple: true }));
    db.pragma(`max_page_count = ${pages}`);
    const full = await stack.postWebhook(s.base, body, { id });
    expect(full.status).toBe(500);
    expect(await count(s, "gate_deliveries")).toBe(before.deliveries);
    expect(await count(s, "gate_reviews")).toBe(before.reviews);
    // The store's own error, as the log and `describeError` show it.
    const failure = await s.server.gate.store
      .transaction(async (tx) =>
        tx.audit({ reviewId: "r-full", actor: "test", action: "note", outcome: "n".repeat(100_000), detail: {} }),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(GateError);
    expect((failure as GateError).code).toBe("DATABASE_FULL");
    expect(describeError(failure)).toMatch(/nothing of the change was written/);

    db.pragma("max_page_count = 1073741823");
    expect((await stack.postWebhook(s.base, body, { id })).status).toBe(202);
    await s.server.idle();
    const review = await stack.latestReview(s, pr);
    expect(review.status).toBe("done");
    expect(stack.checkRunsOn(s.gh, pr.headSha)).toHaveLength(1);
  });

  it("SQLITE_BUSY: another process holding the write lock past the busy timeout gets the delivery a 500, nothing written; once it lets go, the redelivery is taken", async () => {
    const s = await start();
    const pr = stack.serveFixture(s, "001_readme_typo");
    const db = sqliteOf(s);
    db.pragma("busy_timeout = 200");
    const other = new Database(defined(s.env.GATE_DB, "GATE_DB"));
    try {
      other.prepare("BEGIN IMMEDIATE").run();
      const body = JSON.stringify(stack.pullRequestEvent("opened", pr));
      const id = randomUUID();
      const busy = await stack.postWebhook(s.base, body, { id });
      expect(busy.status).toBe(500);
      const failure = await s.server.gate.store
        .transaction(async (tx) => tx.recordDelivery(randomUUID(), "pull_request"))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect((failure as GateError).code).toBe("DATABASE_BUSY");
      other.prepare("ROLLBACK").run();
      expect(await count(s, "gate_deliveries")).toBe(0);
      expect((await stack.postWebhook(s.base, body, { id })).status).toBe(202);
      await s.server.idle();
      expect((await stack.latestReview(s, pr)).status).toBe("done");
      expect(await count(s, "gate_deliveries")).toBe(1);
    } finally {
      other.close();
    }
  });
});
