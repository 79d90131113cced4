import type { MergedPastGate, PushedPastGate, ReviewResult } from "../domain/review-result.js";
import type { ReviewRecord } from "../domain/review.js";
import { escapeMrkdwn, mrkdwnLink, slackDate, truncateMrkdwn, truncatePlain } from "./mrkdwn.js";

/** A thread message stays short: the card holds the detail. */
const NOTE_MAX = 2500;

/** Who a review asks: the approver ids to mention (users and user groups) and the author's Slack id. */
export interface WhoToAsk {
  approvers: readonly string[];
  author?: string;
}

/** How a person is shown: their Slack display name (and GitHub login) when known, else a mention. */
export type PersonName = (id: string) => string | undefined;

/**
 * A mention of a Slack user (`<@U…>`) or user group (`<!subteam^S…>`); anything else as text.
 *
 * @example mentionOf("S0123") // "<!subteam^S0123>"
 */
export function mentionOf(id: string): string {
  if (/^S[A-Z0-9]+$/.test(id)) return `<!subteam^${id}>`;
  if (/^[UW][A-Z0-9]+$/.test(id)) return `<@${id}>`;
  return escapeMrkdwn(id);
}

/**
 * A person as the thread, the card and the check run show them: "Dana Smith (@dana)" when the
 * name is known, else a mention (Slack renders it by name).
 *
 * @example personLabel("U1", () => "Dana (@dana)") // "Dana (@dana)"
 */
export function personLabel(id: string, nameOf?: PersonName): string {
  const name = nameOf?.(id);
  return name ? escapeMrkdwn(name) : mentionOf(id);
}

/**
 * The first message in a PR's thread for a head that needs a person: the approvers are
 * mentioned and the author is told (once per head; the caller claims it).
 *
 * @example askText(review, result, { approvers: ["S1"], author: "U2" })
 */
export function askText(review: ReviewRecord, result: ReviewResult, who: WhoToAsk): string {
  const asked = who.approvers.map(mentionOf).join(" ");
  const why = result.escalation ? `: ${escapeMrkdwn(result.escalation.detail)}` : "";
  const lines = [
    `${asked || "A person"}: a decision is needed on ${escapeMrkdwn(review.pr)} at \`${review.headSha.slice(0, 7)}\`${why}`,
  ];
  lines.push(
    who.author
      ? `${mentionOf(who.author)}, your pull request waits for this decision; the card above says why.`
      : `Author: ${escapeMrkdwn(review.author || "unknown")} (no Slack account mapped in GATE_GITHUB_TO_SLACK).`,
  );
  return truncateMrkdwn(lines.join("\n"), NOTE_MAX);
}

/**
 * A decision, said in the thread with its note.
 *
 * @example decisionText(result, nameOf) // ":white_check_mark: Approved by Dana (@dana): vendored, licence checked"
 */
export function decisionText(result: ReviewResult, nameOf?: PersonName): string | undefined {
  const d = result.decision;
  if (!d) return undefined;
  const verb = d.kind === "approve" ? ":white_check_mark: Approved" : ":x: Rejected";
  const note = d.note ? `: ${escapeMrkdwn(d.note)}` : "";
  return truncateMrkdwn(`${verb} by ${personLabel(d.by, nameOf)} at ${slackDate(d.at)}${note}`, NOTE_MAX);
}

/**
 * Where a review stood when its PR was merged past the gate, in words (the card and the thread).
 *
 * @example mergedWhile({ status: "done", route: "human_rejected" }) // "after its review rejected it"
 */
export function mergedWhile(was: MergedPastGate["was"] | undefined): string {
  if (was?.route === "human_rejected") return "after its review rejected it";
  if (was?.status === "waiting_for_human") return "while its review waited for a person";
  if (was?.status === "queued" || was?.status === "running") return "while its review was still running";
  return "before the gate approved it";
}

/**
 * What a push with no pull request put on its branch, in words (the card and the thread).
 *
 * @example pushedWhat({ branch: "main", forced: true, commits: ["a1b2c3d…"], … }) // "1 commit `a1b2c3d` force-pushed to `main` (the branch's history was rewritten)"
 */
export function pushedWhat(p: PushedPastGate): string {
  const shas = p.commits
    .slice(0, 5)
    .map((c) => `\`${c.slice(0, 7)}\``)
    .join(", ");
  const more = p.commits.length > 5 ? ` and ${p.commits.length - 5} more` : "";
  const count = `${p.commits.length} commit${p.commits.length === 1 ? "" : "s"}`;
  const verb = p.forced ? "force-pushed" : "pushed";
  const rewritten = p.forced ? ` (the branch's history was rewritten from \`${p.before.slice(0, 7)}\`)` : "";
  return `${count} ${shas}${more} ${verb} to \`${escapeMrkdwn(p.branch)}\`${rewritten}`;
}

/**
 * A PR merged without approval, said loudly in its thread: who merged it and when, the approvers
 * mentioned, and what they can still record on the card.
 *
 * @example mergedText(review, result, { approvers: ["S1"] }) // ":rotating_light: *Merged without approval*: acme/web#12 was merged by `octocat` …"
 */
export function mergedText(review: ReviewRecord, result: ReviewResult, who: WhoToAsk): string | undefined {
  const m = result.merged;
  if (!m) return undefined;
  const asked = who.approvers.map(mentionOf).join(" ");
  const was = mergedWhile(m.was);
  const lines = [
    result.pushed
      ? `:rotating_light: *Changed without review*: ${pushedWhat(result.pushed)} by \`${escapeMrkdwn(m.by)}\` at ${slackDate(m.at)}, with no pull request.`
      : `:rotating_light: *Merged without approval*: ${escapeMrkdwn(review.pr)} at \`${review.headSha.slice(0, 7)}\` was merged by \`${escapeMrkdwn(m.by)}\` at ${slackDate(m.at)}, ${was}.`,
    `${asked || "Approvers"}: record a decision after the fact on the card above: *Approve after the fact*, or *Mark as incident* with a note.`,
  ];
  return truncateMrkdwn(lines.join("\n"), NOTE_MAX);
}

/**
 * An emergency pass as the card says it: the label let the check pass, and when a person's
 * approval is due; once overdue, loudly.
 *
 * @example emergencyLine(result.emergency) // ":rotating_light: *EMERGENCY*: the `emergency` label let the check pass; …"
 */
export function emergencyLine(pass: NonNullable<ReviewResult["emergency"]>): string {
  const label = `\`${escapeMrkdwn(pass.label)}\``;
  return pass.overdue
    ? `:rotating_light: *EMERGENCY OVERDUE*: the ${label} label let the check pass; a person's approval was due by ${slackDate(pass.due_at)} and none came.`
    : `:rotating_light: *EMERGENCY*: the ${label} label let the check pass; a person's approval is due by ${slackDate(pass.due_at)}.`;
}

/**
 * An emergency whose approval did not come in time, said loudly in the thread with the approvers
 * mentioned; undefined unless it is overdue and undecided.
 */
export function overdueText(review: ReviewRecord, result: ReviewResult, who: WhoToAsk): string | undefined {
  const pass = result.emergency;
  if (!pass?.overdue || result.decision || result.after_the_fact) return undefined;
  const asked = who.approvers.map(mentionOf).join(" ");
  const decide = result.merged
    ? "record a decision after the fact on the card above"
    : "approve or reject it on the card above";
  return truncateMrkdwn(
    [
      `:rotating_light: *Emergency OVERDUE*: ${escapeMrkdwn(review.pr)} passed its check on the \`${escapeMrkdwn(pass.label)}\` label; its approval was due by ${slackDate(pass.due_at)} and none came.`,
      `${asked || "Approvers"}: ${decide}.`,
    ].join("\n"),
    NOTE_MAX,
  );
}

/**
 * A decision recorded after a merge past the gate, said in the thread.
 *
 * @example afterTheFactText(result, nameOf) // ":white_check_mark: Approved after the fact by Dana (@dana)"
 */
export function afterTheFactText(result: ReviewResult, nameOf?: PersonName): string | undefined {
  const a = result.after_the_fact;
  if (!a) return undefined;
  const verb = a.kind === "approve" ? ":white_check_mark: Approved after the fact" : ":warning: Marked as an incident";
  const note = a.note ? `: ${escapeMrkdwn(a.note)}` : "";
  return truncateMrkdwn(`${verb} by ${personLabel(a.by, nameOf)} at ${slackDate(a.at)}${note}`, NOTE_MAX);
}

/**
 * A decision carried forward to a new head: the one line the thread gets instead of a new card.
 *
 * @example carriedText(review, result, nameOf) // ":white_check_mark: Approved by Dana at `abc1234`, carried forward to `def5678`: no change to the approved findings"
 */
export function carriedText(
  review: { headSha: string },
  result: ReviewResult,
  nameOf?: PersonName,
): string | undefined {
  const d = result.decision;
  if (!d?.carried_from) return undefined;
  const [verb, word] =
    d.kind === "approve" ? [":white_check_mark: Approved", "approved"] : [":x: Rejected", "rejected"];
  return truncateMrkdwn(
    `${verb} by ${personLabel(d.by, nameOf)} at \`${d.carried_from.head_sha.slice(0, 7)}\`, carried forward to \`${review.headSha.slice(0, 7)}\`: no change to the ${word} findings`,
    NOTE_MAX,
  );
}

/**
 * An investigation's answer, said in the thread (the card shows the newest two).
 *
 * @example investigationText(result.investigations[0])
 */
export function investigationText(inv: ReviewResult["investigations"][number]): string {
  const lines = [`:mag: *Investigation* (${inv.status}): ${escapeMrkdwn(truncatePlain(inv.question, 300))}`];
  for (const answer of inv.answers.slice(0, 5)) lines.push(`• ${escapeMrkdwn(truncatePlain(answer, 400))}`);
  if (inv.status === "inconclusive" && inv.reason) lines.push(`_${escapeMrkdwn(truncatePlain(inv.reason, 300))}_`);
  return truncateMrkdwn(lines.join("\n"), NOTE_MAX);
}

/**
 * Why a review stopped gating its PR: a newer push, a re-run, or the PR closed.
 *
 * @example endedText(review, result) // ":fast_forward: A newer push (feedfac) supersedes this review."
 */
export function endedText(review: ReviewRecord, result: ReviewResult, successorUrl?: string): string | undefined {
  const card = successorUrl ? ` ${mrkdwnLink(successorUrl, "See the new card")}.` : "";
  if (result.status === "closed")
    return ":no_entry_sign: The pull request was closed; this review ended without a decision.";
  if (result.status !== "superseded") return undefined;
  const by = result.superseded_by ?? review.supersededBy;
  if (by && /^r-/.test(by)) return `:repeat: A re-run supersedes this review.${card}`;
  const what = by && /^[0-9a-f]{7,40}$/i.test(by) ? ` (\`${by.slice(0, 7)}\`)` : "";
  return `:fast_forward: A newer push${what} supersedes this review.${card}`;
}

/**
 * A reminder of a review still waiting, mentioning who may decide (or the escalation group).
 *
 * @example reminderText(review, ["S1"], "2h 10m", false)
 */
export function reminderText(review: ReviewRecord, ids: readonly string[], age: string, escalated: boolean): string {
  const who = ids.map(mentionOf).join(" ") || "Approvers";
  const lead = escalated ? ":rotating_light: Escalated" : ":alarm_clock: Reminder";
  return truncateMrkdwn(
    `${lead}: ${who}, ${escapeMrkdwn(review.pr)} has waited ${age} for a decision (card above).`,
    NOTE_MAX,
  );
}

/**
 * A thread reminder of an emergency (docs/operations.md, "Emergency changes"): its pass and due
 * time, how long is left, and who is mentioned; escalated, louder. Mentions the approvers when
 * `ids` is empty.
 *
 * @example emergencyReminderText(review, pass, ["U1"], "11h 59m", false)
 */
export function emergencyReminderText(
  review: ReviewRecord,
  pass: Pick<NonNullable<ReviewResult["emergency"]>, "label" | "due_at">,
  ids: readonly string[],
  left: string,
  escalated: boolean,
): string {
  const who = ids.map(mentionOf).join(" ") || "Approvers";
  const lead = escalated ? ":rotating_light: *Emergency escalated*" : ":alarm_clock: *Emergency reminder*";
  const what = `${escapeMrkdwn(review.pr)} passed its check on the \`${escapeMrkdwn(pass.label)}\` label`;
  const due = `its approval is due by ${slackDate(pass.due_at)} (in ${left})`;
  return truncateMrkdwn(
    `${lead}: ${who}, ${what}; ${due}${escalated ? " and nobody has decided yet" : ""}: approve or reject on the card above.`,
    NOTE_MAX,
  );
}

/**
 * A duration as people say it: "45m", "3h 20m", "2d 4h".
 *
 * @example formatAge(200 * 60_000) // "3h 20m"
 */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${mins}m`;
  return `${mins}m`;
}
