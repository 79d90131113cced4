import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PullRequest } from "../../src/domain/pull-request.js";
import { runInvestigation, type HarnessProgress, type InvestigationLimits } from "../../src/investigator/harness.js";
import type { InvestigationRequest } from "../../src/domain/investigation.js";
import type { Strategy, StrategyMove, ToolCall, TurnContext } from "../../src/investigator/strategy.js";

const pr: PullRequest = {
  repo: "acme/accounts",
  number: 1,
  title: "t",
  body: "",
  author: "a",
  draft: false,
  labels: [],
  baseRef: "main",
  baseSha: "b".repeat(40),
  headRef: "x",
  headSha: "a".repeat(40),
  url: "u",
  files: [],
};
const request: InvestigationRequest = { question: "Is it safe?", origin: "machine", findings: [] };
const limits: InvestigationLimits = { maxTurns: 5, maxToolCalls: 10, maxFileChars: 10_000, timeoutMs: 5_000 };
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "gate-harness-"));
  writeFileSync(path.join(root, "a.txt"), "0123456789\n".repeat(50));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A strategy that plays a fixed list of moves and records what it saw. */
function scripted(
  moves: Array<StrategyMove | ((ctx: TurnContext) => Promise<StrategyMove>)>,
): Strategy & { seen: TurnContext[] } {
  const seen: TurnContext[] = [];
  return {
    name: "scripted",
    kind: "model",
    seen,
    async next(ctx) {
      seen.push(ctx);
      const move = moves[ctx.turn - 1] ?? {
        kind: "answer",
        answer: { conclusive: true, answers: ["done"], evidence: [], concerns: [] },
      };
      return typeof move === "function" ? move(ctx) : move;
    },
  };
}

const list = (id: string): ToolCall => ({ id, tool: "list_dir", args: { path: "" } });
const readA = (id: string, max?: number): ToolCall => ({
  id,
  tool: "read_file",
  args: { path: "a.txt", ...(max ? { max_chars: max } : {}) },
});
/** a.txt's first line, as the tools show it. */
const LINE_1 = { file: "a.txt", line: 1, excerpt: "0123456789" };
const answer = (conclusive: boolean, evidence = [LINE_1]): StrategyMove => ({
  kind: "answer",
  answer: { conclusive, answers: ["x"], evidence, concerns: [], ...(conclusive ? {} : { reason: "not sure" }) },
});

describe("runInvestigation", () => {
  it("resolves with the strategy's answer, counting calls, chars and summed usage", async () => {
    const progress: HarnessProgress[] = [];
    const strategy = scripted([
      {
        kind: "tools",
        calls: [list("1"), readA("2", 22)],
        usage: { model_calls: 1, input_tokens: 100, cost_usd: 0.001 },
      },
      { ...answer(true), usage: { model_calls: 1, output_tokens: 40, cost_usd: 0.002 } },
    ]);
    const report = await runInvestigation({ strategy, request, pr, root, limits, onProgress: (p) => progress.push(p) });
    expect(report).toMatchObject({ status: "resolved", answers: ["x"], turns: 2, tool_calls: 2, chars_read: 22 });
    expect(report.reason).toBeUndefined();
    expect(report.usage).toEqual({
      model_calls: 2,
      input_tokens: 100,
      output_tokens: 40,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cost_usd: 0.003,
    });
    expect(progress).toEqual([
      { turn: 1, tool_calls: 1, chars_read: 0, cost_usd: 0.001 },
      { turn: 1, tool_calls: 2, chars_read: 22, cost_usd: 0.001 },
    ]);
    expect(strategy.seen[1]?.results.map((r) => [r.id, r.ok, r.chars])).toEqual([
      ["1", true, 0],
      ["2", true, 22],
    ]);
    expect(strategy.seen[1]?.remaining).toEqual({ turns: 3, tool_calls: 8, chars: 9_978 });
  });

  it("an inconclusive answer stays inconclusive, with the strategy's reason", async () => {
    const report = await runInvestigation({ strategy: scripted([answer(false)]), request, pr, root, limits });
    expect(report).toMatchObject({ status: "inconclusive", reason: "not sure" });
  });

  it("stops at max tool calls without running the call over the budget", async () => {
    const strategy = scripted([{ kind: "tools", calls: [list("1"), list("2"), list("3"), list("4")] }]);
    const report = await runInvestigation({ strategy, request, pr, root, limits: { ...limits, maxToolCalls: 3 } });
    expect(report).toMatchObject({
      status: "inconclusive",
      tool_calls: 3,
      reason: "budget: max tool calls (3) reached",
    });
    expect(strategy.seen).toHaveLength(1);
  });

  it("runs no call at all when the tool budget is zero", async () => {
    const report = await runInvestigation({
      strategy: scripted([{ kind: "tools", calls: [list("1")] }]),
      request,
      pr,
      root,
      limits: { ...limits, maxToolCalls: 0 },
    });
    expect(report).toMatchObject({
      status: "inconclusive",
      tool_calls: 0,
      reason: "budget: max tool calls (0) reached",
    });
  });

  it("stops at max turns", async () => {
    const forever: Strategy = {
      name: "forever",
      kind: "model",
      next: async (ctx) => ({ kind: "tools", calls: [list(String(ctx.turn))] }),
    };
    const report = await runInvestigation({ strategy: forever, request, pr, root, limits: { ...limits, maxTurns: 3 } });
    expect(report).toMatchObject({
      status: "inconclusive",
      turns: 3,
      tool_calls: 2,
      reason: "budget: max turns (3) reached",
    });
  });

  it("truncates a read to the chars left, then stops with the budget spent", async () => {
    const strategy = scripted([{ kind: "tools", calls: [readA("1", 30), readA("2", 500), list("3")] }]);
    const report = await runInvestigation({ strategy, request, pr, root, limits: { ...limits, maxFileChars: 100 } });
    expect(report).toMatchObject({
      status: "inconclusive",
      chars_read: 100,
      tool_calls: 2,
      reason: "budget: max file chars (100) reached",
    });
  });

  it("cuts a grep whose output is over the chars left", async () => {
    let seenOutput = "";
    const strategy = scripted([
      { kind: "tools", calls: [{ id: "g", tool: "grep_repo", args: { pattern: "0123" } }] },
      async (ctx) => {
        seenOutput = ctx.results[0]?.output ?? "";
        return answer(true);
      },
    ]);
    const report = await runInvestigation({ strategy, request, pr, root, limits: { ...limits, maxFileChars: 50 } });
    expect(report).toMatchObject({
      status: "inconclusive",
      chars_read: 50,
      reason: "budget: max file chars (50) reached",
    });
    expect(seenOutput).toBe("");
    expect(strategy.seen).toHaveLength(1);
  });

  it("returns tool errors to the strategy as ok: false", async () => {
    const strategy = scripted([
      {
        kind: "tools",
        calls: [
          { id: "1", tool: "read_file", args: { path: "../etc/passwd" } },
          { id: "2", tool: "read_file", args: { path: "missing.ts" } },
          readA("3"),
        ],
      },
      answer(true),
    ]);
    const report = await runInvestigation({ strategy, request, pr, root, limits });
    expect(report.status).toBe("resolved");
    const results = strategy.seen[1]?.results ?? [];
    expect(results.map((r) => r.ok)).toEqual([false, false, true]);
    expect(results[0]?.output).toMatch(/^error: .*climbs out/);
    expect(results[1]?.output).toMatch(/not found: missing\.ts/);
  });

  it("catches a tool that throws unexpectedly", async () => {
    const strategy = scripted([{ kind: "tools", calls: [list("1")] }, answer(true)]);
    const report = await runInvestigation({
      strategy,
      request,
      pr,
      root,
      limits,
      tools: async () => {
        throw new TypeError("tool exploded");
      },
    });
    // Nothing was read, so the answer's evidence cannot be verified.
    expect(report).toMatchObject({
      status: "inconclusive",
      reason: "unverified evidence: a.txt:1 was not read by a tool in this investigation",
    });
    expect(strategy.seen[1]?.results[0]).toMatchObject({ ok: false, output: "error: tool exploded", chars: 0 });
  });

  it("a throwing strategy gives an inconclusive report", async () => {
    const boom: Strategy = {
      name: "boom",
      kind: "model",
      next: async () => {
        throw new Error("model said no");
      },
    };
    const report = await runInvestigation({ strategy: boom, request, pr, root, limits });
    expect(report).toMatchObject({ status: "inconclusive", reason: "strategy boom failed: model said no", turns: 1 });
  });

  it("a strategy that throws synchronously or returns junk gives an inconclusive report", async () => {
    const sync: Strategy = {
      name: "sync",
      kind: "model",
      next: () => {
        throw new Error("sync throw");
      },
    };
    expect((await runInvestigation({ strategy: sync, request, pr, root, limits })).reason).toMatch(/sync throw/);
    const junk = { name: "junk", kind: "model", next: async () => ({ kind: "dance" }) } as unknown as Strategy;
    expect((await runInvestigation({ strategy: junk, request, pr, root, limits })).reason).toMatch(/unknown move/);
  });

  it("times out a strategy that never answers, and aborts the signal it was given", async () => {
    let signal: AbortSignal | undefined;
    const stuck: Strategy = {
      name: "stuck",
      kind: "model",
      next: (ctx) => {
        signal = ctx.signal;
        return new Promise<StrategyMove>(() => undefined);
      },
    };
    const started = Date.now();
    const report = await runInvestigation({ strategy: stuck, request, pr, root, limits: { ...limits, timeoutMs: 50 } });
    expect(report).toMatchObject({ status: "inconclusive", reason: "timeout after 50 ms" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(signal?.aborted).toBe(true);
  });

  it("counts what a model call cut off by the timeout reports it spent", async () => {
    const billed: Strategy = {
      name: "billed",
      kind: "model",
      next: (ctx) =>
        new Promise<StrategyMove>((_, reject) =>
          ctx.signal.addEventListener("abort", () =>
            reject(
              Object.assign(new Error("aborted"), { usage: { model_calls: 1, input_tokens: 4000, cost_usd: 0.012 } }),
            ),
          ),
        ),
    };
    const report = await runInvestigation({
      strategy: billed,
      request,
      pr,
      root,
      limits: { ...limits, timeoutMs: 50 },
    });
    expect(report).toMatchObject({ status: "inconclusive", reason: "timeout after 50 ms" });
    expect(report.usage).toMatchObject({ model_calls: 1, input_tokens: 4000, cost_usd: 0.012 });
  });

  it("counts what a failing strategy call reports it spent", async () => {
    const failing: Strategy = {
      name: "failing",
      kind: "model",
      next: async () => {
        throw Object.assign(new Error("invalid answer"), { usage: { model_calls: 2, cost_usd: 0.02 } });
      },
    };
    const report = await runInvestigation({ strategy: failing, request, pr, root, limits });
    expect(report.status).toBe("inconclusive");
    expect(report.usage).toMatchObject({ model_calls: 2, cost_usd: 0.02 });
  });

  it("stops when the outer signal aborts mid-run", async () => {
    const outer = new AbortController();
    const strategy = scripted([
      { kind: "tools", calls: [list("1")] },
      async () => {
        outer.abort();
        return new Promise<StrategyMove>(() => undefined);
      },
    ]);
    const report = await runInvestigation({ strategy, request, pr, root, limits, signal: outer.signal });
    expect(report).toMatchObject({
      status: "inconclusive",
      tool_calls: 1,
      reason: "aborted before the investigation finished",
    });
  });

  it("does not start when the outer signal is already aborted", async () => {
    const outer = new AbortController();
    outer.abort();
    const strategy = scripted([answer(true)]);
    const report = await runInvestigation({ strategy, request, pr, root, limits, signal: outer.signal });
    expect(report).toMatchObject({ status: "inconclusive", reason: "aborted before the investigation finished" });
  });

  it("reports a missing root as inconclusive without calling the strategy", async () => {
    const strategy = scripted([answer(true)]);
    expect(await runInvestigation({ strategy, request, pr, root: undefined, limits })).toMatchObject({
      status: "inconclusive",
      reason: "no snapshot of the repository to read",
      turns: 0,
    });
    expect(await runInvestigation({ strategy, request, pr, root: path.join(root, "nope"), limits })).toMatchObject({
      status: "inconclusive",
      reason: "the repository snapshot does not exist",
    });
    expect(strategy.seen).toHaveLength(0);
  });

  it("survives a progress listener that throws", async () => {
    const strategy = scripted([{ kind: "tools", calls: [readA("1")] }, answer(true)]);
    const report = await runInvestigation({
      strategy,
      request,
      pr,
      root,
      limits,
      onProgress: () => {
        throw new Error("ui down");
      },
    });
    expect(report.status).toBe("resolved");
  });
});

describe("a clearance counts only with evidence the harness verified", () => {
  it("a line shown by grep_repo or read_file, quoted as it reads, is verified", async () => {
    const viaGrep = scripted([
      { kind: "tools", calls: [{ id: "g", tool: "grep_repo", args: { pattern: "0123", max_results: 3 } }] },
      answer(true, [{ ...LINE_1, line: 3, file: "./a.txt" }]),
    ]);
    expect((await runInvestigation({ strategy: viaGrep, request, pr, root, limits })).status).toBe("resolved");
    const viaRead = scripted([
      { kind: "tools", calls: [readA("r")] },
      answer(true, [{ file: "a.txt", line: 50, excerpt: "  0123456789  " }]),
    ]);
    expect((await runInvestigation({ strategy: viaRead, request, pr, root, limits })).status).toBe("resolved");
  });

  it("a clearance that cites nothing is not one", async () => {
    const report = await runInvestigation({
      strategy: scripted([{ kind: "tools", calls: [readA("1")] }, answer(true, [])]),
      request,
      pr,
      root,
      limits,
    });
    expect(report).toMatchObject({
      status: "inconclusive",
      reason: "unverified: the answer clears the question but cites no line that shows it",
    });
  });

  it("a line no tool showed, a line of a file never read, or an excerpt the line does not say is refused, naming each", async () => {
    const cited = [
      { file: "a.txt", line: 40, excerpt: "0123456789" },
      { file: "src/auth/session.ts", line: 3, excerpt: "if (expired) return null;" },
      { file: "a.txt", line: 1, excerpt: "verifySignature(token)" },
    ];
    // Only the first 2 lines of a.txt are shown (22 characters).
    const report = await runInvestigation({
      strategy: scripted([{ kind: "tools", calls: [readA("1", 22)] }, answer(true, cited)]),
      request,
      pr,
      root,
      limits,
    });
    expect(report.status).toBe("inconclusive");
    expect(report.reason).toBe(
      "unverified evidence: a.txt:40 was not read by a tool in this investigation; src/auth/session.ts:3 was not read by a tool in this investigation; a.txt:1 does not say `verifySignature(token)`",
    );
    // The answer is kept for the person who decides.
    expect(report.answers).toEqual(["x"]);
  });

  it("an answer that raises a concern needs no verified clearance: the concern goes to a person anyway", async () => {
    const concern = {
      policy: "SEC-03",
      message: "logs the token",
      evidence: { file: "b.ts", line: 9, excerpt: "log(token)" },
    };
    const strategy = scripted([
      { kind: "answer", answer: { conclusive: true, answers: [], evidence: [], concerns: [concern] } },
    ]);
    expect(await runInvestigation({ strategy, request, pr, root, limits })).toMatchObject({
      status: "resolved",
      concerns: [concern],
    });
  });
});
