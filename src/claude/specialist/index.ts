import { AnthropicError } from "@anthropic-ai/sdk";
import { zodOutputFormat } from "@anthropic-ai/sdk/helpers/zod";
import type { Message, MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";
import type { Logger } from "pino";
import { SEVERITY_RANK, type Finding } from "../../domain/finding.js";
import type { Specialist, SpecialistInput, SpecialistOutput } from "../../domain/specialist.js";
import { prKey } from "../../domain/pull-request.js";
import type { Policy } from "../../domain/policy.js";
import { rulesReviewer } from "../../policy/rules-reviewer.js";
import type { ModelClient } from "../client.js";
import { estimateTokens, packHunks } from "../input-budget.js";
import { abortedCall } from "../aborted-call.js";
import { ModelOutputError } from "../model-output-error.js";
import type { PriceTable } from "../pricing.js";
import { redact, redactAll } from "../redact.js";
import { responseText } from "../response-text.js";
import { usageOf } from "../response-usage.js";
import type { ModelSettings } from "../settings.js";
import { thinkingParam } from "../thinking-param.js";
import type { TokenCounter } from "../token-counter.js";
import { ZERO_USAGE, addUsage, type Usage } from "../../domain/usage.js";
import { investigationsText, systemBlocks, userMessage } from "./prompt.js";
import { SpecialistAnswerSchema, type SpecialistAnswer } from "./schema.js";

/** What the Claude specialist is built from; the lead builds the client once and injects it. */
export interface ModelSpecialistDeps {
  client: ModelClient;
  settings: Pick<ModelSettings, "specialistModel" | "thinking" | "effort" | "maxTokens" | "maxInputTokens">;
  prices: PriceTable;
  log: Logger;
  /** The Messages API's token counts (cached per input); without it the diff is fitted by the character estimate alone. */
  tokens?: TokenCounter;
}

/** Room kept for the rest of the prompt's wording and the schema (estimated tokens). */
const PROMPT_MARGIN_TOKENS = 1500;
/** The largest max_tokens a truncation retry asks for. */
const MAX_RETRY_TOKENS = 32_000;

/**
 * A specialist on Claude. One call per review (one retry when the answer is truncated, not JSON,
 * not the schema, or cites a policy outside the specialty; then `ModelOutputError`). Structured
 * output via `output_config.format` (kept with thinking on, unlike a forced tool call). Everything
 * sent is redacted first. It returns its own findings plus every detector finding (settled by the
 * newest machine investigation, as the rules reviewer settles them) and the investigation's concerns.
 *
 * @example const security = createModelSpecialist({ client, settings, prices: settings.prices, log });
 */
export function createModelSpecialist(deps: ModelSpecialistDeps): Specialist {
  const format = zodOutputFormat(SpecialistAnswerSchema);
  return {
    kind: "model",
    async review(input: SpecialistInput): Promise<SpecialistOutput> {
      const policies = input.policies.filter((p) => p.specialty === input.specialty);
      // The detectors' findings, settled by the newest machine investigation exactly as the rules
      // reviewer settles them (else a detector's needs_more_context outlives the investigation
      // that answered it and every review loops until the budget is spent: docs/design.md, reason 1).
      const standing = (await rulesReviewer.review(input)).findings;
      if (policies.length === 0 || input.pr.files.length === 0) {
        // Nothing to review against (or nothing left to read at this head): no call, the detectors' findings stand.
        return { findings: standing, verdicts: [], usage: { ...ZERO_USAGE }, notReviewed: [] };
      }
      const outputConfig = { format, ...(deps.settings.effort ? { effort: deps.settings.effort } : {}) };
      const { system, user, dropped } = await buildRequest(input, policies, deps.settings.maxInputTokens, {
        ...(deps.tokens ? { tokens: deps.tokens } : {}),
        model: deps.settings.specialistModel,
        outputConfig: outputConfig,
      });
      const log = deps.log.child({ specialty: input.specialty, pr: prKey(input.pr) });

      let usage: Usage = { ...ZERO_USAGE };
      let maxTokens = deps.settings.maxTokens;
      let problem = "";
      for (let attempt = 1; attempt <= 2; attempt++) {
        const content =
          problem === ""
            ? user
            : `${user}\n\nYour previous answer was rejected: ${problem}. Answer again with only the JSON object.`;
        const thinking = thinkingParam(deps.settings.specialistModel, deps.settings.thinking);
        const params: MessageCreateParamsNonStreaming = {
          model: deps.settings.specialistModel,
          max_tokens: maxTokens,
          system,
          messages: [{ role: "user", content }],
          output_config: outputConfig,
          ...(thinking ? { thinking } : {}),
        };
        let message: Message;
        try {
          message = await deps.client.messages.create(params, { signal: input.signal });
        } catch (error) {
          if (!input.signal.aborted) throw error;
          // Cut off by the clock after sending: what was sent is counted.
          const sent = JSON.stringify(system) + content;
          throw abortedCall(
            `the ${input.specialty} model call`,
            { model: params.model, sent },
            usage,
            deps.prices,
            error,
          );
        }
        const callUsage = usageOf(message, deps.prices, log);
        usage = addUsage(usage, callUsage);
        const outcome = readAnswer(message.stop_reason, responseText(message), format.parse, policies);
        if (outcome.ok) {
          log.info({ attempt, usage, dropped: dropped.length }, "model specialist answered");
          return {
            findings: toFindings(outcome.answer, input, policies, standing),
            verdicts: outcome.answer.verdicts,
            usage,
            notReviewed: dropped,
          };
        }
        problem = outcome.problem;
        log.warn({ attempt, problem, stop_reason: message.stop_reason }, "model specialist answer rejected");
        if (message.stop_reason === "max_tokens") maxTokens = Math.min(maxTokens * 2, MAX_RETRY_TOKENS);
      }
      throw new ModelOutputError(`the ${input.specialty} model specialist gave no usable answer twice: ${problem}`, {
        usage,
      });
    },
  };
}

/** Rounds of counting and packing again, at most, when the count says the estimate was low. */
const COUNT_ROUNDS = 3;

/**
 * The request's system blocks and user message, its diff packed under `maxInputTokens`: first by
 * the character estimate, then (with a counter) checked against the Messages API's count of the
 * whole request, and packed again smaller while the count is over (docs/claude.md,
 * "The rules at a glance", What is sent).
 */
async function buildRequest(
  input: SpecialistInput,
  policies: readonly Policy[],
  maxInputTokens: number,
  counting: { tokens?: TokenCounter; model: string; outputConfig: MessageCreateParamsNonStreaming["output_config"] },
) {
  const system = systemBlocks(input.specialty, policies);
  const [title = "", body = "", investigations = ""] = (
    await redactAll([input.pr.title, input.pr.body, investigationsText(input.investigations)])
  ).texts;
  const files = await Promise.all(
    input.pr.files.map(async (f) =>
      f.patch === undefined ? f : { ...f, patch: (await redact(f.patch, f.filename, { patch: true })).text },
    ),
  );
  const parts = {
    specialty: input.specialty,
    prKey: prKey(input.pr),
    title,
    body,
    detections: input.detections,
    investigations,
  };
  const overhead =
    estimateTokens(system.map((b) => b.text).join("\n")) +
    estimateTokens(userMessage({ ...parts, sections: "", dropped: [] })) +
    estimateTokens(input.pr.files.map((f) => f.filename).join(", ")) +
    PROMPT_MARGIN_TOKENS;
  let budget = Math.max(0, maxInputTokens - overhead);
  for (let round = 1; ; round++) {
    const packed = packHunks({
      specialty: input.specialty,
      files,
      policies,
      detections: input.detections,
      maxTokens: budget,
    });
    // A last pass over the whole message: nothing reaches the model unredacted.
    const user = (await redact(userMessage({ ...parts, sections: packed.sections, dropped: packed.dropped }))).text;
    const request = { system, user, dropped: packed.dropped };
    if (!counting.tokens || round > COUNT_ROUNDS || budget === 0) return request;
    const counted = await counting.tokens.count(
      {
        model: counting.model,
        system,
        messages: [{ role: "user", content: user }],
        ...(counting.outputConfig ? { output_config: counting.outputConfig } : {}),
      },
      input.signal,
    );
    if (counted === undefined || counted <= maxInputTokens) return request;
    // The text counts more tokens than its characters suggest: scale the estimate by what was
    // counted, and give the diff what is left of the budget at that rate (always less than before).
    const estimated = estimateTokens(system.map((b) => b.text).join("\n")) + estimateTokens(user);
    const perEstimated = counted / Math.max(1, estimated);
    const rest = estimated - estimateTokens(packed.sections);
    budget = Math.max(0, Math.min(budget - 1, Math.floor(maxInputTokens / perEstimated) - rest));
  }
}

type Outcome = { ok: true; answer: SpecialistAnswer } | { ok: false; problem: string };

function readAnswer(
  stopReason: string | null,
  text: string,
  parse: (text: string) => SpecialistAnswer,
  policies: readonly Policy[],
): Outcome {
  if (stopReason === "max_tokens") return { ok: false, problem: "the answer was cut off at max_tokens" };
  if (stopReason === "refusal") return { ok: false, problem: "the model refused" };
  let answer: SpecialistAnswer;
  try {
    answer = parse(text);
  } catch (error) {
    const why = error instanceof AnthropicError ? error.message.split("\n")[0] : String(error);
    return { ok: false, problem: `the answer is not the schema's JSON (${why})` };
  }
  const allowed = new Set(policies.map((p) => p.id));
  const foreign = [...answer.findings, ...answer.verdicts].map((x) => x.policy).filter((id) => !allowed.has(id));
  if (foreign.length > 0) {
    return { ok: false, problem: `it cites policy ids outside the specialty: ${[...new Set(foreign)].join(", ")}` };
  }
  return { ok: true, answer };
}

/**
 * The model's findings (source "model") plus every standing finding (the detectors', settled by
 * the newest investigation, and the investigation's concerns). A definite violation is never below
 * its policy's severity and blocking flag; a model finding that repeats a standing finding (same
 * policy, file, line) is left out.
 */
function toFindings(
  answer: SpecialistAnswer,
  input: SpecialistInput,
  policies: readonly Policy[],
  standing: readonly Finding[],
): Finding[] {
  const byId = new Map(policies.map((p) => [p.id, p]));
  const files = new Set(input.pr.files.map((f) => f.filename));
  const detected = new Set(standing.map((f) => `${f.policy}|${f.file ?? ""}|${f.line ?? ""}`));
  const own: Finding[] = [];
  for (const f of answer.findings) {
    const policy = byId.get(f.policy);
    if (!policy) continue; // unreachable: readAnswer rejected foreign ids
    const file = f.file !== undefined && files.has(f.file) ? f.file : undefined;
    const definite = !f.needs_more_context;
    const severity =
      definite && SEVERITY_RANK[policy.severity] > SEVERITY_RANK[f.severity] ? policy.severity : f.severity;
    const finding: Finding = {
      specialty: input.specialty,
      policy: f.policy,
      severity,
      blocking: f.blocking || (definite && policy.blocking),
      needs_more_context: f.needs_more_context,
      ...(file !== undefined ? { file } : {}),
      ...(file !== undefined && f.line !== undefined && f.line >= 1 ? { line: f.line } : {}),
      message: f.message,
      source: "model",
    };
    if (!detected.has(`${finding.policy}|${finding.file ?? ""}|${finding.line ?? ""}`)) own.push(finding);
  }
  return [...own, ...standing];
}
