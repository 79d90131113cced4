import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { registerFixture, tempDir, testGate, type TestGate } from "../helpers/gate.js";

const opened: TestGate[] = [];
const gates = {
  async open(env: Record<string, string>, dir?: string) {
    const g = await testGate(env, {}, dir);
    opened.push(g);
    return g;
  },
};
const dirs: string[] = [];
afterEach(async () => {
  for (const g of opened.splice(0)) {
    await g.close();
    dirs.push(g.dir);
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fixture folder with one PR blocked by a licensing finding (002's GPL dependency) and a security one (004's AWS key). */
function blockedTwiceFixtures(): string {
  const dir = tempDir("gate-fixtures-");
  dirs.push(dir);
  fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "002_new_dependency"), path.join(dir, "both"), { recursive: true });
  const files = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, name, "files.json"), "utf8")) as unknown[];
  const merged = [...files("002_new_dependency"), ...files("004_hardcoded_aws_key")];
  fs.writeFileSync(path.join(dir, "both", "files.json"), JSON.stringify(merged));
  return dir;
}

const ENV = { GATE_APPROVERS: "UGEN", GATE_APPROVERS_BY_SPECIALTY: "security=USEC" };

describe("partial approvals, stored through the runner (any door)", () => {
  it("two approvers of different lists deciding at once: one partial, one completing; both approvals on the decision, audited", async () => {
    const g = await gates.open(ENV);
    const fixtures = blockedTwiceFixtures();
    const registered = await registerFixture(g, "both", fixtures);
    const waiting = await g.runner.run(registered.id);
    expect(waiting.status).toBe("waiting_for_human");
    expect(new Set(waiting.findings.filter((f) => f.blocking).map((f) => f.specialty))).toEqual(
      new Set(["security", "licensing"]),
    );

    const outcomes = await Promise.all([
      g.runner.decide(registered.id, { kind: "approve", by: "USEC" }, { door: { kind: "cli" } }),
      g.runner.decide(
        registered.id,
        { kind: "approve", by: "UGEN", note: "licence bought" },
        { door: { kind: "cli" } },
      ),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    const result = await g.runner.result(registered.id);
    expect(result.route).toBe("human_approved");
    expect(result.decision?.approvals?.map((a) => [a.by, a.covers])).toEqual([
      ["USEC", ["security"]],
      ["UGEN", ["licensing"]],
    ]);
    expect(result.approvals).toEqual(result.decision?.approvals);
    const audit = (await g.store.auditFor(registered.id)).map((e) => `${e.actor} ${e.action} ${e.outcome}`);
    expect(audit.filter((e) => / approve /.test(e))).toEqual([
      "USEC approve partial",
      "UGEN approve received",
      "UGEN approve applied",
    ]);
  });

  it("a partial approval survives a restart: the second approver completes it from another process", async () => {
    const fixtures = blockedTwiceFixtures();
    const dir = tempDir();
    const first = await gates.open(ENV, dir);
    const registered = await registerFixture(first, "both", fixtures);
    await first.runner.run(registered.id);
    const partial = await first.runner.decide(
      registered.id,
      { kind: "approve", by: "USEC" },
      { door: { kind: "cli" } },
    );
    expect(partial.ok && partial.result).toMatchObject({
      status: "waiting_for_human",
      approvals_needed: [{ covers: "licensing", from: "general", ids: ["UGEN"] }],
    });
    const second = await gates.open(ENV, dir);
    expect((await second.runner.result(registered.id)).approvals?.map((a) => a.by)).toEqual(["USEC"]);
    const refused = await second.runner.decide(
      registered.id,
      { kind: "approve", by: "USEC" },
      { door: { kind: "cli" } },
    );
    expect(refused).toMatchObject({ ok: false, code: "not_allowed" });
    const done = await second.runner.decide(registered.id, { kind: "approve", by: "UGEN" }, { door: { kind: "cli" } });
    expect(done.ok && done.result.route).toBe("human_approved");
  });
});
