/**
 * The local names a JavaScript or TypeScript file gives a module's functions and the module itself,
 * read from its imports (`const { exec: run } = require("child_process")`, `import { exec as run }
 * from "node:child_process"`, `var cp = require("child_process"), exec = cp.exec`, `import format
 * from "pg-format"`).
 */
export interface ModuleLocals {
  /** Local name → the module function's own name (`run` → `exec`). */
  functions: ReadonlyMap<string, string>;
  /** Local names of the module object (`proc` of `const proc = require("child_process")`). */
  modules: ReadonlySet<string>;
}

const NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * What the file's imports call the modules `isModule` accepts (by the name they are imported
 * from); undefined when it imports none of them.
 *
 * @example moduleLocals("const format = require('pg-format')", (m) => m === "pg-format")?.modules // Set { "format" }
 */
export function moduleLocals(text: string, isModule: (module: string) => boolean): ModuleLocals | undefined {
  const functions = new Map<string, string>();
  const modules = new Set<string>();
  const accepted = (name: string | undefined) => name !== undefined && isModule(name);
  const members = (list: string, separator: RegExp) => {
    for (const part of list.split(",")) {
      const [own, local] = part
        .trim()
        .split(separator)
        .map((s) => s.trim());
      if (own && NAME.test(own)) functions.set(local && NAME.test(local) ? local : own, own);
    }
  };
  // const { exec, execSync: run } = require("child_process")
  for (const m of text.matchAll(/\{([^{}]*)\}\s*=\s*require\(\s*["'`]([\w@:/.-]+)["'`]\s*\)/g))
    if (accepted(m[2])) members(m[1] ?? "", /\s*:\s*/);
  // import { exec as run } from "child_process"
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^{}]*)\}\s*from\s*["'`]([\w@:/.-]+)["'`]/g))
    if (accepted(m[2])) members(m[1] ?? "", /\s+as\s+/);
  // import * as cp from "child_process"; import cp from "child_process"; import cp = require("child_process")
  for (const m of text.matchAll(
    /import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s*(?:from|=\s*require\()\s*["'`]([\w@:/.-]+)["'`]/g,
  ))
    if (accepted(m[2]) && m[1]) modules.add(m[1]);
  // x = require("child_process") and x = require("child_process").exec, in any declaration list
  for (const m of text.matchAll(
    /([A-Za-z_$][\w$]*)\s*=\s*require\(\s*["'`]([\w@:/.-]+)["'`]\s*\)(\s*\.\s*([A-Za-z_$][\w$]*))?/g,
  )) {
    if (!accepted(m[2]) || !m[1]) continue;
    if (m[4]) functions.set(m[1], m[4]);
    else modules.add(m[1]);
  }
  // exec = cp.exec, where cp is the module
  for (const m of text.matchAll(/([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*)\s*\.\s*([A-Za-z_$][\w$]*)\b(?!\s*\()/g))
    if (m[1] && m[2] && m[3] && modules.has(m[2])) functions.set(m[1], m[3]);
  return functions.size === 0 && modules.size === 0 ? undefined : { functions, modules };
}
