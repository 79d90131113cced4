import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DecideOutcome } from "../../src/domain/review.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { registerFixture, tempDir, testGate, type TestGate } from "../helpers/gate.js";
import { postgresUrl, type TestDatabase } from "../helpers/postgres.js";

const opened: TestGate[] = [];
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const g of opened.splice(0)) await g.close();
  for (const c of cleanup.splice(0)) await c();
});

/** The PR of partial-approval.test.ts: blocked by a licensing finding and a security one. */
function blockedTwiceFixtures(): string {
  const dir = tempDir("gate-fixtures-");
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency"), path.join(dir, "both"), { recursive: true });
  const files = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, name, "files.json"), "utf8")) as unknown[];
  fs.writeFileSync(
    path.join(dir, "both", "files.json"),
    JSON.stringify([...files("002_new_dependency"), ...files("004_hardcoded_aws_key")]),
  );
  return dir;
}

async function gateOn(db: TestDatabase) {
  const g = await testGate({
    GATE_DATABASE_URL: db.url,
    GATE_APPROVERS: "UGEN",
    GATE_APPROVERS_BY_SPECIALTY: "security=USEC",
  });
  opened.push(g);
  return g;
}

describe("partial approvals on PostgreSQL, from two processes' gates at once", () => {
  it("neither approval is lost nor counted twice: the review ends human_approved with both", async () => {
    const db = await postgresUrl();
    cleanup.push(() => db.drop());
    const [a, b] = [await gateOn(db), await gateOn(db)];
    const registered = await registerFixture(a, "both", blockedTwiceFixtures());
    expect((await a.runner.run(registered.id)).status).toBe("waiting_for_human");

    const cli = { door: { kind: "cli" as const } };
    const outcomes: DecideOutcome[] = await Promise.all([
      a.runner.decide(registered.id, { kind: "approve", by: "USEC" }, cli),
      b.runner.decide(registered.id, { kind: "approve", by: "UGEN" }, cli),
    ]);
    // Either both went through (one partial, one completing), or the one that planned before the
    // other's approval was stored is told to try again, and nothing of it was stored.
    for (const o of outcomes) if (!o.ok) expect(o.code).toBe("busy");
    for (const [i, o] of outcomes.entries())
      if (!o.ok) {
        const again = await [a, b][i]?.runner.decide(
          registered.id,
          { kind: "approve", by: i === 0 ? "USEC" : "UGEN" },
          cli,
        );
        expect(again?.ok).toBe(true);
      }
    const result = await b.runner.result(registered.id);
    expect(result.route).toBe("human_approved");
    expect(new Set(result.decision?.approvals?.map((x) => `${x.by}:${x.covers.join("+")}`))).toEqual(
      new Set(["USEC:security", "UGEN:licensing"]),
    );
    const audit = (await a.store.auditFor(registered.id)).map((e) => `${e.action} ${e.outcome}`);
    expect(audit.filter((e) => e === "approve partial")).toHaveLength(1);
    expect(audit.filter((e) => e === "approve applied")).toHaveLength(1);
  });
});
