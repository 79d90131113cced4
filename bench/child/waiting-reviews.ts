// `node --expose-gc --import tsx bench/child/waiting-reviews.ts N`: runs N reviews that stop at the
// human gate (they stay waiting, as in a server with a backlog), then prints the process's RSS
// and heap after a full GC, as JSON on stdout.
import { loadFixturePullRequest } from "../../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { benchGate, reviewFixture } from "./gate-with.js";

const count = Number(process.argv[2] ?? "10");
const FIXTURE = "002_new_dependency";
const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, FIXTURE);
const { gate } = await benchGate();
for (let i = 0; i < count; i++) {
  const route = await reviewFixture(gate, BUNDLED_FIXTURES_DIR, FIXTURE, {
    repo: pr.repo,
    number: 1000 + i, // a PR each, so no review supersedes another
    headSha: pr.headSha,
  });
  if (route !== "human") throw new Error(`expected the review to wait for a person, got ${route}`);
}
const gc = (globalThis as { gc?: () => void }).gc;
for (let i = 0; i < 3; i++) {
  gc?.();
  await new Promise((r) => setTimeout(r, 50));
}
const m = process.memoryUsage();
process.stdout.write(`${JSON.stringify({ count, rss: m.rss, heapUsed: m.heapUsed })}\n`);
await gate.close();
