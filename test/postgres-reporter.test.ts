import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { PACKAGE_ROOT } from "../src/package-paths.js";
import { postgresSummary } from "./postgres-reporter.js";

const run = promisify(execFile);

describe("the line saying the PostgreSQL suite ran", () => {
  it("counts the suite's tests by outcome, and only the suite's", () => {
    expect(
      postgresSummary(
        [
          { file: "/r/test/store/a.pg.test.ts", states: ["passed", "passed", "failed"] },
          { file: "/r/test/store/b.pg.test.ts", states: ["skipped"] },
          { file: "/r/test/store/c.test.ts", states: ["passed", "passed"] },
        ],
        "127.0.0.1:5432/test",
      ),
    ).toBe("PostgreSQL suite ran: 4 tests in 2 files against 127.0.0.1:5432/test (2 passed, 1 failed, 1 skipped)");
  });

  it("says nothing when no file of the suite was in the run", () => {
    expect(postgresSummary([{ file: "/r/test/c.test.ts", states: ["passed"] }], "h:5432/test")).toBeUndefined();
  });

  it("is printed by a real vitest run holding a PostgreSQL file (or the run says the suite did not run)", async () => {
    const vitest = path.join(PACKAGE_ROOT, "node_modules/vitest/vitest.mjs");
    const { stderr } = await run(process.execPath, [vitest, "run", "test/advisories/osv-cache.pg.test.ts"], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, GATE_TEST_POSTGRES: "" },
    });
    if (inject("postgresNotRun")) expect(stderr).toContain("PostgreSQL suite NOT run");
    else
      expect(stderr).toMatch(/^PostgreSQL suite ran: 1 test in 1 file against \S+ \(1 passed, 0 failed, 0 skipped\)$/m);
  }, 120_000);
});
