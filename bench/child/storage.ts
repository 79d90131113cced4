// `node --import tsx bench/child/storage.ts`: bytes the process writes (wchar, /proc/self/io) during
// one review of a large diff, against the diff's size; and the database growth that one settled
// docs-only review leaves behind. Prints JSON on stdout.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { writeSyntheticFixture } from "../synthetic.js";
import { benchGate, reviewFixture } from "./gate-with.js";

function written(): number {
  const io = readFileSync("/proc/self/io", "utf8");
  return Number(/^wchar:\s*(\d+)/m.exec(io)?.[1] ?? Number.NaN);
}

function compactSize(dbPath: string): number {
  const db = new Database(dbPath);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.exec("VACUUM");
  db.close();
  return statSync(dbPath).size;
}

const fixtures = mkdtempSync(path.join(tmpdir(), "gate-bench-fixtures-"));
const diffBytes = writeSyntheticFixture(fixtures, "large", { files: 200, linesPerFile: 1_000, number: 1 });
const DOCS = 20;
for (let i = 0; i < DOCS; i++)
  writeSyntheticFixture(fixtures, `docs-${i}`, { files: 2, linesPerFile: 20, number: 100 + i, docs: true });

const { gate, dbPath } = await benchGate();
const repo = "bench/service";
// Warm up the schema and the graph with one docs review, so the figures below count reviews only.
await reviewFixture(gate, fixtures, "docs-0", { repo, number: 100, headSha: `${"00000100"}${"a".repeat(32)}` });

const before = written();
const route = await reviewFixture(gate, fixtures, "large", {
  repo,
  number: 1,
  headSha: `${"00000001"}${"a".repeat(32)}`,
});
const reviewWrote = written() - before;

await gate.close();
const base = compactSize(dbPath);
const { gate: again } = await benchGate(path.dirname(dbPath));
for (let i = 1; i < DOCS; i++) {
  await reviewFixture(again, fixtures, `docs-${i}`, {
    repo,
    number: 100 + i,
    headSha: `${String(100 + i).padStart(8, "0")}${"a".repeat(32)}`,
  });
}
await again.close();
const perDocsReview = (compactSize(dbPath) - base) / (DOCS - 1);
process.stdout.write(`${JSON.stringify({ route, diffBytes, reviewWrote, perDocsReview })}\n`);
