import path from "node:path";
import type { Evidence } from "../domain/investigation.js";
import type { ToolCall, ToolResult } from "./strategy.js";

/**
 * The lines an investigation's tools really showed it, by file: what `read_file` returned and the
 * lines `grep_repo` matched. Only the harness fills it, from the tools' own output, so a strategy
 * (a model) cannot claim to have read what it did not.
 */
export class LinesRead {
  private readonly byFile = new Map<string, Map<number, string>>();

  /** Records what one successful tool call showed. */
  record(call: ToolCall, result: Pick<ToolResult, "ok" | "output">): void {
    if (!result.ok) return;
    if (call.tool === "read_file") {
      const file = normalizePath(call.args.path);
      for (const raw of result.output.split("\n")) {
        const m = /^(\d+)\t(.*)$/.exec(raw);
        if (m) this.add(file, Number(m[1]), m[2] ?? "");
      }
    } else if (call.tool === "grep_repo") {
      for (const raw of result.output.split("\n")) {
        const m = /^([^:\n#][^:\n]*):(\d+):(.*)$/.exec(raw);
        if (m) this.add(normalizePath(m[1] ?? ""), Number(m[2]), m[3] ?? "");
      }
    }
  }

  /** The text a tool showed for this line, if one did. */
  text(file: string, line: number): string | undefined {
    return this.byFile.get(normalizePath(file))?.get(line);
  }

  private add(file: string, line: number, text: string): void {
    let lines = this.byFile.get(file);
    if (!lines) {
      lines = new Map();
      this.byFile.set(file, lines);
    }
    // A longer view of the same line (read_file after a truncated grep) wins.
    if ((lines.get(line)?.length ?? -1) < text.length) lines.set(line, text);
  }
}

/**
 * A repository-relative path as the tools write it: `./lib/a.ts` and `lib//a.ts` are `lib/a.ts`.
 *
 * @example normalizePath("./lib//a.ts") // "lib/a.ts"
 */
export function normalizePath(p: string): string {
  return path.posix
    .normalize(p.replace(/\\/g, "/"))
    .replace(/^(\.\/)+/, "")
    .replace(/^\/+/, "");
}

const squash = (s: string): string => s.replace(/\s+/g, " ").trim();

/** Does the quoted excerpt say what the line says (allowing for trimming and `...` shortening)? */
function quotes(excerpt: string, line: string): boolean {
  const e = squash(excerpt)
    .replace(/(\.\.\.|\u2026)$/, "")
    .trim();
  const t = squash(line);
  if (e === "" || t === "") return false;
  return t.includes(e) || (t.length >= 12 && e.includes(t)) || (e.length >= 40 && t.includes(e.slice(0, 40)));
}

/**
 * Checks an answer's evidence against what the tools showed: every cited line must have been
 * read by a tool in this investigation (so it exists in the snapshot), and its excerpt must say
 * what that line says. Returns one problem per evidence item that fails, empty when all hold.
 *
 * @example unverifiedEvidence([{ file: "src/a.ts", line: 3, excerpt: "x" }], lines) // ["src/a.ts:3 was not read by a tool in this investigation"]
 */
export function unverifiedEvidence(evidence: readonly Evidence[], lines: LinesRead): string[] {
  const problems: string[] = [];
  for (const e of evidence) {
    const where = `${String(e?.file)}:${String(e?.line)}`;
    if (typeof e?.file !== "string" || !Number.isInteger(e.line)) {
      problems.push(`${where} is not a file and line`);
      continue;
    }
    const text = lines.text(e.file, e.line);
    if (text === undefined) problems.push(`${where} was not read by a tool in this investigation`);
    else if (!quotes(String(e.excerpt ?? ""), text))
      problems.push(`${where} does not say \`${squash(String(e.excerpt ?? "")).slice(0, 80)}\``);
  }
  return problems;
}
