import parseSpdx from "spdx-expression-parse";
import { DEFAULT_ALLOWED_LICENSES } from "../gate-file/effective.js";

/** The permissive allow-list of docs/policies.md (LIC-01), when the configuration gives none. */
export const ALLOWED_LICENSES: readonly string[] = DEFAULT_ALLOWED_LICENSES;

/** Licence lists of the configuration: SPDX ids, expressions, or prefixes ending in `*` (`GPL-*`). */
export interface LicenseLists {
  allow: readonly string[];
  deny: readonly string[];
}

/** What the gate makes of one licence expression. */
export interface LicenseClass {
  /** The expression is valid SPDX (after mapping deprecated ids). False for missing or garbage. */
  parsed: boolean;
  /** At least one way to satisfy the expression uses only allow-listed licences (or the expression is listed). */
  allowed: boolean;
  /** Every way to satisfy the expression includes a denied licence (or the expression is listed). */
  denied: boolean;
  /**
   * Every way to satisfy the expression includes a strong or network copyleft licence that the
   * allow-list does not name (LIC-02; a team whose lawyers cleared one allows it by name).
   */
  copyleft: boolean;
  /** The expression with deprecated ids mapped (`GPL-3.0` → `GPL-3.0-only`), or the input as given. */
  normalized: string;
}

/** A single licence term of an expression, deprecated forms already mapped. */
interface Term {
  license: string;
  /** `Apache-2.0+`: this version or later (kept apart so the id still matches the allow-list). */
  plus?: boolean;
  exception?: string;
}

/** Licence ids whose "only"/"or later" choice the bare deprecated form leaves open. */
const VERSIONED_GNU = /^(A?GPL|LGPL|GFDL)-\d\.\d$/;
/** Deprecated `GPL-2.0-with-classpath-exception` style ids, as the licence and exception they mean. */
const DEPRECATED_WITH_EXCEPTION: Readonly<Record<string, Term>> = {
  "GPL-2.0-with-classpath-exception": { license: "GPL-2.0-only", exception: "Classpath-exception-2.0" },
  "GPL-2.0-with-GCC-exception": { license: "GPL-2.0-only", exception: "GCC-exception-2.0" },
  "GPL-2.0-with-autoconf-exception": { license: "GPL-2.0-only", exception: "Autoconf-exception-2.0" },
  "GPL-2.0-with-bison-exception": { license: "GPL-2.0-only", exception: "Bison-exception-2.2" },
  "GPL-2.0-with-font-exception": { license: "GPL-2.0-only", exception: "Font-exception-2.0" },
  "GPL-3.0-with-GCC-exception": { license: "GPL-3.0-only", exception: "GCC-exception-3.1" },
  "GPL-3.0-with-autoconf-exception": { license: "GPL-3.0-only", exception: "Autoconf-exception-3.0" },
};
/** Strong and network copyleft families (docs/policies.md LIC-02); LGPL is deliberately not one. */
const STRONG_COPYLEFT = /^(GPL-|AGPL-|SSPL-|EUPL-|OSL-)/;
/** Words registries use for "no licence" that are not SPDX. */
const NO_LICENSE = new Set(["", "UNLICENSED", "NOASSERTION", "NONE", "UNKNOWN", "PROPRIETARY"]);

/**
 * Is this single SPDX licence id strong or network copyleft?
 *
 * @example isStrongCopyleft("AGPL-3.0-only") // true; isStrongCopyleft("LGPL-2.1-only") // false
 */
export function isStrongCopyleft(id: string): boolean {
  return STRONG_COPYLEFT.test(id);
}

function mapTerm(node: parseSpdx.LicenseNode): Term {
  const special = DEPRECATED_WITH_EXCEPTION[node.license];
  if (special) return special;
  if (VERSIONED_GNU.test(node.license)) {
    const license = `${node.license}-${node.plus ? "or-later" : "only"}`;
    return node.exception ? { license, exception: node.exception } : { license };
  }
  return {
    license: node.license,
    ...(node.plus ? { plus: true } : {}),
    ...(node.exception ? { exception: node.exception } : {}),
  };
}

/** The expression as alternatives (OR) of terms that all apply together (AND). */
function choices(node: parseSpdx.Node): Term[][] {
  if (!("conjunction" in node)) return [[mapTerm(node)]];
  const left = choices(node.left);
  const right = choices(node.right);
  if (node.conjunction === "or") return [...left, ...right];
  return left.flatMap((l) => right.map((r) => [...l, ...r]));
}

function render(node: parseSpdx.Node, parent?: "and" | "or"): string {
  if (!("conjunction" in node)) {
    const t = mapTerm(node);
    return `${t.license}${t.plus ? "+" : ""}${t.exception ? ` WITH ${t.exception}` : ""}`;
  }
  const text = `${render(node.left, node.conjunction)} ${node.conjunction.toUpperCase()} ${render(node.right, node.conjunction)}`;
  return parent && parent !== node.conjunction ? `(${text})` : text;
}

function tryParse(expression: string): parseSpdx.Node | undefined {
  try {
    return parseSpdx(expression);
  } catch {
    return undefined;
  }
}

/** A list as matchers: prefixes (`GPL-*`), single ids (deprecated forms mapped), whole expressions. */
function compile(list: readonly string[]) {
  const prefixes: string[] = [];
  const ids = new Set<string>();
  const expressions = new Set<string>();
  for (const item of list) {
    if (item.endsWith("*")) {
      prefixes.push(item.slice(0, -1));
      continue;
    }
    const node = tryParse(item);
    if (!node) continue;
    if ("conjunction" in node) expressions.add(render(node));
    else ids.add(mapTerm(node).license);
  }
  return {
    term: (t: Term) => ids.has(t.license) || prefixes.some((p) => t.license.startsWith(p)),
    expression: (normalized: string) => expressions.has(normalized),
  };
}

/**
 * Classifies a licence expression against the allow and deny lists (by default the built-in
 * allow-list and no denials) and the copyleft families. Never throws: a missing or unparseable
 * licence is `{ parsed: false, allowed: false, denied: false, copyleft: false }` (unknown, so
 * LIC-01, never permissive). Accepts deprecated ids (`GPL-3.0`, `GPL-2.0+`) and the old
 * crates.io slash form (`MIT/Apache-2.0` means `MIT OR Apache-2.0`).
 *
 * @example classifyLicense("MIT OR GPL-3.0-only") // { parsed: true, allowed: true, copyleft: false, ... }
 */
export function classifyLicense(
  expression: string | undefined,
  lists: LicenseLists = { allow: ALLOWED_LICENSES, deny: [] },
): LicenseClass {
  const text = (expression ?? "").trim();
  const unknown = { parsed: false, allowed: false, denied: false, copyleft: false, normalized: text };
  if (NO_LICENSE.has(text.toUpperCase())) return unknown;
  const node = tryParse(text) ?? (text.includes("/") ? tryParse(text.split(/\s*\/\s*/).join(" OR ")) : undefined);
  if (!node) return unknown;
  const options = choices(node);
  const normalized = render(node);
  const allow = compile(lists.allow);
  const deny = compile(lists.deny);
  return {
    parsed: true,
    allowed: allow.expression(normalized) || options.some((terms) => terms.every(allow.term)),
    denied: deny.expression(normalized) || options.every((terms) => terms.some(deny.term)),
    copyleft:
      !allow.expression(normalized) &&
      options.every((terms) => terms.some((t) => isStrongCopyleft(t.license) && !allow.term(t))),
    normalized,
  };
}
