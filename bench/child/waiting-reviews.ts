// `node --expose-gc --import tsx bench/child/waiting-reviews.ts N [SETTLE]`: runs N reviews that stop at
// the human gate (they stay waiting, as in a server with a backlog), then, with SETTLE, rejects that
// many of them through the CLI's door (settled, no longer waiting), and prints the process's RSS and
// heap after a full GC, as JSON on stdout. `1000 990` leaves 10 waiting after the same work as `1000`.
import { loadFixturePullRequest } from "../../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { benchGate } from "./gate-with.js";

const count = Number(process.argv[2] ?? "10");
const settle = Number(process.argv[3] ?? "0");
const FIXTURE = "002_new_dependency";
const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, FIXTURE);
const { gate } = await benchGate();
const ids: string[] = [];
for (let i = 0; i < count; i++) {
  const review = await gate.runner.register({
    source: { kind: "fixture", fixturesDir: BUNDLED_FIXTURES_DIR, name: FIXTURE },
    repo: pr.repo,
    number: 1000 + i, // a PR each, so no review supersedes another
    headSha: pr.headSha,
  });
  const route = (await gate.runner.run(review.id)).route;
  if (route !== "human") throw new Error(`expected the review to wait for a person, got ${route}`);
  ids.push(review.id);
}
for (const id of ids.slice(0, settle)) {
  const outcome = await gate.runner.decide(id, { kind: "reject", by: "bench-approver", note: "bench" });
  if (!outcome.ok) throw new Error(`could not settle ${id}: ${JSON.stringify(outcome)}`);
}
const gc = (globalThis as { gc?: () => void }).gc;
for (let i = 0; i < 3; i++) {
  gc?.();
  await new Promise((r) => setTimeout(r, 50));
}
const m = process.memoryUsage();
const waiting = count - Math.min(settle, count);
process.stdout.write(`${JSON.stringify({ count, waiting, rss: m.rss, heapUsed: m.heapUsed })}\n`);
await gate.close();
