import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthenticationError } from "@anthropic-ai/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runInvestigation, type InvestigationLimits } from "../../../src/investigator/harness.js";
import type { InvestigationRequest } from "../../../src/domain/investigation.js";
import type { StrategyMove, ToolResult, TurnContext } from "../../../src/investigator/strategy.js";
import { createModelStrategy } from "../../../src/claude/investigator/strategy.js";
import { DEFAULT_PRICES } from "../../../src/claude/pricing.js";
import {
  startFakeAnthropic,
  textMessage,
  toolUseMessage,
  unauthorized,
  type FakeAnthropic,
  type MessagesRequestBody,
} from "../../fakes/anthropic-api.js";
import { AWS_KEY_ID, addedPatch, detectorFinding, fakeClient, file, pr, settings, silentLog } from "../builders.js";

const REPORT = {
  answers: ["verifySession still checks expiry before returning the user."],
  evidence: [{ file: "src/auth/session.ts", line: 3, excerpt: "if (s.expiresAt < now) return null;" }],
  concerns: [],
  conclusive: true,
};

const REQUEST: InvestigationRequest = {
  question: "Does the refactored session check still verify expiry?",
  origin: "machine",
  findings: [
    detectorFinding({
      policy: "SEC-03",
      severity: "high",
      blocking: false,
      needs_more_context: true,
      file: "src/auth/session.ts",
      line: 2,
      message: "session validation changed",
      detector: "auth-change",
    }),
  ],
};

const PR = pr([
  file("src/auth/session.ts", addedPatch(["export function verifySession(s) {", "  return check(s);", "}"])),
]);
const LIMITS: InvestigationLimits = { maxTurns: 6, maxToolCalls: 10, maxFileChars: 50_000, timeoutMs: 10_000 };

let api: FakeAnthropic;
let root: string;
beforeEach(async () => {
  api = await startFakeAnthropic();
  root = await mkdtemp(join(tmpdir(), "gate-model-inv-"));
  await mkdir(join(root, "src/auth"), { recursive: true });
  await writeFile(
    join(root, "src/auth/session.ts"),
    [
      "export function verifySession(s) {",
      `  const key = "${AWS_KEY_ID}";`,
      "  if (s.expiresAt < now) return null;",
      "  return s.user;",
      "}",
      "",
    ].join("\n"),
  );
});
afterEach(async () => {
  await api.close();
  await rm(root, { recursive: true, force: true });
});

function strategy(env: Record<string, string> = {}) {
  return createModelStrategy({
    client: fakeClient(api.url),
    settings: settings(env),
    prices: DEFAULT_PRICES,
    log: silentLog,
  });
}

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean; cache_control?: unknown };

function lastUserBlocks(body: MessagesRequestBody | undefined): Block[] {
  const last = body?.messages[body.messages.length - 1];
  return Array.isArray(last?.content) ? (last.content as Block[]) : [];
}

function ctx(turn: number, results: ToolResult[], signal = new AbortController().signal): TurnContext {
  return { request: REQUEST, pr: PR, turn, results, remaining: { turns: 5, tool_calls: 8, chars: 40_000 }, signal };
}

describe("the Claude investigator strategy", () => {
  it("runs a 3-turn tool loop under the real harness and answers with evidence", async () => {
    api.enqueue(
      toolUseMessage([{ id: "toolu_1", name: "list_dir", input: { path: "src/auth" } }], {
        input_tokens: 900,
        output_tokens: 40,
      }),
      toolUseMessage(
        [
          { id: "toolu_2", name: "read_file", input: { path: "src/auth/session.ts" } },
          { id: "toolu_3", name: "grep_repo", input: { pattern: "verifySession\\(" } },
        ],
        { input_tokens: 1400, output_tokens: 60, cache_read_input_tokens: 800 },
      ),
      textMessage(REPORT, { input_tokens: 2000, output_tokens: 120, cache_read_input_tokens: 1200 }),
    );
    const report = await runInvestigation({ strategy: strategy(), request: REQUEST, pr: PR, root, limits: LIMITS });

    expect(report.status).toBe("resolved");
    expect(report.answers).toEqual(REPORT.answers);
    expect(report.evidence).toEqual(REPORT.evidence);
    expect(report.turns).toBe(3);
    expect(report.tool_calls).toBe(3);
    expect(report.usage.model_calls).toBe(3);
    expect(report.usage.input_tokens).toBe(4300);
    expect(report.usage.cache_read_input_tokens).toBe(2000);
    expect(report.usage.cost_usd).toBeGreaterThan(0);

    expect(api.requests).toHaveLength(3);
    const first = api.requests[0]?.body;
    expect(first?.tools?.map((t) => t.name)).toEqual(["read_file", "grep_repo", "list_dir"]);
    const system = first?.system as Array<{ cache_control?: unknown }>;
    expect(system[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(JSON.stringify(first?.messages)).toContain(REQUEST.question);

    // Turn 3 carries both results of turn 2, matched by id, after the whole conversation so far.
    const third = api.requests[2]?.body;
    expect(third?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    const results = lastUserBlocks(third).filter((b) => b.type === "tool_result");
    expect(results.map((b) => b.tool_use_id)).toEqual(["toolu_2", "toolu_3"]);
    expect(results.every((b) => b.is_error !== true)).toBe(true);
    expect(JSON.stringify(results[0]?.content)).toContain("expiresAt");
    // One moving cache breakpoint on the newest user turn only.
    const breakpoints = (third?.messages ?? [])
      .flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []))
      .filter((b) => b.cache_control);
    expect(breakpoints).toHaveLength(1);

    // The key read from the snapshot never went back to the model.
    for (const r of api.requests) expect(r.raw).not.toContain(AWS_KEY_ID);
    expect(api.requests[2]?.raw).toContain("[REDACTED:");
  });

  it("marks a failed tool call as is_error in the next turn", async () => {
    api.enqueue(
      toolUseMessage([{ id: "toolu_9", name: "read_file", input: { path: "src/missing.ts" } }]),
      textMessage({ ...REPORT, conclusive: false, reason: "the file does not exist" }),
    );
    const report = await runInvestigation({ strategy: strategy(), request: REQUEST, pr: PR, root, limits: LIMITS });
    expect(report.status).toBe("inconclusive");
    expect(report.reason).toBe("the file does not exist");
    const blocks = lastUserBlocks(api.requests[1]?.body);
    expect(blocks[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_9", is_error: true });
  });

  it("answers inconclusive (never throws) when the final text is not the report JSON", async () => {
    const s = strategy();
    api.enqueue(textMessage("I think it is probably fine."));
    const move: StrategyMove = await s.next(ctx(1, []));
    expect(move.kind).toBe("answer");
    if (move.kind !== "answer") return;
    expect(move.answer.conclusive).toBe(false);
    expect(move.answer.reason).toMatch(/not the report's JSON/);
    expect(move.usage?.model_calls).toBe(1);
  });

  it("asks for the report's JSON schema as output_config.format, and fails closed on anything else", async () => {
    // The API constrains the final answer to the schema; prose around it, or a fenced block, is not that answer.
    api.enqueue(textMessage(`Here is the report:\n\`\`\`json\n${JSON.stringify(REPORT)}\n\`\`\``));
    const fenced = await strategy().next(ctx(1, []));
    expect(fenced).toMatchObject({ kind: "answer", answer: { conclusive: false, answers: [] } });
    const format = api.requests[0]?.body?.output_config?.format;
    expect(format?.type).toBe("json_schema");
    expect(JSON.stringify(format?.schema)).toContain("conclusive");

    api.enqueue(textMessage({ ...REPORT, conclusive: "yes" }));
    const invalid = await strategy().next(ctx(1, []));
    expect(invalid).toMatchObject({
      kind: "answer",
      answer: { conclusive: false, reason: expect.stringMatching(/report schema/) },
    });

    api.enqueue(textMessage(REPORT));
    const valid = await strategy().next(ctx(1, []));
    expect(valid).toMatchObject({ kind: "answer", answer: { conclusive: true, answers: REPORT.answers } });
  });

  it("answers a tool call with bad arguments itself and asks again within the turn", async () => {
    api.enqueue(
      toolUseMessage([{ id: "toolu_bad", name: "run_shell", input: { cmd: "cat /etc/passwd" } }]),
      toolUseMessage([{ id: "toolu_ok", name: "list_dir", input: { path: "" } }]),
    );
    const move = await strategy().next(ctx(1, []));
    expect(move).toMatchObject({ kind: "tools", calls: [{ id: "toolu_ok", tool: "list_dir", args: { path: "" } }] });
    expect(move.usage?.model_calls).toBe(2);
    const blocks = lastUserBlocks(api.requests[1]?.body);
    expect(blocks[0]).toMatchObject({ tool_use_id: "toolu_bad", is_error: true });
    expect(JSON.stringify(blocks[0]?.content)).toMatch(/unknown tool/);
  });

  it("forbids tools on the last turn so the model must answer", async () => {
    api.enqueue(textMessage(REPORT));
    await strategy().next({ ...ctx(1, []), remaining: { turns: 0, tool_calls: 3, chars: 100 } });
    expect(api.requests[0]?.body?.tool_choice).toEqual({ type: "none" });
  });

  it("lets an API error throw, and the harness turns it into an inconclusive report", async () => {
    api.enqueue(unauthorized());
    await expect(strategy().next(ctx(1, []))).rejects.toBeInstanceOf(AuthenticationError);
    api.enqueue(unauthorized());
    const report = await runInvestigation({ strategy: strategy(), request: REQUEST, pr: PR, root, limits: LIMITS });
    expect(report.status).toBe("inconclusive");
    expect(report.reason).toMatch(/strategy model failed/);
  });
});
