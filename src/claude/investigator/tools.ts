import type { Tool, ToolUseBlock } from "@anthropic-ai/sdk/resources/messages";
import { z } from "zod";
import type { ToolCall } from "../../investigator/strategy.js";

const ReadFileArgs = z
  .object({
    path: z.string().min(1),
    offset: z.number().int().nonnegative().optional(),
    max_chars: z.number().int().positive().optional(),
  })
  .strict();
const GrepRepoArgs = z
  .object({
    pattern: z.string().min(1),
    glob: z.string().min(1).optional(),
    max_results: z.number().int().positive().optional(),
  })
  .strict();
const ListDirArgs = z.object({ path: z.string() }).strict();

/**
 * The investigator's three read-only tools, and nothing else, as the Messages API declares them.
 *
 * @example INVESTIGATOR_TOOLS.map((t) => t.name) // ["read_file", "grep_repo", "list_dir"]
 */
export const INVESTIGATOR_TOOLS: Tool[] = [
  {
    name: "read_file",
    description:
      "Read a text file of the pull request's head commit, each line prefixed by its number and a tab. Paths are relative to the repository root. Long files come back in parts: pass offset (the 1-based line to start at) to continue.",
    input_schema: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path relative to the repository root, e.g. src/auth/session.ts" },
        offset: { type: "integer", minimum: 1, description: "The 1-based line to start reading at (default 1)" },
        max_chars: { type: "integer", minimum: 1, description: "At most this many characters (the harness caps it)" },
      },
      required: ["path"],
      additionalProperties: false,
    },
  },
  {
    name: "grep_repo",
    description: "Search the head commit's files for a regular expression. Returns lines as path:line:text.",
    input_schema: {
      type: "object",
      properties: {
        pattern: {
          type: "string",
          description:
            "A regular expression in JavaScript syntax, matched per line by RE2 (no backreferences or lookaround), e.g. verifySession\\( or /expir/i",
        },
        glob: { type: "string", description: "Only files matching this glob, e.g. src/**/*.ts" },
        max_results: { type: "integer", minimum: 1, description: "At most this many matching lines" },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
  },
  {
    name: "list_dir",
    description: 'List a directory of the head commit ("" or "." for the repository root).',
    input_schema: {
      type: "object",
      properties: { path: { type: "string", description: "Directory path relative to the repository root" } },
      required: ["path"],
      additionalProperties: false,
    },
  },
];

/**
 * A `tool_use` block as the harness's `ToolCall`, or an error message when the model named an
 * unknown tool or gave arguments outside the schema.
 *
 * @example toToolCall({ type: "tool_use", id: "t1", name: "list_dir", input: { path: "" }, ... }) // { id: "t1", tool: "list_dir", args: { path: "" } }
 */
export function toToolCall(block: Pick<ToolUseBlock, "id" | "name" | "input">): ToolCall | string {
  const bad = (error: z.ZodError) =>
    `invalid arguments for ${block.name}: ${error.issues.map((i) => `${i.path.join(".") || "(input)"} ${i.message}`).join("; ")}`;
  switch (block.name) {
    case "read_file": {
      const args = ReadFileArgs.safeParse(block.input);
      return args.success ? { id: block.id, tool: "read_file", args: strip(args.data) } : bad(args.error);
    }
    case "grep_repo": {
      const args = GrepRepoArgs.safeParse(block.input);
      return args.success ? { id: block.id, tool: "grep_repo", args: strip(args.data) } : bad(args.error);
    }
    case "list_dir": {
      const args = ListDirArgs.safeParse(block.input);
      return args.success ? { id: block.id, tool: "list_dir", args: args.data } : bad(args.error);
    }
    default:
      return `unknown tool ${JSON.stringify(block.name)}: only read_file, grep_repo and list_dir exist`;
  }
}

/** Drops undefined optional fields (exactOptionalPropertyTypes-friendly, and tidy JSON). */
function strip<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
