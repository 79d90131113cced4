import fs from "node:fs";
import {
  ConfigFileError,
  describeProblem,
  loadConfigFile,
  locateKey,
  type ConfigProblem,
} from "../../gate-file/load.js";
import type { GateConfigFile } from "../../gate-file/schema.js";
import { describeError } from "../../domain/errors.js";
import type { Policy } from "../../domain/policy.js";

/** What the corpus and the date tell of a file that parsed: unknown policy ids (errors), expired exceptions (warnings). */
function corpusProblems(
  file: string,
  config: GateConfigFile,
  known: ReadonlySet<string>,
  today: string,
): { errors: ConfigProblem[]; warnings: ConfigProblem[] } {
  const text = fs.readFileSync(file, "utf8");
  const at = (path: (string | number)[], atKey = false) => ({ file, ...locateKey(text, path, atKey) });
  const unknown = (id: string) => `${id} has no policy file in the corpus in force, so this would never apply`;
  const errors: ConfigProblem[] = [];
  for (const id of Object.keys(config.policies ?? {})) {
    if (!known.has(id)) errors.push({ ...at(["policies", id], true), key: `policies.${id}`, message: unknown(id) });
  }
  const warnings: ConfigProblem[] = [];
  (config.exceptions ?? []).forEach((e, i) => {
    if (!known.has(e.policy)) {
      errors.push({ ...at(["exceptions", i, "policy"]), key: `exceptions.${i}.policy`, message: unknown(e.policy) });
    }
    if (e.expires < today) {
      warnings.push({
        ...at(["exceptions", i, "expires"]),
        key: `exceptions.${i}.expires`,
        message: `expired on ${e.expires}: it no longer clears anything (today is ${today})`,
      });
    }
  });
  return { errors, warnings };
}

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
    const { errors, warnings } = corpusProblems(file, config, known, today);
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
