import { GateError } from "../../domain/errors.js";
import type { LostEntry } from "../../domain/snapshot-ref.js";
import { isNotFound, resolveInSandbox } from "../../snapshot/sandbox.js";
import { readingWhole, snapshotIncomplete } from "../../snapshot/snapshot-loss.js";
import type { ToolCall } from "../strategy.js";
import { compileGlob } from "./grep-glob.js";
import { grepRepo } from "./grep-repo.js";
import { listDir } from "./list-dir.js";
import { READ_FILE_DEFAULT_CHARS, readFile, type ToolOutput } from "./read-file.js";

export { compilePattern, grepRepo } from "./grep-repo.js";
export { listDir } from "./list-dir.js";
export { looksBinary, readFile, type ToolOutput } from "./read-file.js";

/** Runs one tool call; the harness injects its own in tests to simulate a tool that breaks. */
export type ToolRunner = (
  root: string,
  call: ToolCall,
  opts: { maxChars: number; signal?: AbortSignal; lost?: readonly LostEntry[] },
) => Promise<ToolOutput>;

/**
 * A grep of an incomplete snapshot could have missed what was lost: refused when a lost file matches
 * its glob (any lost file without one), or when a folder was lost (its files' names are unknown).
 */
function refuseIncompleteGrep(lost: readonly LostEntry[], glob: string | undefined): void {
  const admit = glob ? compileGlob(glob) : () => true;
  const missed = lost.find((e) => e.path.endsWith("/") || admit(e.path));
  if (missed) throw snapshotIncomplete(lost, missed.path);
}

/**
 * A listing of `dir` lacks an entry when one lost lies directly in it, or deeper below a child of it
 * that is not there (a lost folder's own entry may have come after its files).
 */
async function refuseIncompleteListing(root: string, lost: readonly LostEntry[], dir: string): Promise<void> {
  const base = dir.split("/").filter((s) => s !== "" && s !== ".");
  for (const entry of lost) {
    const segments = entry.path.split("/").filter((s) => s !== "");
    if (segments.length <= base.length || base.some((s, i) => segments[i] !== s)) continue;
    if (segments.length === base.length + 1) throw snapshotIncomplete(lost, entry.path);
    const child = [...base, segments[base.length]].join("/");
    const present = await resolveInSandbox(root, child).then(
      () => true,
      (error: unknown) => !isNotFound(error),
    );
    if (!present) throw snapshotIncomplete(lost, child);
  }
}

/**
 * Runs one tool call against the sandbox root. `maxChars` caps the file content a read returns.
 * Throws (GateError SANDBOX_REFUSED, or an fs error) when the call is refused or fails. On a snapshot
 * that lost entries (`lost`), a call it cannot answer whole throws SNAPSHOT_INCOMPLETE: a read of a
 * lost file or of one absent from it, a listing of a folder something was lost from, a search that
 * could have missed a lost file.
 *
 * @example await runTool(root, { id: "1", tool: "list_dir", args: { path: "src" } }, { maxChars: 1000 })
 */
export const runTool: ToolRunner = async (root, call, opts) => {
  const lost = opts.lost ?? [];
  switch (call.tool) {
    case "read_file": {
      const wanted = call.args.max_chars ?? READ_FILE_DEFAULT_CHARS;
      return readingWhole(lost, call.args.path, () =>
        readFile(root, { ...call.args, max_chars: Math.min(wanted, opts.maxChars) }),
      );
    }
    case "grep_repo":
      if (lost.length > 0) refuseIncompleteGrep(lost, call.args.glob);
      return grepRepo(root, call.args, opts.signal ? { signal: opts.signal } : {});
    case "list_dir": {
      const listed = await readingWhole(lost, call.args.path ?? "", () => listDir(root, call.args));
      await refuseIncompleteListing(root, lost, call.args.path ?? "");
      return listed;
    }
    default:
      throw new GateError("SANDBOX_REFUSED", `unknown tool ${JSON.stringify((call as { tool: unknown }).tool)}`);
  }
};
