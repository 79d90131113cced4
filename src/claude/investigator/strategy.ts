import type {
  ContentBlock,
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { Logger } from "pino";
import type { Strategy, StrategyAnswer, StrategyMove, ToolCall, TurnContext } from "../../investigator/strategy.js";
import type { ModelClient } from "../client.js";
import { REPORT_FORMAT, readReportText } from "./report-schema.js";
import { INVESTIGATOR_SYSTEM, firstTurn } from "./prompt.js";
import { INVESTIGATOR_TOOLS, toToolCall } from "./tools.js";
import { abortedCall } from "../aborted-call.js";
import type { PriceTable } from "../pricing.js";
import { redact } from "../redact.js";
import { responseText } from "../response-text.js";
import { usageOf } from "../response-usage.js";
import type { ModelSettings } from "../settings.js";
import { thinkingParam } from "../thinking-param.js";
import { ZERO_USAGE, addUsage, type Usage } from "../../domain/usage.js";

/** What the Claude investigator is built from; the same injected client as the specialists. */
export interface ModelStrategyDeps {
  client: ModelClient;
  settings: Pick<ModelSettings, "investigatorModel" | "thinking" | "effort" | "maxTokens">;
  prices: PriceTable;
  log: Logger;
}

/** A tool_use the strategy refused itself (bad arguments), answered as an error next turn. */
interface Refused {
  id: string;
  message: string;
}

/**
 * The investigator strategy on Claude: a tool loop over read_file, grep_repo and list_dir, one
 * Messages API call per `next`. The conversation lives in the instance (turn 1 starts a new one).
 * Tool results and the first turn are redacted. Bad output never throws: it becomes an
 * inconclusive answer; a network or API error does throw (the harness turns it into a report).
 *
 * @example const report = await runInvestigation({ strategy: createModelStrategy(deps), request, pr, root, limits });
 */
export function createModelStrategy(deps: ModelStrategyDeps): Strategy {
  let messages: MessageParam[] = [];
  let expected: string[] = [];
  let refused: Refused[] = [];
  /** The path each read_file call of the last turn asked for, so that its content is redacted by its format. */
  let readPaths: ReadonlyMap<string, string> = new Map();

  async function ask(ctx: TurnContext, usage: Usage, repairs: number): Promise<StrategyMove> {
    const lastTurn = ctx.remaining.turns <= 0 || ctx.remaining.tool_calls <= 0;
    const thinking = thinkingParam(deps.settings.investigatorModel, deps.settings.thinking);
    const params: MessageCreateParamsNonStreaming = {
      model: deps.settings.investigatorModel,
      max_tokens: deps.settings.maxTokens,
      system: [{ type: "text", text: INVESTIGATOR_SYSTEM, cache_control: { type: "ephemeral" } }],
      tools: INVESTIGATOR_TOOLS,
      messages: withCacheBreakpoint(messages),
      // On the last turn a tool call could not run: make the model answer.
      ...(lastTurn ? { tool_choice: { type: "none" } } : {}),
      // The final answer is constrained to the report's JSON schema (tool calls stay free).
      output_config: { format: REPORT_FORMAT, ...(deps.settings.effort ? { effort: deps.settings.effort } : {}) },
      ...(thinking ? { thinking } : {}),
    };
    let message: Message;
    try {
      message = await deps.client.messages.create(params, { signal: ctx.signal });
    } catch (error) {
      if (!ctx.signal.aborted) throw error;
      // Cut off by the harness after sending: what was sent is counted.
      const sent = JSON.stringify(params.system ?? "") + JSON.stringify(params.messages);
      throw abortedCall("the investigator's model call", { model: params.model, sent }, usage, deps.prices, error);
    }
    const total = addUsage(usage, usageOf(message, deps.prices, deps.log));
    messages.push({ role: "assistant", content: toParams(message.content) });

    if (message.stop_reason === "tool_use") {
      const calls: ToolCall[] = [];
      refused = [];
      for (const block of message.content) {
        if (block.type !== "tool_use") continue;
        const call = toToolCall(block);
        if (typeof call === "string") refused.push({ id: block.id, message: call });
        else calls.push(call);
      }
      expected = calls.map((c) => c.id);
      readPaths = new Map(calls.flatMap((c) => (c.tool === "read_file" ? [[c.id, c.args.path] as const] : [])));
      if (calls.length > 0) return { kind: "tools", calls, usage: total };
      if (repairs > 0) {
        // Every call was malformed: say why and ask once more, within the same turn.
        messages.push({ role: "user", content: resultBlocks(ctx) });
        return ask(ctx, total, repairs - 1);
      }
      return answer(inconclusive("the model asked only for tools that do not exist or with invalid arguments"), total);
    }
    if (message.stop_reason === "end_turn" || message.stop_reason === "stop_sequence") {
      return answer(readReport(message), total);
    }
    return answer(
      inconclusive(`the model stopped without an answer (${message.stop_reason ?? "no stop reason"})`),
      total,
    );
  }

  function resultBlocks(ctx: TurnContext): ContentBlockParam[] {
    const blocks: ContentBlockParam[] = [];
    for (const id of expected) {
      const result = ctx.results.find((r) => r.id === id);
      blocks.push(
        result
          ? toolResult(id, result.output, !result.ok)
          : toolResult(id, "not run: the harness stopped before this call", true),
      );
    }
    for (const r of refused) blocks.push(toolResult(r.id, r.message, true));
    expected = [];
    refused = [];
    return blocks;
  }

  return {
    name: "model",
    kind: "model",
    async next(ctx: TurnContext): Promise<StrategyMove> {
      if (ctx.turn === 1 || messages.length === 0) {
        messages = [{ role: "user", content: await firstTurn(ctx.request, ctx.pr) }];
        expected = [];
        refused = [];
      } else {
        const blocks = await redactResults(resultBlocks(ctx), readPaths);
        const left = ctx.remaining;
        const note =
          left.turns <= 0 || left.tool_calls <= 0
            ? "No budget is left for tools: answer now with the JSON object."
            : `Budget left: ${left.turns} turns, ${left.tool_calls} tool calls, ${left.chars} characters of file content.`;
        messages.push({ role: "user", content: [...blocks, { type: "text", text: note }] });
      }
      return ask(ctx, { ...ZERO_USAGE }, 1);
    },
  };
}

function answer(a: StrategyAnswer, usage: Usage): StrategyMove {
  return { kind: "answer", answer: a, usage };
}

function inconclusive(reason: string): StrategyAnswer {
  return { conclusive: false, answers: [], evidence: [], concerns: [], reason };
}

function readReport(message: Message): StrategyAnswer {
  const report = readReportText(responseText(message));
  if (!report.ok) return inconclusive(report.problem);
  const r = report.report;
  return {
    conclusive: r.conclusive,
    answers: r.answers,
    evidence: r.evidence,
    concerns: r.concerns,
    ...(r.reason !== undefined
      ? { reason: r.reason }
      : !r.conclusive
        ? { reason: "the model could not settle the question" }
        : {}),
  };
}

function toolResult(id: string, output: string, isError: boolean): ToolResultBlockParam {
  return {
    type: "tool_result",
    tool_use_id: id,
    content: output === "" ? "(empty)" : output,
    ...(isError ? { is_error: true } : {}),
  };
}

/** Tool results redacted; a file's content by its format too (the path it was read from). */
async function redactResults(
  blocks: ContentBlockParam[],
  paths: ReadonlyMap<string, string>,
): Promise<ContentBlockParam[]> {
  return Promise.all(
    blocks.map(async (b) =>
      b.type === "tool_result" && typeof b.content === "string"
        ? { ...b, content: (await redact(b.content, paths.get(b.tool_use_id))).text }
        : b,
    ),
  );
}

/** The response's blocks as request blocks (thinking blocks go back unchanged, as the API requires). */
function toParams(content: ContentBlock[]): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  for (const b of content) {
    if (b.type === "text") out.push({ type: "text", text: b.text });
    else if (b.type === "thinking") out.push({ type: "thinking", thinking: b.thinking, signature: b.signature });
    else if (b.type === "redacted_thinking") out.push({ type: "redacted_thinking", data: b.data });
    else if (b.type === "tool_use") out.push({ type: "tool_use", id: b.id, name: b.name, input: b.input });
  }
  // An assistant turn must not be empty.
  return out.length > 0 ? out : [{ type: "text", text: "(no content)" }];
}

/**
 * The conversation with one cache breakpoint on the newest user turn's last block, so each turn
 * reads the previous turns from the prompt cache (the system block holds the other breakpoint).
 */
function withCacheBreakpoint(messages: MessageParam[]): MessageParam[] {
  return messages.map((m, i) => {
    if (i !== messages.length - 1 || m.role !== "user") return m;
    const blocks: ContentBlockParam[] =
      typeof m.content === "string" ? [{ type: "text", text: m.content }] : [...m.content];
    const last = blocks[blocks.length - 1];
    if (last && (last.type === "text" || last.type === "tool_result")) {
      blocks[blocks.length - 1] = { ...last, cache_control: { type: "ephemeral" } };
    }
    return { ...m, content: blocks };
  });
}
