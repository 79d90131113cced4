import type { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import type { Specialty } from "../domain/finding.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { DecideRefusal, InvestigationProgress, ResumeValue, ReviewRecord, ReviewService } from "../domain/review.js";
import { ProfileCache, slackUserIsGitHubUser } from "./author-profile.js";
import { groupIdsIn, mayDecide, type ApproverConfig } from "./approvers.js";
import { renderCard } from "./card.js";
import { mentionOrName, slackDate } from "./mrkdwn.js";
import { throttleProgress } from "./progress-throttle.js";
import { groupsOf, resolveUserGroups, type UserGroupCache } from "./user-groups.js";

type WebClient = webApi.WebClient;

/** What a person tried from Slack. */
export type SlackAction = "approve" | "reject" | "info";

/** A refused Slack attempt, for the audit log (accepted decisions are audited by the service). */
export interface SlackAuditEntry {
  at: string;
  source: "slack";
  reviewId: string;
  userId: string;
  action: SlackAction;
  outcome: "refused";
  code: DecideRefusal;
  why: string;
}

/** The collaborators every Slack handler uses. */
export interface FlowDeps {
  service: ReviewService;
  approvers: ApproverConfig;
  groups: UserGroupCache;
  /** Slack profiles read to recognise a PR's author when GATE_GITHUB_TO_SLACK does not name them. */
  profiles: ProfileCache;
  log: Logger;
  audit: (entry: SlackAuditEntry) => void | Promise<void>;
  checkRunUrl?: (review: ReviewRecord) => string | undefined;
  progressIntervalMs: number;
  now?: () => Date;
}

/** Where a review's card is. */
export interface CardPlace {
  channel: string;
  ts: string;
}

/** Who acts on which review, and where to answer. */
export interface Attempt {
  client: WebClient;
  reviewId: string;
  userId: string;
  action: SlackAction;
  /** The card's place, as the click or the modal's metadata gives it. */
  place?: CardPlace;
}

/** Said when a handler fails; nothing about the review changed. */
export const SOMETHING_WENT_WRONG = "Something went wrong, the review is unchanged. Try again in a moment.";

type Checked = { ok: true; review: ReviewRecord; result: ReviewResult } | { ok: false };

/**
 * The PR author's Slack id: from GATE_GITHUB_TO_SLACK, else the clicking user's own id when
 * their Slack profile names the author's GitHub account.
 */
async function authorSlackId(deps: FlowDeps, attempt: Attempt, review: ReviewRecord): Promise<string | undefined> {
  // GitHub logins are case-insensitive; own keys only (a login such as "constructor" is no mapping).
  const login = review.author.toLowerCase();
  const mapped = Object.entries(deps.approvers.githubToSlack ?? {}).find(([l]) => l.toLowerCase() === login)?.[1];
  if (mapped) return mapped;
  const isAuthor = await slackUserIsGitHubUser(attempt.client, attempt.userId, review.author, deps.profiles, (error) =>
    deps.log.warn({ err: error, userId: attempt.userId }, "cannot read a Slack profile to recognise the PR author"),
  );
  return isAuthor ? attempt.userId : undefined;
}

/**
 * Checks that a review waits for a person and that this person may act on it. On refusal, tells
 * the person ephemerally and records the refusal through `audit`.
 *
 * @example const c = await checkAttempt(deps, attempt); if (!c.ok) return;
 */
export async function checkAttempt(deps: FlowDeps, attempt: Attempt): Promise<Checked> {
  const review = deps.service.get(attempt.reviewId);
  if (!review) {
    await refuse(deps, attempt, "not_found", `No review ${attempt.reviewId} was found; nothing was changed.`);
    return { ok: false };
  }
  const result = await deps.service.status(review.id);
  if (!result) {
    await refuse(deps, attempt, "not_found", `No result for review ${review.id} was found; nothing was changed.`);
    return { ok: false };
  }
  const notWaiting = notWaitingMessage(review, result);
  if (notWaiting) {
    await refuse(deps, attempt, notWaiting.code, notWaiting.message);
    return { ok: false };
  }
  const members = await resolveUserGroups(attempt.client, groupIdsIn(deps.approvers), deps.groups, (groupId, error) =>
    deps.log.warn({ groupId, err: error }, "cannot read a Slack user group; counting it as empty"),
  );
  const verdict = mayDecide({
    userId: attempt.userId,
    userGroupIds: groupsOf(attempt.userId, members),
    blockingSpecialties: blockingSpecialties(result),
    prAuthorSlackId: await authorSlackId(deps, attempt, review),
    config: deps.approvers,
  });
  if (!verdict.ok) {
    await refuse(deps, attempt, "not_allowed", `You may not decide on ${review.pr}: ${verdict.why}. Nothing was changed.`);
    return { ok: false };
  }
  if (attempt.action === "info" && result.budget.cycles_used >= result.budget.cycles_max) {
    await refuse(deps, attempt, "budget_spent", budgetSpentMessage(result));
    return { ok: false };
  }
  return { ok: true, review, result };
}

/**
 * Applies an approve or reject and updates the card, or tells the person why not.
 *
 * @example await decideAndUpdate(deps, attempt, { kind: "approve", by: userId });
 */
export async function decideAndUpdate(deps: FlowDeps, attempt: Attempt, resume: ResumeValue): Promise<void> {
  const checked = await checkAttempt(deps, attempt);
  if (!checked.ok) return;
  const outcome = await deps.service.decide(attempt.reviewId, resume);
  if (!outcome.ok) {
    await ephemeral(deps, attempt, outcomeMessage(outcome.code, outcome.message, outcome.decidedBy));
    return;
  }
  await updateCard(deps, attempt, checked.review, outcome.result);
}

/**
 * Runs a person's question through the investigator: the card shows progress (throttled), then
 * the answer with the buttons again, or the verdict.
 *
 * @example await requestInfo(deps, attempt, "Is the token still checked for expiry?");
 */
export async function requestInfo(deps: FlowDeps, attempt: Attempt, question: string): Promise<void> {
  const checked = await checkAttempt(deps, attempt);
  if (!checked.ok) return;
  const { review, result } = checked;
  const note = `Question: ${question}`;
  const throttle = throttleProgress<InvestigationProgress>({
    intervalMs: deps.progressIntervalMs,
    send: (progress) => updateCard(deps, attempt, review, result, { progress, note }),
    onError: (error) => deps.log.warn({ err: error, reviewId: review.id }, "progress update of the card failed"),
  });
  throttle.push({ reviewId: review.id, turn: 0, tool_calls: 0, chars_read: 0, cost_usd: 0 });
  // Puts the card back as the review now stands (the progress state had no buttons).
  const restoreCard = async (): Promise<void> => {
    const current = await deps.service.status(review.id).catch(() => undefined);
    await updateCard(deps, attempt, deps.service.get(review.id) ?? review, current ?? result);
  };
  let outcome;
  try {
    outcome = await deps.service.decide(review.id, { kind: "info", by: attempt.userId, question }, { onProgress: (p) => throttle.push(p) });
  } catch (error) {
    await throttle.finish();
    await restoreCard();
    throw error;
  }
  await throttle.finish();
  if (!outcome.ok) {
    await ephemeral(deps, attempt, outcomeMessage(outcome.code, outcome.message, outcome.decidedBy));
    // A busy review is being investigated by another request, whose updates own the card.
    if (outcome.code !== "busy") await restoreCard();
    return;
  }
  await updateCard(deps, attempt, deps.service.get(review.id) ?? review, outcome.result);
}

/** Rewrites the card in place; a failure is logged and told, as the decision itself stands. */
export async function updateCard(
  deps: FlowDeps,
  attempt: Attempt,
  review: ReviewRecord,
  result: ReviewResult,
  extra: { progress?: InvestigationProgress; note?: string } = {},
): Promise<void> {
  const place = attempt.place ?? placeOf(review);
  if (!place) {
    deps.log.warn({ reviewId: review.id }, "no Slack card to update for this review");
    return;
  }
  const fresh = deps.service.get(review.id) ?? review;
  const checkRunUrl = deps.checkRunUrl?.(fresh);
  const card = renderCard({ review: fresh, result, ...(checkRunUrl ? { checkRunUrl } : {}), ...extra });
  try {
    await attempt.client.chat.update({ channel: place.channel, ts: place.ts, text: card.text, blocks: card.blocks });
  } catch (error) {
    deps.log.error({ err: error, reviewId: review.id }, "chat.update of the card failed");
    if (!extra.progress) await ephemeral(deps, attempt, "The review was updated, but its card could not be refreshed; `/gate status` shows where it stands.");
  }
}

/** Says something only the acting person sees, in the card's channel. Never throws. */
export async function ephemeral(deps: Pick<FlowDeps, "log">, attempt: Pick<Attempt, "client" | "userId" | "place" | "reviewId">, text: string): Promise<void> {
  const channel = attempt.place?.channel;
  if (!channel) {
    deps.log.warn({ reviewId: attempt.reviewId, userId: attempt.userId, text }, "no channel to answer in");
    return;
  }
  try {
    await attempt.client.chat.postEphemeral({ channel, user: attempt.userId, text });
  } catch (error) {
    deps.log.error({ err: error, reviewId: attempt.reviewId }, "chat.postEphemeral failed");
  }
}

/** The card's place from the review record. */
export function placeOf(review: ReviewRecord): CardPlace | undefined {
  return review.slackChannel && review.slackTs ? { channel: review.slackChannel, ts: review.slackTs } : undefined;
}

/** Specialties with at least one blocking finding. */
export function blockingSpecialties(result: ReviewResult): Specialty[] {
  return [...new Set(result.findings.filter((f) => f.blocking).map((f) => f.specialty))];
}

function budgetSpentMessage(result: ReviewResult): string {
  return `The investigation budget of this review is spent (${result.budget.cycles_used} of ${result.budget.cycles_max} cycles): approve or reject.`;
}

function notWaitingMessage(review: ReviewRecord, result: ReviewResult): { code: DecideRefusal; message: string } | undefined {
  const supersededBy = result.superseded_by ?? review.supersededBy;
  if (result.status === "superseded" || review.status === "superseded" || supersededBy) {
    return { code: "superseded", message: `This review was superseded by ${supersededBy ?? "a newer push"}; nothing was changed.` };
  }
  if (result.decision) {
    const d = result.decision;
    return { code: "already_decided", message: `Already decided: ${d.kind === "approve" ? "approved" : "rejected"} by ${mentionOrName(d.by)} at ${slackDate(d.at)}.` };
  }
  if (review.status === "running") {
    return {
      code: "not_waiting",
      message: "This review is running (a decision or an investigation is being applied), not waiting for a decision; nothing was changed. Try again when the card updates.",
    };
  }
  if (review.status !== "waiting_for_human" || result.status !== "waiting_for_human") {
    return { code: "not_waiting", message: `This review is ${result.status.replace(/_/g, " ")}, not waiting for a decision; nothing was changed.` };
  }
  return undefined;
}

function outcomeMessage(code: DecideRefusal, message: string, decidedBy?: string): string {
  if (code === "already_decided") return `Already decided${decidedBy ? ` by ${mentionOrName(decidedBy)}` : ""}: ${message}`;
  if (code === "budget_spent") return `The investigation budget is spent: ${message}`;
  return message;
}

async function refuse(deps: FlowDeps, attempt: Attempt, code: DecideRefusal, why: string): Promise<void> {
  const at = (deps.now?.() ?? new Date()).toISOString();
  deps.log.info({ reviewId: attempt.reviewId, userId: attempt.userId, action: attempt.action, code }, "slack attempt refused");
  try {
    await deps.audit({ at, source: "slack", reviewId: attempt.reviewId, userId: attempt.userId, action: attempt.action, outcome: "refused", code, why });
  } catch (error) {
    deps.log.error({ err: error, reviewId: attempt.reviewId }, "audit of a refusal failed");
  }
  await ephemeral(deps, attempt, why);
}
