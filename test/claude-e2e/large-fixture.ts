import fs from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers/gate.js";

function addedPatch(lines: string[]): string {
  return `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`;
}

/** A file of `n` added lines of about 70 characters, each line naming its row (`row<tag>_<i>`). */
function bigFile(filename: string, tag: string, n: number) {
  const patch = addedPatch(Array.from({ length: n }, (_, i) => `export const row${tag}_${i} = "${"v".repeat(40)}";`));
  return { filename, status: "added", additions: n, deletions: 0, changes: n, patch };
}

/**
 * A fixture folder (docs/fixtures.md) with one small code file that runs a query (so the security
 * reviewer weighs SEC-02) and two large ones (about 5,000 estimated tokens each), in a temp directory.
 *
 * @example const f = writeLargeFixture(); await reviewFixture(gate, f.name, f.fixturesDir); f.remove();
 */
export function writeLargeFixture() {
  const fixturesDir = tempDir("gate-large-fixture-");
  const name = "900_large_change";
  const dir = path.join(fixturesDir, name);
  fs.mkdirSync(dir);
  const sha = (c: string) => c.repeat(40);
  fs.writeFileSync(
    path.join(dir, "pr.json"),
    JSON.stringify({
      number: 900,
      title: "Generate the quarterly reports",
      body: "Adds the report builders.",
      user: { login: "octocat" },
      draft: false,
      labels: [],
      base: { ref: "main", sha: sha("a"), repo: { full_name: "acme/reports" } },
      head: { ref: "reports", sha: sha("b") },
    }),
  );
  fs.writeFileSync(
    path.join(dir, "files.json"),
    JSON.stringify([
      {
        ...bigFile("src/reports/build-a.ts", "A", 2),
        patch: addedPatch(["export const rowA_0 = 1;", 'export const load = () => db.query("select * from reports");']),
      },
      bigFile("src/reports/build-b.ts", "B", 300),
      bigFile("src/reports/build-c.ts", "C", 300),
    ]),
  );
  return { fixturesDir, name, remove: () => fs.rmSync(fixturesDir, { recursive: true, force: true }) };
}
