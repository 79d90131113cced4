import type { DependencyScope } from "../common/manifest-parser.js";

/**
 * The direct dependencies a package.json declares, with their scope (runtime wins), or an empty
 * map when there is none or it does not parse: a lockfile's transitive packages then name no
 * `via` and count as runtime (fail closed).
 *
 * @example directDependencies('{"dependencies":{"a":"1"},"devDependencies":{"b":"2"}}') // Map { a → runtime, b → dev }
 */
export function directDependencies(manifestText: string | undefined): Map<string, DependencyScope> {
  const out = new Map<string, DependencyScope>();
  if (manifestText === undefined) return out;
  let json: unknown;
  try {
    json = JSON.parse(manifestText);
  } catch {
    return out;
  }
  if (typeof json !== "object" || json === null) return out;
  const sections = json as Record<string, unknown>;
  const namesIn = (key: string) => {
    const v = sections[key];
    return typeof v === "object" && v !== null ? Object.keys(v) : [];
  };
  for (const n of namesIn("devDependencies")) out.set(n, "dev");
  for (const key of ["dependencies", "optionalDependencies", "peerDependencies"])
    for (const n of namesIn(key)) out.set(n, "runtime");
  return out;
}
