import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/**/*.int.test.ts", "node_modules/**"],
    // A run that selects no test must fail (DESIGN.md lesson 7).
    passWithNoTests: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { TZ: "UTC" },
  },
});
