import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listEvalFixtures, loadExpected } from "../../src/eval/expected.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { tempDir } from "../helpers/gate.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("expected.json", () => {
  it("every bundled fixture with an expected.json parses, and they are listed by name", () => {
    const names = listEvalFixtures(BUNDLED_FIXTURES_DIR);
    expect(names.length).toBeGreaterThanOrEqual(17);
    expect(names).toEqual([...names].sort());
    expect(names).toContain("002_new_dependency");
    for (const n of names) expect(() => loadExpected(BUNDLED_FIXTURES_DIR, n)).not.toThrow();
    expect(loadExpected(BUNDLED_FIXTURES_DIR, "002_new_dependency")).toMatchObject({
      route: "human",
      must_cite: ["LIC-02"],
    });
    // must_not_cite may be absent (003b): it defaults to none.
    expect(loadExpected(BUNDLED_FIXTURES_DIR, "003b_auth_change_logs_token").must_not_cite).toEqual([]);
  });

  it("skips folders without expected.json and names the file of a bad one", () => {
    const dir = tempDir("gate-eval-expected-");
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, "a_no_expected"));
    fs.mkdirSync(path.join(dir, "b_bad"));
    fs.writeFileSync(path.join(dir, "b_bad", "expected.json"), JSON.stringify({ route: "merged" }));
    expect(listEvalFixtures(dir)).toEqual(["b_bad"]);
    expect(() => loadExpected(dir, "b_bad")).toThrow(/b_bad[/\\]expected\.json: route/);
  });
});
