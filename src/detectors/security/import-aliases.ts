import type { SyntaxLanguage } from "../code/grammars.js";
import { moduleLocals, type ModuleLocals } from "../code/module-locals.js";

/**
 * The local names a file gives a sink module's functions and the module itself
 * (`moduleLocals`): a sink is the module's function whatever the file calls it.
 */
export type ImportAliases = ModuleLocals;

/** The modules whose functions are sinks, per language, and the receiver name the sink tables know them by. */
const MODULES: Partial<Record<SyntaxLanguage, { module: RegExp; canonical: string }>> = {
  javascript: { module: /^(node:)?child_process$/, canonical: "child_process" },
  typescript: { module: /^(node:)?child_process$/, canonical: "child_process" },
  tsx: { module: /^(node:)?child_process$/, canonical: "child_process" },
};

/**
 * What the file's imports call the language's sink modules; undefined when it imports none.
 *
 * @example importAliases("const { exec: run } = require('child_process')", "javascript")?.functions.get("run") // "exec"
 */
export function importAliases(text: string, lang: SyntaxLanguage): ImportAliases | undefined {
  const table = MODULES[lang];
  if (!table || !/child_process/.test(text)) return undefined;
  return moduleLocals(text, (name) => table.module.test(name));
}

/**
 * The receiver name the sink tables know a module by (`child_process`), for a local alias of it.
 *
 * @example canonicalModule("javascript") // "child_process"
 */
export function canonicalModule(lang: SyntaxLanguage): string | undefined {
  return MODULES[lang]?.canonical;
}
