import type { GateConfigFile } from "./schema.js";

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Objects merge key by key, anything else (a list, a value) replaces. */
function deepMerge(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    const b = out[k];
    out[k] = isObject(b) && isObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/**
 * The repository's file over the server-wide one: maps merge key by key (a repository's
 * `policies.LIC-01.blocking` keeps the server's `policies.LIC-01.severity`), lists and values
 * replace, except `exceptions` and `vulnerabilities.deny_packages`, where both files' entries apply
 * (a repository cannot drop a package the server denies).
 *
 * @example mergeConfig(server, repo).risk?.threshold // the repository's, when it sets one
 */
export function mergeConfig(base: GateConfigFile, over: GateConfigFile): GateConfigFile {
  const merged = deepMerge(base as Obj, over as Obj) as GateConfigFile;
  const exceptions = [...(base.exceptions ?? []), ...(over.exceptions ?? [])];
  const deny = [...(base.vulnerabilities?.deny_packages ?? []), ...(over.vulnerabilities?.deny_packages ?? [])];
  return {
    ...merged,
    ...(exceptions.length > 0 ? { exceptions } : {}),
    ...(deny.length > 0 ? { vulnerabilities: { ...merged.vulnerabilities, deny_packages: deny } } : {}),
  };
}
