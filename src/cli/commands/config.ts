import fs from "node:fs";
import { ConfigFileError, describeProblem, loadConfigFile } from "../../gate-file/load.js";
import { corpusProblems } from "../../gate-file/corpus-check.js";
import { describeError } from "../../domain/errors.js";
import type { Policy } from "../../domain/policy.js";

/**
 * `gate config check <file> [--strict]`: validates a configuration file; every problem is one
 * `file:line:col: key: message` line on stderr. Errors (a bad value, an unknown key, a policy id
 * with no policy file, a range or glob that can never match, a malformed advisory id) exit 1; an
 * expired exception is a warning (exit 0, or 1 with `--strict`).
 *
 * @example await configCommand(["check", "gate.yml"], io, policies) // 0
 */
export async function configCommand(
  args: string[],
  io: { out: (t: string) => void; err: (t: string) => void },
  policies: () => Policy[],
  opts: { strict?: boolean; today?: string } = {},
): Promise<number> {
  const [sub, file, ...extra] = args;
  if (sub !== "check" || !file || extra.length > 0) {
    io.err("usage: gate config check <file> [--strict]");
    return 2;
  }
  try {
    const config = loadConfigFile(file);
    const known = new Set(policies().map((p) => p.id));
    const today = opts.today ?? new Date().toISOString().slice(0, 10);
    const { errors, warnings } = corpusProblems(file, fs.readFileSync(file, "utf8"), config, known, today);
    for (const p of errors) io.err(describeProblem(p));
    for (const p of warnings) io.err(`${describeProblem(p)} (warning)`);
    if (errors.length > 0 || (opts.strict && warnings.length > 0)) return 1;
    io.out(
      `${file}: ok${warnings.length > 0 ? ` (${warnings.length} warning${warnings.length === 1 ? "" : "s"})` : ""}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ConfigFileError) {
      for (const p of error.problems) io.err(describeProblem(p));
      return 1;
    }
    io.err(describeError(error));
    return 1;
  }
}
