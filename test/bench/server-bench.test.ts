import path from "node:path";
import { describe, expect, it } from "vitest";
import { p99, serverFigures } from "../../bench/server-bench.js";
import { PACKAGE_ROOT } from "../../src/package-paths.js";

// Not a timing test: the server stage of `npm run bench` on a tiny size (a hang or a crash in the
// harness, the server or its reviews fails here instead of in a 20-minute bench run).
describe("npm run bench, server stage (tiny size)", () => {
  it("takes p99 by nearest rank: over 200 answers, not the slowest one", () => {
    const answers = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(p99(answers)).toBe(198);
    expect(p99([...answers].reverse())).toBe(198);
    // One burst of 50: the 99th percentile is the slowest answer (why a round sends several).
    expect(p99(answers.slice(0, 50))).toBe(50);
  });

  it("measures its figures, pair by pair, and stops its processes", async () => {
    const figures = await serverFigures({ concurrent: 3, bursts: 2, ackRuns: 2, reviews: 2, rateRuns: 1, warmup: 0 }, [
      "--import",
      path.join(PACKAGE_ROOT, "node_modules/tsx/dist/loader.mjs"),
      path.join(PACKAGE_ROOT, "src/main.ts"),
    ]);
    expect(figures.map((f) => f.id)).toEqual(["webhook_ack_p99", "server_review_rate", "docs_only_tarball_downloads"]);
    const [ack, rate] = figures;
    expect(ack?.a.stats.runs).toHaveLength(2);
    expect(ack?.b?.stats.runs).toHaveLength(2);
    expect(rate?.ratio?.runs).toHaveLength(1);
    for (const f of [ack, rate].filter((f) => f !== undefined)) {
      for (const v of [...f.a.stats.runs, ...(f.b?.stats.runs ?? []), ...(f.ratio?.runs ?? [])]) {
        expect(Number.isFinite(v) && v > 0).toBe(true);
      }
      expect(typeof f.met).toBe("boolean");
    }
    expect(ack?.goal).toEqual({ on: "ratio", max: 1.5 });
    // Each round's p99 is over both bursts' answers, and the figure says how many.
    expect(ack?.what).toContain("over the 6 answers of 2 bursts per round");
    expect(rate?.goal).toEqual({ on: "ratio", min: 0.8 });
    // Docs-only PRs: no review downloads a head tarball.
    expect(figures[2]?.a.stats.runs).toEqual([0]);
  }, 240_000);
});
