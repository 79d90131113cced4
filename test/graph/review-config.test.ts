import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { configOf } from "../../src/graph/deps.js";
import { reviewFixture, sqliteDb, tempDir, testGate, type TestGate } from "../helpers/gate.js";

const dir = tempDir("gate-config-ref-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The checkpoint rows a review's thread has, as JSON text. */
function checkpointsOf(gate: TestGate, reviewId: string): string[] {
  return (
    sqliteDb(gate).prepare("SELECT checkpoint FROM checkpoints WHERE thread_id = ?").all(reviewId) as Array<{
      checkpoint: Buffer | string;
    }>
  ).map((r) => r.checkpoint.toString());
}

describe("a review's configuration is kept once, by digest", () => {
  it("settled reviews' checkpoints name it by digest, share one stored copy, and still serve the configuration and status", async () => {
    const gate = await testGate({}, {}, tempDir("gate-config-ref-a-"));
    try {
      const a = await reviewFixture(gate, "001_readme_typo");
      const b = await reviewFixture(gate, "001_readme_typo");
      expect([a.route, b.route]).toEqual(["auto_approved", "auto_approved"]);
      for (const id of [a.review_id, b.review_id]) {
        const [only, ...more] = checkpointsOf(gate, id);
        expect(more).toEqual([]);
        const values = (JSON.parse(only ?? "{}") as { channel_values: Record<string, unknown> }).channel_values;
        expect(values.configRef).toMatch(/^[0-9a-f]{64}$/);
        expect(values.config ?? null).toBeNull();
        expect(only).not.toContain("own_packages");
        expect(await gate.reviewConfig(id)).toEqual(gate.config);
        expect((await gate.runner.status(id))?.route).toBe("auto_approved");
      }
      expect(sqliteDb(gate).prepare("SELECT count(*) AS n FROM gate_configs").get()).toEqual({ n: 1 });
    } finally {
      await gate.close();
    }
  });

  it("a review waiting for a person is decided by another process's gate, which reads the configuration from the store", async () => {
    const shared = tempDir("gate-config-ref-b-");
    const file = path.join(dir, "approvers.yml");
    fs.writeFileSync(file, "version: 1\napprovers:\n  any: [ULEGAL]\n");
    const first = await testGate({ GATE_CONFIG: file }, {}, shared);
    const waiting = await reviewFixture(first, "002_new_dependency");
    await first.close();
    expect(waiting.status).toBe("waiting_for_human");

    const second = await testGate({ GATE_CONFIG: file }, {}, shared);
    try {
      // The review's configuration names its approvers: someone else is refused, ULEGAL decides.
      const refused = await second.runner.decide(waiting.review_id, { kind: "approve", by: "mallory" });
      expect(refused.ok).toBe(false);
      const decided = await second.runner.decide(waiting.review_id, { kind: "approve", by: "ULEGAL" });
      expect(decided.ok && decided.result.route).toBe("human_approved");
      expect((await second.reviewConfig(waiting.review_id))?.approvers.any).toEqual(["ULEGAL"]);
    } finally {
      await second.close();
    }
  });

  it("a configuration the store lost is an error naming it, never the server-wide default", async () => {
    const shared = tempDir("gate-config-ref-c-");
    const first = await testGate({}, {}, shared);
    const done = await reviewFixture(first, "001_readme_typo");
    sqliteDb(first).prepare("DELETE FROM gate_configs").run();
    await first.close();
    const second = await testGate({}, {}, shared);
    try {
      const error = await second.reviewConfig(done.review_id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GateError);
      expect((error as GateError).code).toBe("REVIEW_CONFIG_MISSING");
    } finally {
      await second.close();
    }
  });

  it("reviews checkpointed before digests keep the configuration they hold; older ones get the server's", async () => {
    const gate = await testGate({}, {}, tempDir("gate-config-ref-d-"));
    try {
      const held = { ...gate.config, risk: { ...gate.config.risk, threshold: 3 } };
      const deps = { server: { file: gate.configFile, config: gate.config }, configs: gate.configs };
      expect((await configOf(deps, { config: held })).risk.threshold).toBe(3);
      expect(await configOf(deps, { config: null, configRef: null })).toBe(gate.config);
    } finally {
      await gate.close();
    }
  });
});
