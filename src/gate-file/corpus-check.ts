import fs from "node:fs";
import { ConfigFileError, loadConfigFile, locateKey, type ConfigProblem } from "./load.js";
import type { GateConfigFile } from "./schema.js";

/**
 * What the policy corpus and the date tell of a configuration file that parsed: a policy id with
 * no policy file (in `policies:` or an exception) is an error, since it can never apply; an
 * exception past its date is a warning. Each names `file:line:col`. Pure: the file's text is given.
 *
 * @example corpusProblems("gate.yml", text, config, new Set(["SEC-01"]), "2026-12-01").errors[0]?.key // "policies.ACME-99"
 */
export function corpusProblems(
  file: string,
  text: string,
  config: GateConfigFile,
  known: ReadonlySet<string>,
  today: string,
): { errors: ConfigProblem[]; warnings: ConfigProblem[] } {
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
 * The server's own configuration file, checked as strictly as `gate config check` checks it: a
 * problem in it, or a policy id no policy file has, throws `ConfigFileError` naming
 * `file:line:col` (the server and the CLI do not start); expired exceptions are returned as
 * warnings for the log.
 *
 * @example const { file, warnings } = loadServerConfigFile(settings.configFile, policies.map((p) => p.id), "2026-12-01");
 */
export function loadServerConfigFile(
  path: string,
  policyIds: readonly string[],
  today: string,
): { file: GateConfigFile; warnings: ConfigProblem[] } {
  const file = loadConfigFile(path);
  const { errors, warnings } = corpusProblems(path, fs.readFileSync(path, "utf8"), file, new Set(policyIds), today);
  if (errors.length > 0) throw new ConfigFileError(path, errors);
  return { file, warnings };
}
