import { approvalLines } from "../domain/approval-text.js";
import { coverageLines } from "../domain/coverage.js";
import type { types } from "@slack/bolt";
import { SEVERITY_RANK } from "../domain/finding.js";
import type { ResultFinding, ResultInvestigation, ReviewResult } from "../domain/review-result.js";
import type { InvestigationProgress, ReviewRecord } from "../domain/review.js";
import {
  BUTTON_TEXT_MAX,
  CONTEXT_TEXT_MAX,
  HEADER_TEXT_MAX,
  SECTION_TEXT_MAX,
  escapeMrkdwn,
  formatUsd,
  mrkdwnLink,
  slackDate,
  truncateMrkdwn,
  truncatePlain,
} from "./mrkdwn.js";
import { GITHUB_WEB_URL, blobUrl, commitUrl, shortSha } from "./github-links.js";
import { mergedBlocks, mergedFallback, mergedHeader } from "./merged-card.js";
import { emergencyLine, personLabel, type PersonName } from "./thread-notes.js";

export { renderStatusText } from "./status-text.js";
export { renderHome } from "./home.js";

type KnownBlock = types.KnownBlock;
type Button = types.Button;

/** Action ids of the card's buttons (the Bolt app listens on these). */
export const ACTION_APPROVE = "gate_approve";
export const ACTION_REJECT = "gate_reject";
export const ACTION_REQUEST_INFO = "gate_request_info";
export const ACTION_APPROVE_NOTE = "gate_approve_note";
export const ACTION_RERUN = "gate_rerun";
export { ACTION_APPROVE_AFTER_MERGE, ACTION_INCIDENT } from "./merged-card.js";

/** A message has at most 50 blocks. */
const MAX_BLOCKS = 50;
/** Findings shown one by one; the rest are summed up in a "+N more" line. */
export const MAX_FINDINGS_SHOWN = 10;
/** The newest investigations shown. */
const MAX_INVESTIGATIONS_SHOWN = 2;
/** Per-item caps keep the whole card well under Slack's ~13k characters per message. */
const FINDING_SECTION_MAX = 600;
const LINK_MAX = 350;
const ANSWER_MAX = 400;
const EXCERPT_MAX = 160;
const INVESTIGATION_SECTION_MAX = 1200;

export interface CardInput {
  review: ReviewRecord;
  result: ReviewResult;
  /** Where "+N more" findings link to; the PR when absent. */
  checkRunUrl?: string;
  /** Given while an investigation runs: the card shows it and no buttons. */
  progress?: InvestigationProgress;
  /** A short line shown above the state, e.g. who asked which question. Plain text. */
  note?: string;
  /** A superseded card links here: the card that replaced it (or the thread line saying a carried decision). */
  successorUrl?: string;
  /** The link's words: "Open the new card" unless said otherwise. */
  successorLabel?: string;
  /** Shows a decider by their Slack display name (and GitHub login) rather than an id. */
  personName?: PersonName;
  /** GitHub's web address for commit and file links (GitHub Enterprise Server); github.com by default. */
  githubWebUrl?: string;
}

export interface Card {
  text: string;
  blocks: KnownBlock[];
}

/** A review with the GitHub web address its links use. */
type LinkedReview = ReviewRecord & { web: string };

type CardState = "superseded" | "closed" | "merged" | "decided" | "investigating" | "waiting" | "other";

/**
 * The review card: the PR, its risk, findings, investigations, budget and, while it waits for a
 * person, the Approve / Reject / Request info buttons. Always within Block Kit's limits.
 *
 * @example const { text, blocks } = renderCard({ review, result }); await client.chat.postMessage({ channel, text, blocks });
 */
export function renderCard(input: CardInput): Card {
  const { result } = input;
  // Every link of the card is built from the review and this web address.
  const review: LinkedReview = { ...input.review, web: input.githubWebUrl ?? GITHUB_WEB_URL };
  const state = cardState(input);
  const blocks: KnownBlock[] = [];

  blocks.push({
    type: "header",
    text: { type: "plain_text", text: truncatePlain(headerText(state, result), HEADER_TEXT_MAX) },
  });
  blocks.push(section(`*${mrkdwnLink(review.url, truncatePlain(review.title || review.pr, 250))}*`));
  blocks.push(
    context(
      `${escapeMrkdwn(review.pr)} · by ${escapeMrkdwn(review.author)} · head ${mrkdwnLink(commitUrl(review.repo, review.headSha, review.web), shortSha(review.headSha))}`,
    ),
  );
  if (result.risk) {
    const reasons = result.risk.reasons.length > 0 ? `: ${escapeMrkdwn(result.risk.reasons.join("; "))}` : "";
    blocks.push(
      section(truncateMrkdwn(`*Risk* ${result.risk.score}/100 (${escapeMrkdwn(result.risk.class)})${reasons}`, 800)),
    );
  }
  if (result.escalation) {
    blocks.push(
      section(
        truncateMrkdwn(
          `*Why a person is asked:* ${escapeMrkdwn(result.escalation.reason.replace(/_/g, " "))} (${escapeMrkdwn(result.escalation.reason)})\n${escapeMrkdwn(result.escalation.detail)}`,
          800,
        ),
      ),
    );
  }
  if (result.emergency) blocks.push(section(truncateMrkdwn(emergencyLine(result.emergency), 800)));
  if (result.since_decision) blocks.push(section(sinceDecisionText(result.since_decision)));
  const unread = result.coverage ? result.coverage.unread.length > 0 : false;
  if (result.coverage && unread) {
    blocks.push(section(truncateMrkdwn(escapeMrkdwn(coverageLines(result.coverage, 5).join("\n")), 1500)));
  }
  blocks.push(...findingBlocks(review, result.findings, input.checkRunUrl));
  blocks.push(...investigationBlocks(review, result.investigations));
  blocks.push(context(budgetLine(result)));
  if (input.note) blocks.push(context(escapeMrkdwn(input.note)));
  blocks.push(...stateBlocks(state, input));

  return { text: fallbackText(state, review, result), blocks: blocks.slice(0, MAX_BLOCKS) };
}

/** What changed since the PR's earlier decision, which therefore does not carry to this head. */
function sinceDecisionText(since: NonNullable<ReviewResult["since_decision"]>): string {
  const what = since.kind === "approve" ? "approval" : "rejection";
  const lines = since.changes.slice(0, 8).map((c) => `• ${escapeMrkdwn(truncatePlain(c, 300))}`);
  const more = since.changes.length > 8 ? [`…and ${since.changes.length - 8} more`] : [];
  return truncateMrkdwn(
    [`*Changed since the ${what}* by <@${since.by}> at \`${shortSha(since.head_sha)}\`:`, ...lines, ...more].join("\n"),
    2000,
  );
}

function cardState(input: CardInput): CardState {
  const { review, result } = input;
  if (result.status === "superseded" || review.status === "superseded" || result.superseded_by || review.supersededBy) {
    return "superseded";
  }
  if (result.status === "closed" || review.status === "closed") return "closed";
  // Before "decided": a review rejected and then merged anyway is first of all merged without approval.
  if (result.status === "merged_unapproved" || result.route === "merged_unapproved") return "merged";
  if (result.decision || result.route === "human_approved" || result.route === "human_rejected") return "decided";
  if (input.progress) return "investigating";
  if (result.status === "waiting_for_human") return "waiting";
  return "other";
}

function decisionKind(result: ReviewResult): "approve" | "reject" {
  if (result.decision) return result.decision.kind;
  return result.route === "human_rejected" ? "reject" : "approve";
}

function headerText(state: CardState, result: ReviewResult): string {
  switch (state) {
    case "superseded":
      return "Compliance gate: superseded";
    case "closed":
      return "Compliance gate: pull request closed";
    case "merged":
      return mergedHeader(result);
    case "decided":
      return decisionKind(result) === "approve"
        ? "Compliance gate: approved by a person"
        : "Compliance gate: rejected by a person";
    case "investigating":
      return "Compliance gate: investigating";
    case "waiting":
      if (result.emergency?.overdue) return "Compliance gate: EMERGENCY OVERDUE, a decision is needed";
      return result.emergency ? "Compliance gate: EMERGENCY, approval due" : "Compliance gate: a decision is needed";
    default:
      return `Compliance gate: ${result.status.replace(/_/g, " ")}`;
  }
}

function fallbackText(state: CardState, review: ReviewRecord, result: ReviewResult): string {
  const what: Record<CardState, string> = {
    superseded: "superseded",
    closed: "closed without a decision",
    merged: mergedFallback(result),
    decided: decisionKind(result) === "approve" ? "approved" : "rejected",
    investigating: "investigating",
    waiting: "waiting for a decision",
    other: result.status.replace(/_/g, " "),
  };
  const risk = result.risk ? `, risk ${result.risk.score}` : "";
  return truncateMrkdwn(escapeMrkdwn(`${review.pr} ${review.title}: ${what[state]}${risk}`), 300);
}

const SEVERITY_EMOJI = {
  critical: ":red_circle:",
  high: ":large_orange_circle:",
  medium: ":large_yellow_circle:",
  low: ":white_circle:",
} as const;

function findingBlocks(review: LinkedReview, findings: ResultFinding[], checkRunUrl?: string): KnownBlock[] {
  if (findings.length === 0) return [section("*Findings:* none")];
  // Blocking and severe first, so the cap never hides what matters most.
  const ordered = findings
    .map((f, i) => ({ f, i }))
    .sort(
      (a, b) =>
        Number(b.f.blocking) - Number(a.f.blocking) ||
        SEVERITY_RANK[b.f.severity] - SEVERITY_RANK[a.f.severity] ||
        a.i - b.i,
    )
    .map(({ f }) => f);
  const blocking = findings.filter((f) => f.blocking).length;
  const blocks: KnownBlock[] = [{ type: "divider" }, section(`*Findings (${findings.length}, ${blocking} blocking)*`)];
  for (const f of ordered.slice(0, MAX_FINDINGS_SHOWN)) blocks.push(section(findingText(review, f)));
  const hidden = findings.length - MAX_FINDINGS_SHOWN;
  if (hidden > 0) {
    const where = checkRunUrl
      ? mrkdwnLink(checkRunUrl, "see all in the check run")
      : mrkdwnLink(review.url, "see the pull request");
    blocks.push(context(`+${hidden} more findings: ${where}`));
  }
  return blocks;
}

function findingText(review: LinkedReview, f: ResultFinding): string {
  const marker = f.blocking ? " · :no_entry: *blocking*" : "";
  const head = `${SEVERITY_EMOJI[f.severity]} *${escapeMrkdwn(truncatePlain(f.policy, 40))}* · ${f.severity}${marker} · ${f.specialty}`;
  const where = f.file ? fileLink(review, f.file, f.line) : "";
  const room = FINDING_SECTION_MAX - head.length - where.length - 2;
  const lines = [head, truncateMrkdwn(escapeMrkdwn(f.message), Math.max(80, room))];
  if (where) lines.push(where);
  return truncateMrkdwn(lines.join("\n"), SECTION_TEXT_MAX);
}

/** A link to file:line at the head SHA; a plain label when the link would be too long. */
function fileLink(review: LinkedReview, file: string, line?: number): string {
  const label = truncatePlain(line !== undefined ? `${file}:${line}` : file, 120);
  const link = mrkdwnLink(blobUrl(review.repo, review.headSha, file, line, review.web), label);
  return link.length <= LINK_MAX ? link : `\`${escapeMrkdwn(label).replace(/`/g, "'")}\``;
}

function investigationBlocks(review: LinkedReview, investigations: ResultInvestigation[]): KnownBlock[] {
  if (investigations.length === 0) return [];
  const shown = investigations.slice(-MAX_INVESTIGATIONS_SHOWN);
  const blocks: KnownBlock[] = [{ type: "divider" }];
  const earlier = investigations.length - shown.length;
  if (earlier > 0) blocks.push(context(`${earlier} earlier investigation(s) not shown`));
  for (const inv of shown) blocks.push(section(investigationText(review, inv)));
  return blocks;
}

function investigationText(review: LinkedReview, inv: ResultInvestigation): string {
  const lines = [`*Investigation* (${inv.status}): ${escapeMrkdwn(truncatePlain(inv.question, 300))}`];
  for (const answer of inv.answers.slice(0, 5)) lines.push(`• ${truncateMrkdwn(escapeMrkdwn(answer), ANSWER_MAX)}`);
  if (inv.status === "inconclusive" && inv.reason) lines.push(`_${escapeMrkdwn(truncatePlain(inv.reason, 300))}_`);
  for (const ev of inv.evidence.slice(0, 5)) {
    const excerpt = truncatePlain(ev.excerpt.replace(/[`\r\n]+/g, " ").trim(), EXCERPT_MAX);
    const where = fileLink(review, ev.file, ev.line);
    lines.push(excerpt ? `${where} \`${escapeMrkdwn(excerpt)}\`` : where);
  }
  lines.push(`_${inv.tool_calls} tool calls, ${inv.chars_read} chars read_`);
  return truncateMrkdwn(lines.join("\n"), INVESTIGATION_SECTION_MAX);
}

function budgetLine(result: ReviewResult): string {
  const b = result.budget;
  return `Budget: investigation cycles ${b.cycles_used} of ${b.cycles_max} · ${b.tool_calls} tool calls · ${b.model_calls} model calls · ${formatUsd(b.cost_usd)}`;
}

function stateBlocks(state: CardState, input: CardInput): KnownBlock[] {
  const { review, result, progress } = input;
  switch (state) {
    case "superseded": {
      const by = result.superseded_by ?? review.supersededBy;
      const what =
        by && /^[0-9a-f]{7,40}$/i.test(by)
          ? mrkdwnLink(commitUrl(review.repo, by, input.githubWebUrl ?? GITHUB_WEB_URL), shortSha(by))
          : by && /^r-/.test(by)
            ? "a re-run"
            : escapeMrkdwn(by ?? "a newer push");
      // Without a newer card (its head passed, or is being reviewed), the PR's checks show the new state.
      const next = input.successorUrl
        ? ` ${mrkdwnLink(input.successorUrl, input.successorLabel ?? "Open the new card")}.`
        : input.checkRunUrl
          ? ` ${mrkdwnLink(input.checkRunUrl, "See the PR's checks")} for the new head.`
          : "";
      return [section(`:fast_forward: Superseded by ${what}; this review no longer gates the PR.${next}`)];
    }
    case "closed":
      return [section(":no_entry_sign: The pull request was closed; this review ended without a decision.")];
    case "merged":
      return mergedBlocks(input);
    case "decided": {
      const d = result.decision;
      const verb = decisionKind(result) === "approve" ? ":white_check_mark: *Approved*" : ":x: *Rejected*";
      if (!d) return [section(`${verb} by a person.`)];
      const note = d.note ? `: ${escapeMrkdwn(d.note)}` : "";
      return [
        section(
          truncateMrkdwn(
            `${verb} by ${personLabel(d.by, input.personName)} at ${slackDate(d.at)}${note}`,
            SECTION_TEXT_MAX,
          ),
        ),
        ...approvalBlocks(input),
      ];
    }
    case "investigating": {
      const p = progress;
      const line = p
        ? `:mag: Investigating… ${p.tool_calls} tool calls, ${p.chars_read} chars read, ${formatUsd(p.cost_usd)}`
        : ":mag: Investigating…";
      return [context(line)];
    }
    case "waiting":
      return [...approvalBlocks(input), ...waitingBlocks(review, result)];
    default:
      return [context(`Status: ${result.status.replace(/_/g, " ")}${result.route ? ` · route ${result.route}` : ""}`)];
  }
}

function waitingBlocks(review: ReviewRecord, result: ReviewResult): KnownBlock[] {
  const budgetSpent = result.budget.cycles_used >= result.budget.cycles_max;
  const elements: Button[] = [
    {
      type: "button",
      action_id: ACTION_APPROVE,
      style: "primary",
      text: { type: "plain_text", text: truncatePlain("Approve", BUTTON_TEXT_MAX) },
      value: review.id,
      confirm: {
        title: { type: "plain_text", text: "Approve this PR?" },
        text: {
          type: "mrkdwn",
          text: truncateMrkdwn(
            `The gate will pass ${escapeMrkdwn(review.pr)} at ${shortSha(review.headSha)} despite its findings.`,
            300,
          ),
        },
        confirm: { type: "plain_text", text: "Approve" },
        deny: { type: "plain_text", text: "Cancel" },
      },
    },
    {
      type: "button",
      action_id: ACTION_REJECT,
      style: "danger",
      text: { type: "plain_text", text: "Reject" },
      value: review.id,
    },
  ];
  if (!budgetSpent) {
    elements.push({
      type: "button",
      action_id: ACTION_REQUEST_INFO,
      text: { type: "plain_text", text: "Request info" },
      value: review.id,
    });
  }
  elements.push(
    {
      type: "button",
      action_id: ACTION_APPROVE_NOTE,
      text: { type: "plain_text", text: "Approve with a note" },
      value: review.id,
    },
    {
      type: "button",
      action_id: ACTION_RERUN,
      text: { type: "plain_text", text: "Re-run" },
      value: review.id,
      confirm: {
        title: { type: "plain_text", text: "Review this head again?" },
        text: { type: "mrkdwn", text: "A fresh review replaces this one; its card is posted in this thread." },
        confirm: { type: "plain_text", text: "Re-run" },
        deny: { type: "plain_text", text: "Cancel" },
      },
    },
  );
  const blocks: KnownBlock[] = [{ type: "actions", block_id: "gate_actions", elements }];
  if (budgetSpent) {
    blocks.push(
      context(
        `The investigation budget is spent (${result.budget.cycles_used} of ${result.budget.cycles_max} cycles): approve or reject.`,
      ),
    );
  }
  return blocks;
}

/** Who approved which specialty, and which still need whom (a review needing several approvers); none otherwise. */
function approvalBlocks(input: CardInput): KnownBlock[] {
  const lines = approvalLines(input.result, {
    person: (id) => personLabel(id, input.personName),
    date: slackDate,
  });
  return lines.length > 0 ? [section(lines.map((l) => `:ballot_box_with_check: ${l}`).join("\n"))] : [];
}

function section(text: string): KnownBlock {
  return { type: "section", text: { type: "mrkdwn", text: truncateMrkdwn(text, SECTION_TEXT_MAX) } };
}

function context(text: string): KnownBlock {
  return { type: "context", elements: [{ type: "mrkdwn", text: truncateMrkdwn(text, CONTEXT_TEXT_MAX) }] };
}
