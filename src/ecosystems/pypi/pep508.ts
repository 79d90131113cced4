import type { DeclaredDependency } from "../common/manifest-parser.js";

/** `name[extras] <spec> ; marker` with an optional `@ url` direct reference (PEP 508). */
const REQUIREMENT =
  /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(\(?\s*(?:===|==|~=|!=|>=|<=|>|<)[^;@]*?\)?|@\s*\S+)?\s*(?:;.*)?$/;

/**
 * Reads one PEP 508 requirement string. An exact pin (`==2.31.0`) gives the bare version; a range
 * is kept as written. Anything else (a URL alone, prose, an option line) is undefined.
 *
 * @example parseRequirement("requests[socks]==2.31.0; python_version>'3.8'") // { name: "requests", version: "2.31.0" }
 */
export function parseRequirement(text: string): DeclaredDependency | undefined {
  const m = REQUIREMENT.exec(text.trim());
  if (!m || m[1] === undefined) return undefined;
  const spec = (m[2] ?? "").replace(/^\(|\)$/g, "").trim();
  if (spec === "") return { name: m[1] };
  if (spec.startsWith("@")) return { name: m[1] }; // a direct URL: no registry version
  const exact = /^===?\s*([^,\s]+)$/.exec(spec);
  return { name: m[1], version: exact?.[1] ?? spec.replace(/\s+/g, "") };
}

/**
 * The requirement strings quoted on one TOML array line.
 *
 * @example quotedRequirements(`  "httpx>=0.27", "rich",`) // [{ name: "httpx", version: ">=0.27" }, { name: "rich" }]
 */
export function quotedRequirements(text: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'/g)) {
    const dep = parseRequirement(m[1] ?? m[2] ?? "");
    if (dep) out.push(dep);
  }
  return out;
}
