import type { Reporter, TestModule } from "vitest/node";

/** One test file's outcome, as the summary counts it. */
export interface ModuleOutcome {
  file: string;
  states: ReadonlyArray<"passed" | "failed" | "skipped" | "pending">;
}

/** Whether a test file belongs to the PostgreSQL suite. */
export const isPostgresFile = (file: string) => file.endsWith(".pg.test.ts");

/**
 * The one line that says the PostgreSQL suite ran, and how many of its tests did what; undefined
 * when no file of it was in the run (left out as unreachable: test/postgres-notice.ts says so; or
 * not selected).
 *
 * @example postgresSummary([{ file: "a.pg.test.ts", states: ["passed"] }], "127.0.0.1:5432/test")
 *   // "PostgreSQL suite ran: 1 test in 1 file against 127.0.0.1:5432/test (1 passed, 0 failed, 0 skipped)"
 */
export function postgresSummary(modules: readonly ModuleOutcome[], where: string): string | undefined {
  const suite = modules.filter((m) => isPostgresFile(m.file));
  if (suite.length === 0) return undefined;
  const states = suite.flatMap((m) => m.states);
  const count = (s: string) => states.filter((x) => x === s).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return (
    `PostgreSQL suite ran: ${plural(states.length, "test")} in ${plural(suite.length, "file")} against ${where} ` +
    `(${count("passed")} passed, ${count("failed")} failed, ${count("skipped") + count("pending")} skipped)`
  );
}

/**
 * A vitest reporter beside the default one: at the end of a run that held PostgreSQL tests, one
 * line on stderr counting them by outcome, read from vitest's own results.
 */
export default class PostgresReporter implements Reporter {
  constructor(private readonly opts: { where: string }) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const line = postgresSummary(
      testModules.map((m) => ({ file: m.moduleId, states: [...m.children.allTests()].map((t) => t.result().state) })),
      this.opts.where,
    );
    if (line) process.stderr.write(`${line}\n`);
  }
}
