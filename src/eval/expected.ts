import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describeIssues, GateError, messageOf } from "../domain/errors.js";
import { FIXTURE_NAME } from "../fixture/fixture.js";

/**
 * A fixture's `expected.json` (docs/fixtures.md): what a correct review concludes.
 *
 * @example ExpectedSchema.parse({ route: "human", must_cite: ["LIC-02"] }).must_not_cite // []
 */
export const ExpectedSchema = z.object({
  route: z.enum(["auto_approved", "approved", "human"]).describe("Where a correct review ends (or waits)"),
  must_cite: z.array(z.string().min(1)).default([]).describe("Policy ids a correct review cites"),
  must_not_cite: z.array(z.string().min(1)).default([]).describe("Policy ids a correct review does not cite"),
  max_model_calls: z.number().int().nonnegative().optional().describe("Model calls the deterministic path needs"),
});
export type Expected = z.infer<typeof ExpectedSchema>;

/**
 * The fixtures of a folder that have an `expected.json`, sorted by name.
 *
 * @example listEvalFixtures(BUNDLED_FIXTURES_DIR)[0] // "001_readme_typo"
 */
export function listEvalFixtures(fixturesDir: string): string[] {
  return fs
    .readdirSync(fixturesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && FIXTURE_NAME.test(d.name))
    .filter((d) => fs.existsSync(path.join(fixturesDir, d.name, "expected.json")))
    .map((d) => d.name)
    .sort();
}

/**
 * Reads and validates a fixture's `expected.json`, naming the file and the problem when it is bad.
 *
 * @example loadExpected(BUNDLED_FIXTURES_DIR, "002_new_dependency").must_cite // ["LIC-02"]
 */
export function loadExpected(fixturesDir: string, name: string): Expected {
  const file = path.join(fixturesDir, name, "expected.json");
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new GateError("FIXTURE_INVALID", `${file}: not readable JSON (${messageOf(error)})`);
  }
  const parsed = ExpectedSchema.safeParse(json);
  if (!parsed.success) {
    throw new GateError("FIXTURE_INVALID", `${file}: ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}
