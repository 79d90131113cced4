import { addedLines } from "../../domain/patch.js";
import type { Strategy, StrategyMove, ToolCall, ToolResult, TurnContext } from "../strategy.js";
import { buildAnswer } from "./answer.js";
import { calledFunctions, definedFunctions, definitionName } from "./code-scan.js";
import { questionPattern } from "./question-terms.js";
import { newRunState, type PendingCall, type RunState } from "./run-state.js";
import { investigationTargets } from "./targets.js";
import { parseGrepOutput, parseReadOutput, type SourceLine } from "./tool-text.js";

const CODE_GLOB = "**/*.{ts,tsx,js,jsx,mjs,cjs,py}";
const LOGGING_GLOB = "**/{logging,logger,log}.{ts,js,mjs,cjs,json,yaml,yml,toml}";
const MAX_SYMBOLS = 8;
const MAX_HELPER_FILES = 4;
const MAX_LOGGING_FILES = 3;

/**
 * The model-free investigation strategy: reads the changed files, greps the symbols they change
 * and call, follows helpers one level, reads the logging setup, and compares removed checks
 * with the new code. Concerns cite SEC-03 (removed check, token logged from auth code) or DATA-01.
 * One instance serves many runs: each run's state is keyed by its own AbortSignal.
 *
 * @example const report = await runInvestigation({ strategy: createDeterministicStrategy(), ... });
 */
export function createDeterministicStrategy(): Strategy {
  const runs = new WeakMap<AbortSignal, RunState>();
  return {
    name: "deterministic",
    kind: "rules",
    async next(ctx: TurnContext): Promise<StrategyMove> {
      let state = runs.get(ctx.signal);
      if (!state) {
        state = newRunState();
        runs.set(ctx.signal, state);
      }
      absorb(state, ctx.results);
      for (;;) {
        if (state.phase === "answer" || ctx.remaining.turns <= 0) {
          return { kind: "answer", answer: buildAnswer(state, ctx.request, ctx.pr) };
        }
        const calls = plan(state, ctx);
        // The harness stops a run the moment a budget is reached, so never spend the last call.
        const affordable = calls.slice(0, Math.max(0, ctx.remaining.tool_calls - 1));
        if (calls.length > 0 && affordable.length === 0) state.phase = "answer";
        else if (affordable.length > 0) return { kind: "tools", calls: affordable };
      }
    },
  };
}

function plan(state: RunState, ctx: TurnContext): ToolCall[] {
  const calls: ToolCall[] = [];
  const add = (call: ToolCall, purpose: PendingCall): void => {
    calls.push(call);
    state.pending.set(call.id, purpose);
  };
  const id = (): string => `d${ctx.turn}-${calls.length + 1}`;
  const perRead = (wanted: number, reads: number): number =>
    Math.max(1, Math.min(wanted, Math.floor((ctx.remaining.chars - 1) / Math.max(1, reads + 1))));

  switch (state.phase) {
    case "start": {
      state.targets = investigationTargets(ctx.request, ctx.pr);
      for (const file of state.targets) {
        add(
          { id: id(), tool: "read_file", args: { path: file, max_chars: perRead(20_000, state.targets.length) } },
          { purpose: "target", file },
        );
      }
      add(
        {
          id: id(),
          tool: "grep_repo",
          args: { pattern: "/redact|censor|level|transport/i", glob: LOGGING_GLOB, max_results: 40 },
        },
        { purpose: "logging-grep" },
      );
      const question = ctx.request.origin === "human" ? questionPattern(ctx.request.question) : undefined;
      if (question) {
        add(
          {
            id: id(),
            tool: "grep_repo",
            args: { pattern: question, glob: "**/*.{ts,tsx,js,jsx,mjs,cjs,py,json,yaml,yml}", max_results: 60 },
          },
          { purpose: "question" },
        );
      }
      state.phase = "follow";
      return calls;
    }
    case "follow": {
      state.phase = "helpers";
      if (state.targets.every((t) => !state.files.has(t))) {
        state.phase = "answer";
        return [];
      }
      for (const file of state.loggingFiles.slice(0, MAX_LOGGING_FILES)) {
        if (!state.files.has(file))
          add(
            { id: id(), tool: "read_file", args: { path: file, max_chars: perRead(8_000, 3) } },
            { purpose: "logging-file", file },
          );
      }
      const symbols = symbolsToFollow(state, ctx);
      if (symbols.length > 0) {
        const pattern = `\\b(?:${symbols.join("|")})\\b`;
        add(
          { id: id(), tool: "grep_repo", args: { pattern, glob: CODE_GLOB, max_results: 200 } },
          { purpose: "symbols" },
        );
      }
      return calls;
    }
    case "helpers": {
      state.phase = "answer";
      const helperFiles = new Set<string>();
      for (const [name, def] of findHelpers(state)) {
        state.helpers.set(name, def);
        if (!state.files.has(def.file)) helperFiles.add(def.file);
      }
      for (const file of [...helperFiles].slice(0, MAX_HELPER_FILES)) {
        add(
          { id: id(), tool: "read_file", args: { path: file, max_chars: perRead(12_000, helperFiles.size) } },
          { purpose: "helper", file },
        );
      }
      return calls;
    }
    default:
      return [];
  }
}

/** Functions the change defines or touches, then the bare functions its added lines call. */
function symbolsToFollow(state: RunState, ctx: TurnContext): string[] {
  const symbols: string[] = [];
  const called: string[] = [];
  for (const target of state.targets) {
    const lines = state.files.get(target);
    if (!lines) continue;
    const patch = ctx.pr.files.find((f) => f.filename === target)?.patch;
    const added = addedLines(patch);
    const touched = added.length > 0 ? new Set(added.map((l) => l.line)) : new Set(lines.map((l) => l.line));
    const defs = definedFunctions(lines);
    // A function is changed when one of its lines was added: the nearest definition above it.
    const defLines = [...defs.entries()].sort((a, b) => a[1] - b[1]);
    for (const line of touched) {
      const owner = defLines.filter(([, at]) => at <= line).pop()?.[0];
      if (owner && !symbols.includes(owner)) symbols.push(owner);
    }
    const texts = lines.filter((l) => touched.has(l.line)).map((l) => l.text);
    for (const name of calledFunctions(texts)) if (!defs.has(name) && !called.includes(name)) called.push(name);
  }
  state.changedFunctions = symbols.slice(0, MAX_SYMBOLS);
  state.calledFunctions = called.filter((c) => !state.changedFunctions.includes(c));
  return [...state.changedFunctions, ...called].filter((s, i, all) => all.indexOf(s) === i).slice(0, MAX_SYMBOLS);
}

/** Called functions whose definition the symbol grep found in a file other than the caller. */
function findHelpers(state: RunState): Map<string, SourceLine> {
  const helpers = new Map<string, SourceLine>();
  for (const hit of state.symbolHits) {
    const name = definitionName(hit.text);
    if (!name || !state.calledFunctions.includes(name) || helpers.has(name)) continue;
    if (state.targets.includes(hit.file)) continue;
    helpers.set(name, hit);
  }
  return helpers;
}

function absorb(state: RunState, results: ToolResult[]): void {
  for (const r of results) {
    const purpose = state.pending.get(r.id);
    state.pending.delete(r.id);
    if (!purpose) continue;
    if (!r.ok) {
      if (purpose.file) state.unreadable.set(purpose.file, r.output);
      continue;
    }
    switch (purpose.purpose) {
      case "target":
      case "logging-file":
      case "helper":
        if (purpose.file) state.files.set(purpose.file, parseReadOutput(purpose.file, r.output));
        break;
      case "logging-grep":
        state.loggingFiles = [...new Set(parseGrepOutput(r.output).map((h) => h.file))];
        break;
      case "symbols":
        state.symbolHits = parseGrepOutput(r.output);
        break;
      case "question":
        state.questionHits = parseGrepOutput(r.output);
        break;
    }
  }
}
