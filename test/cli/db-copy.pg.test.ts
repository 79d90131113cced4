import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defined } from "../helpers/defined.js";
import { reviewFixture, testGate, type TestGate } from "../helpers/gate.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";
import { runGateCli } from "../helpers/run-cli.js";

const gates: TestGate[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

async function open(env: Record<string, string>, dir?: string): Promise<TestGate> {
  const g = await testGate(env, {}, dir);
  gates.push(g);
  return g;
}

describe("gate db copy --to postgres://…", () => {
  it("moves a SQLite installation, a review waiting for a person included, and refuses a database that is not empty", async () => {
    const target = await postgresUrl();
    databases.push(target);
    const old = await open({});
    const waiting = await reviewFixture(old, "002_new_dependency");
    expect(waiting.status).toBe("waiting_for_human");
    const approved = await reviewFixture(old, "001_readme_typo");
    expect(approved.route).toBe("auto_approved");
    await old.store.recordDelivery("d-1", "pull_request");
    await old.store.recordPerson("U1", "Dana");
    await old.store.audit({ reviewId: waiting.review_id, actor: "alice", action: "info", outcome: "refused" });
    const oldAudit = await old.store.auditFor(waiting.review_id);
    await old.close();
    gates.splice(0);

    const env = {
      ...process.env,
      GATE_DB: path.join(old.dir, "gate.db"),
      GATE_DATA_DIR: old.dir,
      GATE_LOG_LEVEL: "silent",
    };
    const copied = await runGateCli(["db", "copy", "--to", target.url], { env, cwd: old.dir });
    expect(copied.stderr).toBe("");
    expect(copied.code).toBe(0);
    expect(copied.stdout).toMatch(/gate_reviews 2, gate_deliveries 1, gate_audit \d+/);

    const moved = await open({ GATE_DATABASE_URL: target.url });
    expect(moved.state.kind).toBe("postgres");
    expect(await moved.store.hasDelivery("d-1")).toBe(true);
    expect(await moved.store.personName("U1")).toBe("Dana");
    expect(await moved.store.auditFor(waiting.review_id)).toEqual(oldAudit);
    expect((await moved.runner.status(approved.review_id))?.route).toBe("auto_approved");
    // New audit entries follow the copied ones.
    await moved.store.audit({ reviewId: "r-x", actor: "a", action: "b", outcome: "c" });
    expect(defined((await moved.store.auditFor("r-x"))[0]).seq).toBeGreaterThan(defined(oldAudit.at(-1)).seq);

    const outcome = await moved.runner.decide(waiting.review_id, { kind: "approve", by: "alice", note: "legal ok" });
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.result.route).toBe("human_approved");

    const again = await runGateCli(["db", "copy", "--to", target.url], { env, cwd: old.dir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds reviews.*copy into an empty database/);
  }, 120_000);
});
