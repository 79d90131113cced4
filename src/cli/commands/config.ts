import { ConfigFileError, describeProblem, loadConfigFile } from "../../gate-file/load.js";
import { describeError } from "../../domain/errors.js";
import type { Policy } from "../../domain/policy.js";

/**
 * `gate config check <file>`: validates a configuration file; every problem is one
 * `file:line:col: key: message` line on stderr, and the exit code is 1. Policy ids that the
 * corpus has no file for are noted (they are not enforced).
 *
 * @example await configCommand(["check", "gate.yml"], io, policies) // 0
 */
export async function configCommand(
  args: string[],
  io: { out: (t: string) => void; err: (t: string) => void },
  policies: () => Policy[],
): Promise<number> {
  const [sub, file, ...extra] = args;
  if (sub !== "check" || !file || extra.length > 0) {
    io.err("usage: gate config check <file>");
    return 2;
  }
  try {
    const config = loadConfigFile(file);
    const known = new Set(policies().map((p) => p.id));
    const named = [...Object.keys(config.policies ?? {}), ...(config.exceptions ?? []).map((e) => e.policy)];
    for (const id of [...new Set(named)].filter((i) => !known.has(i)).sort()) {
      io.err(`${file}: note: ${id} has no policy file in the corpus in force, so it is not enforced`);
    }
    io.out(`${file}: ok`);
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
