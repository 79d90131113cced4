import fs from "node:fs";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { GzipPullRequestStore } from "../../src/store/pull-request-store.js";
import { buildPr } from "../detectors/pr-builder.js";
import { reviewFixture, sqliteDb, testGate, type TestGate } from "../helpers/gate.js";

let gates: Array<TestGate> = [];
afterEach(async () => {
  for (const g of gates) {
    await g.close();
    fs.rmSync(g.dir, { recursive: true, force: true });
  }
  gates = [];
});

async function gate() {
  const g = await testGate();
  gates.push(g);
  return g;
}

/** Checkpoint and pending-write rows of one review's thread, and how many of them hold `text`. */
function checkpointRows(g: TestGate, threadId: string, text: string) {
  const count = (sql: string, ...args: unknown[]) =>
    (
      sqliteDb(g)
        .prepare(sql)
        .get(...args) as { n: number }
    ).n;
  return {
    checkpoints: count(`SELECT count(*) AS n FROM checkpoints WHERE thread_id = ?`, threadId),
    holding:
      count(
        `SELECT count(*) AS n FROM checkpoints WHERE thread_id = ? AND instr(CAST(checkpoint AS TEXT), ?) > 0`,
        threadId,
        text,
      ) +
      count(
        `SELECT count(*) AS n FROM writes WHERE thread_id = ? AND instr(CAST(value AS TEXT), ?) > 0`,
        threadId,
        text,
      ),
  };
}

// A line of fixture 002's diff: it must be stored once, never in the checkpoints.
const PATCH_LINE = 'import { LineChart } from \\"gpl-chart-lib\\"';
const PATCH_TEXT = 'import { LineChart } from "gpl-chart-lib"';

describe("the pull request is stored once per review", () => {
  it("keeps a waiting review's diff in one row, and none of it in any checkpoint", async () => {
    const g = await gate();
    const result = await reviewFixture(g, "002_new_dependency");
    expect(result.status).toBe("waiting_for_human");
    const escaped = checkpointRows(g, result.review_id, PATCH_LINE);
    expect(escaped.checkpoints).toBeGreaterThan(3);
    expect(escaped.holding + checkpointRows(g, result.review_id, PATCH_TEXT).holding).toBe(0);
    const stored = await g.pullRequests.get(result.review_id);
    expect(stored?.files.map((f) => f.patch).join("\n")).toContain(PATCH_TEXT);
  });

  it("prunes a settled review to its newest checkpoint and keeps its diff once (what-if replays it); status still shows everything", async () => {
    const g = await gate();
    const result = await reviewFixture(g, "003_auth_change");
    expect(result.route).toBe("approved");
    expect(checkpointRows(g, result.review_id, "x").checkpoints).toBe(1);
    expect(
      sqliteDb(g).prepare(`SELECT count(*) AS n FROM gate_pull_requests WHERE review_id = ?`).get(result.review_id),
    ).toEqual({ n: 1 });
    expect((await g.pullRequests.get(result.review_id))?.number).toBe(214);
    const status = await g.runner.status(result.review_id);
    expect(status?.route).toBe("approved");
    expect(status?.findings).toEqual(result.findings);
    expect(status?.investigations).toHaveLength(result.investigations.length);
  });
});

describe("GzipPullRequestStore", () => {
  /** Rows kept in a map: what either database keeps, without one. */
  function mapRows() {
    const rows = new Map<string, Buffer>();
    return {
      rows,
      put: async (id: string, gz: Buffer) => void rows.set(id, gz),
      get: async (id: string) => rows.get(id),
      delete: async (id: string) => void rows.delete(id),
    };
  }

  it("reads back, from another store, a PR of thousands of files written a few at a time, and one of none", async () => {
    const rows = mapRows();
    const files = Array.from({ length: 2_500 }, (_, i) => ({
      filename: `src/module-${i}/file "${i}".ts`,
      status: "added" as const,
      additions: 2,
      deletions: 0,
      changes: 2,
      patch: `@@ -0,0 +1,2 @@\n+export const v${i} = "${"é".repeat(i % 7)}";\n+// ${"x".repeat(i % 300)}`,
    }));
    const pr = buildPr({ files });
    await new GzipPullRequestStore(rows).put("r-big", pr);
    const empty = buildPr({ files: [] });
    await new GzipPullRequestStore(rows).put("r-empty", empty);
    // A store that never saw them reads the rows: the gzipped JSON, not a cached object.
    const reader = new GzipPullRequestStore(rows);
    expect(await reader.get("r-big")).toEqual(pr);
    expect(await reader.get("r-empty")).toEqual(empty);
    expect(JSON.parse(gunzipSync(rows.rows.get("r-big") as Buffer).toString("utf8"))).toEqual(pr);
  });
});
