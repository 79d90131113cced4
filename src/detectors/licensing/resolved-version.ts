/** The lockfiles that pin an ecosystem's versions, beside its manifest (npm's for now). */
const LOCKFILES: Partial<Record<string, string[]>> = { npm: ["npm-shrinkwrap.json", "package-lock.json"] };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A lockfile's text as JSON, or undefined when it is not JSON. */
export function parsedLock(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The version a parsed npm lockfile pins for a direct dependency `name` of its root project:
 * v2/v3 `packages["node_modules/<name>"]`, else v1 `dependencies[name]`; undefined when it pins
 * none.
 *
 * @example lockedVersion({ packages: { "node_modules/a": { version: "1.2.0" } } }, "a") // "1.2.0"
 */
export function lockedVersion(lock: unknown, name: string): string | undefined {
  if (!isObj(lock)) return undefined;
  const entry = isObj(lock.packages)
    ? lock.packages[`node_modules/${name}`]
    : isObj(lock.dependencies)
      ? lock.dependencies[name]
      : undefined;
  return isObj(entry) && typeof entry.version === "string" && /^\d/.test(entry.version) ? entry.version : undefined;
}

/**
 * The lockfile paths that may pin a manifest's dependencies, nearest first: beside the manifest.
 *
 * @example lockfilesBeside("npm", "web/package.json") // ["web/npm-shrinkwrap.json", "web/package-lock.json"]
 */
export function lockfilesBeside(ecosystem: string, manifest: string): string[] {
  const slash = manifest.lastIndexOf("/");
  const dir = slash < 0 ? "" : manifest.slice(0, slash + 1);
  return (LOCKFILES[ecosystem] ?? []).map((name) => `${dir}${name}`);
}
