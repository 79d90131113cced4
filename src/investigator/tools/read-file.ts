import { GateError } from "../../domain/errors.js";
import { resolveInSandbox } from "../../snapshot/sandbox.js";
import { openRegularFile } from "./regular-file.js";

/** Files larger than this are refused by read_file (the snapshot is source code, not data). */
export const READ_FILE_MAX_BYTES = 4 * 1024 * 1024;
/** What one read returns when the caller does not say. */
export const READ_FILE_DEFAULT_CHARS = 20_000;
/** How much of a file's start is probed for a NUL byte: git's own FIRST_FEW_BYTES. */
export const BINARY_PROBE = 8000;

/** True when the first 8,000 bytes hold a NUL byte (git's own test for binary content). */
export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, BINARY_PROBE).includes(0);
}

/** The output of a tool: text for the strategy, and the characters of file content it carries. */
export interface ToolOutput {
  output: string;
  chars: number;
}

/**
 * `read_file`: a slice of a text file with each line prefixed by its number and a tab, so evidence
 * can cite lines. `offset` is the 1-based line to start at; `max_chars` caps the characters of file
 * content returned (a line may be cut at the cap). The header line reports the file's total size.
 *
 * @example await readFile(root, { path: "src/a.ts", offset: 10, max_chars: 500 })
 *   // { output: "# src/a.ts: 1200 chars, 40 lines; lines 10-19 shown\n10\tconst a = 1;\n…", chars: 500 }
 */
export async function readFile(
  root: string,
  args: { path: string; offset?: number; max_chars?: number },
): Promise<ToolOutput> {
  const real = await resolveInSandbox(root, args.path);
  // Only a regular file is opened, and never in a way that blocks (a FIFO would wait for a writer).
  const handle = await openRegularFile(real, args.path);
  let buf: Buffer;
  try {
    const info = await handle.stat();
    if (info.size > READ_FILE_MAX_BYTES) {
      throw new GateError("SANDBOX_REFUSED", `${args.path} is too large to read (${info.size} bytes)`);
    }
    buf = await handle.readFile();
  } finally {
    await handle.close();
  }
  if (looksBinary(buf)) {
    throw new GateError("SANDBOX_REFUSED", `${args.path} is a binary file (${buf.length} bytes); not read`);
  }
  const text = buf.toString("utf8");
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const startLine = Math.max(1, Math.floor(args.offset ?? 1));
  const maxChars = Math.max(0, Math.floor(args.max_chars ?? READ_FILE_DEFAULT_CHARS));
  const header = `# ${args.path}: ${text.length} chars, ${lines.length} lines`;
  if (startLine > lines.length) {
    return { output: `${header}; offset ${startLine} is past the end`, chars: 0 };
  }
  const shown: string[] = [];
  let chars = 0;
  let last = startLine - 1;
  let cut = false;
  while (last < lines.length && chars < maxChars) {
    const full = lines[last] ?? "";
    const room = maxChars - chars;
    last++;
    if (full.length + 1 <= room) {
      shown.push(`${last}\t${full}`);
      chars += full.length + 1;
    } else {
      shown.push(`${last}\t${full.slice(0, room)}`);
      chars += Math.min(room, full.length);
      cut = room < full.length;
      break;
    }
  }
  const more = cut || last < lines.length;
  const footer = more ? [`# truncated at line ${last}; read on with offset=${cut ? last : last + 1}`] : [];
  return { output: [`${header}; lines ${startLine}-${last} shown`, ...shown, ...footer].join("\n"), chars };
}
