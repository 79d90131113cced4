import { defineConfig } from "vitest/config";
import { DEFAULT_TEST_POSTGRES_URL, unreachable, where } from "./test/postgres-probe.js";

// The PostgreSQL suite (test/**/*.pg.test.ts) runs against a real server. GATE_TEST_POSTGRES=required
// (CI) makes an unreachable server fail the run; otherwise the suite is left out, and the run says so.
const postgresUrl = process.env.GATE_TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL;
const postgresRequired = process.env.GATE_TEST_POSTGRES === "required";

export default defineConfig(async () => {
  const why = await unreachable(postgresUrl);
  if (why && postgresRequired) {
    throw new Error(
      `PostgreSQL suite required (GATE_TEST_POSTGRES=required), but ${where(postgresUrl)} is unreachable: ${why}`,
    );
  }
  const notRun = why
    ? `PostgreSQL suite NOT run: ${where(postgresUrl)} unreachable (${why}); set GATE_TEST_POSTGRES_URL, or GATE_TEST_POSTGRES=required to fail instead`
    : "";
  return {
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/**/*.int.test.ts", "node_modules/**", ...(why ? ["test/**/*.pg.test.ts"] : [])],
      // A run that selects no test must fail (DESIGN.md lesson 7).
      passWithNoTests: false,
      testTimeout: 30_000,
      hookTimeout: 30_000,
      env: { TZ: "UTC" },
      globalSetup: ["test/postgres-notice.ts"],
      // Beside the default output: one line saying the PostgreSQL suite ran, and how many of its tests passed.
      reporters: ["default", ["./test/postgres-reporter.ts", { where: where(postgresUrl) }]],
      provide: { postgresUrl, postgresNotRun: notRun },
    },
  };
});
