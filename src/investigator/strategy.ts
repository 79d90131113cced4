import type { PullRequest } from "../domain/pull-request.js";
import type { Usage } from "../domain/usage.js";
import type { Concern, Evidence, InvestigationRequest } from "../domain/investigation.js";

/** The three read-only tools, and nothing else. */
export type ToolCall =
  | { id: string; tool: "read_file"; args: { path: string; offset?: number; max_chars?: number } }
  | { id: string; tool: "grep_repo"; args: { pattern: string; glob?: string; max_results?: number } }
  | { id: string; tool: "list_dir"; args: { path: string } };

/** What the harness hands back for one tool call. `ok: false` carries an error message for the strategy. */
export interface ToolResult {
  id: string;
  tool: ToolCall["tool"];
  ok: boolean;
  /** The tool's output as text (file content, grep lines `path:line:text`, or directory entries). */
  output: string;
  /** Characters of file content this call read (counted against the budget). */
  chars: number;
}

/** What a strategy sees at each turn. */
export interface TurnContext {
  request: InvestigationRequest;
  pr: PullRequest;
  /** 1-based turn number. */
  turn: number;
  /** Results of the calls the strategy asked for in the previous turn (empty on turn 1). */
  results: ToolResult[];
  /** What is left of each budget, as the harness counts it. */
  remaining: { turns: number; tool_calls: number; chars: number };
  signal: AbortSignal;
}

/** A strategy's final word. The harness adds the counts and the status. */
export interface StrategyAnswer {
  /** False when the strategy itself could not reach a conclusion. */
  conclusive: boolean;
  answers: string[];
  evidence: Evidence[];
  concerns: Concern[];
  reason?: string;
}

/** One turn's move: call tools, or answer. `usage` is the model usage of producing this move. */
export type StrategyMove =
  | { kind: "tools"; calls: ToolCall[]; usage?: Partial<Usage> }
  | { kind: "answer"; answer: StrategyAnswer; usage?: Partial<Usage> };

/**
 * Drives an investigation one turn at a time. The harness, not the strategy, counts turns,
 * tool calls and characters, and stops it when a count is reached.
 */
export interface Strategy {
  name: string;
  /**
   * `rules` for the deterministic strategy, whose clearances follow its own rules; `model` for any
   * other, whose clearance of a SEC-03 question must cite a line that shows the check.
   */
  kind: "rules" | "model";
  next(ctx: TurnContext): Promise<StrategyMove>;
}
