import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { buildGate } from "../../src/build-gate.js";
import { loadSettings } from "../../src/settings/index.js";

/** A gate on the embedded defaults (SQLite file in a fresh folder, rules reviewer, no key). */
export async function benchGate(dir = mkdtempSync(path.join(tmpdir(), "gate-bench-"))) {
  const gate = await buildGate(
    loadSettings({ GATE_DB: path.join(dir, "gate.db"), GATE_DATA_DIR: dir }, dir),
    pino({ level: "silent" }),
  );
  return { gate, dir, dbPath: path.join(dir, "gate.db") };
}

/** Registers and runs one review of a fixture folder; returns its route. */
export async function reviewFixture(
  gate: Awaited<ReturnType<typeof benchGate>>["gate"],
  fixturesDir: string,
  name: string,
  pr: { repo: string; number: number; headSha: string },
): Promise<string | null> {
  const review = await gate.runner.register({ source: { kind: "fixture", fixturesDir, name }, ...pr });
  return (await gate.runner.run(review.id)).route;
}
