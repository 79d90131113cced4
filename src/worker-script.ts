import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** How to start a worker thread: its script (a file, or code with `eval`). */
export interface WorkerScript {
  script: string | URL;
  eval: boolean;
}

/**
 * How to start the worker `name` (a module beside `moduleUrl`, without its extension), found
 * relative to that module so that it works from src/, from dist/ and from an installed package.
 * From the sources (`.ts`, under tsx or vitest) the worker registers tsx's loader before it
 * imports its TypeScript. Undefined when there is no such file beside the module (the CLI bundle,
 * dist/cli/gate.cjs, holds no worker files): the caller then works in-thread.
 *
 * @example workerScript(import.meta.url, "config-worker") // { script: URL(".../config-worker.js"), eval: false }
 */
export function workerScript(moduleUrl: string, name: string): WorkerScript | undefined {
  if (moduleUrl.endsWith(".ts")) {
    const script = new URL(`./${name}.ts`, moduleUrl);
    let api: string;
    try {
      // tsx's ESM API by path: resolving "tsx/esm/api" through require() would give its CommonJS build.
      api = path.join(path.dirname(createRequire(moduleUrl).resolve("tsx/package.json")), "dist/esm/api/index.mjs");
    } catch {
      return undefined;
    }
    if (!fs.existsSync(fileURLToPath(script))) return undefined;
    const code = `import(${JSON.stringify(pathToFileURL(api).href)}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); })`;
    return { script: code, eval: true };
  }
  const script = new URL(`./${name}.js`, moduleUrl);
  return fs.existsSync(fileURLToPath(script)) ? { script, eval: false } : undefined;
}
