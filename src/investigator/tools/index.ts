import { GateError } from "../../domain/errors.js";
import type { ToolCall } from "../strategy.js";
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
  opts: { maxChars: number; signal?: AbortSignal },
) => Promise<ToolOutput>;

/**
 * Runs one tool call against the sandbox root. `maxChars` caps the file content a read returns.
 * Throws (GateError SANDBOX_REFUSED, or an fs error) when the call is refused or fails.
 *
 * @example await runTool(root, { id: "1", tool: "list_dir", args: { path: "src" } }, { maxChars: 1000 })
 */
export const runTool: ToolRunner = async (root, call, opts) => {
  switch (call.tool) {
    case "read_file": {
      const wanted = call.args.max_chars ?? READ_FILE_DEFAULT_CHARS;
      return readFile(root, { ...call.args, max_chars: Math.min(wanted, opts.maxChars) });
    }
    case "grep_repo":
      return grepRepo(root, call.args, opts.signal ? { signal: opts.signal } : {});
    case "list_dir":
      return listDir(root, call.args);
    default:
      throw new GateError("SANDBOX_REFUSED", `unknown tool ${JSON.stringify((call as { tool: unknown }).tool)}`);
  }
};
