import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { GateError } from "../../domain/errors.js";
import { isInside, realRoot, resolveInSandbox } from "../../snapshot/sandbox.js";
import type { ToolOutput } from "./read-file.js";

/** At most this many entries are listed (a huge vendored folder must not flood the strategy). */
export const LIST_DIR_MAX_ENTRIES = 1000;

/**
 * `list_dir`: the entries of a directory of the snapshot, sorted, directories with a trailing `/`.
 * A symlink is listed as a directory only when it points to a directory inside the snapshot.
 * `""` or `"."` lists the repository root. Directory names are not file content: `chars` is 0.
 *
 * @example await listDir(root, { path: "src/auth" }) // { output: "helpers/\nsession.ts\ntokens.ts", chars: 0 }
 */
export async function listDir(root: string, args: { path: string }): Promise<ToolOutput> {
  const dir = await resolveInSandbox(root, args.path ?? "");
  const info = await stat(dir);
  if (!info.isDirectory()) throw new GateError("SANDBOX_REFUSED", `${args.path} is not a directory; use read_file`);
  const base = await realRoot(root);
  const entries = await readdir(dir, { withFileTypes: true });
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) names.push(`${entry.name}/`);
    else if (entry.isSymbolicLink())
      names.push((await linkIsInnerDir(base, path.join(dir, entry.name))) ? `${entry.name}/` : entry.name);
    else names.push(entry.name);
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const shown = names.slice(0, LIST_DIR_MAX_ENTRIES);
  if (names.length > shown.length) shown.push(`# ${names.length - shown.length} more entries not shown`);
  return { output: shown.length > 0 ? shown.join("\n") : "(empty directory)", chars: 0 };
}

async function linkIsInnerDir(base: string, link: string): Promise<boolean> {
  try {
    const target = await realpath(link);
    return isInside(base, target) && (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}
