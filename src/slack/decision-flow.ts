import type { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import {
  type AfterMergeKind,
  refusalMessage,
  type DecisionDoor,
  type Refusal,
  type RefusalStyle,
} from "../domain/decision.js";
import type { ReviewResult } from "../domain/review-result.js";
import type {
  DecideOutcome,
  InvestigationProgress,
  Refused,
  ResumeValue,
  ReviewRecord,
  ReviewService,
} from "../domain/review.js";
import { audits } from "../review/audit-entries.js";
import { rerunRefusal } from "../review/decision-policy.js";
import { type AnswerWindow, TRY_AGAIN } from "./answer-window.js";
import type { RequestMemory } from "./replays.js";
import type { ProfileCache } from "./author-profile.js";
import type { People } from "./people.js";
import { renderCard } from "./card.js";
import { mentionOrName, slackDate } from "./mrkdwn.js";
import { throttleProgress } from "./progress-throttle.js";
import { lookUpName, NAME_GRACE_MS, whoTheyAre, within } from "./slack-lookups.js";
import type { UserGroupCache } from "./user-groups.js";

type WebClient = webApi.WebClient;

/** What a person tried from Slack. */
export type SlackAction = "approve" | "reject" | "info" | "rerun" | AfterMergeKind;

/** Starts a fresh review of a review's head (the server registers and queues it): the new review, or why none. */
export type StartRerun = (
  reviewId: string,
  by: string,
) => Promise<{ ok: true; review: ReviewRecord } | { ok: false; refusal: Refusal }>;

/** The collaborators every Slack handler uses. */
export interface FlowDeps {
  /** Decides (by the one decision policy), audits and knows the approver lists. */
  service: ReviewService;
  groups: UserGroupCache;
  /** Slack profiles read to recognise a PR's author when GATE_GITHUB_TO_SLACK does not name them. */
  profiles: ProfileCache;
  log: Logger;
  checkRunUrl?: (review: ReviewRecord) => string | undefined;
  progressIntervalMs: number;
  /** Remembers and gives back people's display names, so decisions name people, not ids. */
  people?: People;
  /**
   * The service publishes the review's card itself after a decision (the server's Slack
   * publisher): a decision then leaves the card to it, so one click updates the card once.
   */
  cardsPublished?: boolean;
  /** GitHub's web address for commit and file links (GitHub Enterprise Server). */
  githubWebUrl?: string;
  /** Slack is answered within this many ms (`ANSWER_DEADLINE_MS` unless told; tests shorten it). */
  answerDeadlineMs?: number;
  /** See `NAME_GRACE_MS` (tests lengthen it). */
  nameGraceMs?: number;
  /** See `LOOKUP_WAIT_MS` (tests shorten it). */
  lookupWaitMs?: number;
  /** Knows a replayed request again (see `firstDelivery`). */
  requests?: RequestMemory;
}

/**
 * Once a decision is stored (and Slack answered), waits at most `NAME_GRACE_MS` for its maker's
 * name, so the check run names them when Slack is quick. True when the name came in time.
 */
async function nameInTime(deps: FlowDeps, named: Promise<boolean>): Promise<boolean> {
  return (await within(named, deps.nameGraceMs ?? NAME_GRACE_MS)) === true;
}

/**
 * The decider's name came after their decision was applied: the card is redrawn as the review now
 * stands, naming them (the check run keeps their id this once; the name is remembered for next time).
 */
async function redrawWhenNamed(deps: FlowDeps, attempt: Attempt, named: Promise<boolean>): Promise<void> {
  if (!(await named)) return;
  try {
    const review = await deps.service.get(attempt.reviewId);
    const result = await deps.service.status(attempt.reviewId);
    if (review && result) await redrawCard(deps, attempt, review, result);
  } catch (error) {
    // The decision stands; only the name on its card waits for the next update.
    deps.log.warn({ err: error, reviewId: attempt.reviewId }, "cannot redraw the card with the decider's name");
  }
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

export type Checked = { ok: true; review: ReviewRecord; result: ReviewResult; door: DecisionDoor } | { ok: false };

/** How a handler tells the person something (an ephemeral by default; an open modal's view when there is one). */
export type Tell = (text: string) => Promise<void>;

/** Refusals show people as mentions and dates in the reader's time zone; the words are the policy's. */
const SLACK_STYLE: RefusalStyle = { person: mentionOrName, date: slackDate };

/**
 * What the door knows about the person: whether the click came from the review's own card, and
 * what only Slack's API can say (see `whoTheyAre`: asked only when needed, within
 * `LOOKUP_WAIT_MS`). "slow" when Slack did not answer in time: nothing may be decided.
 */
async function doorOf(deps: FlowDeps, attempt: Attempt): Promise<DecisionDoor | "slow"> {
  const record = await deps.service.get(attempt.reviewId);
  const who = await whoTheyAre(deps, attempt.client, attempt.userId, deps.service.approvers, record?.author ?? "");
  if (!who) return "slow";
  // The card the click came from must be the one recorded for the review its button names.
  const card = record ? placeOf(record) : undefined;
  const fromReviewCard =
    card !== undefined &&
    attempt.place !== undefined &&
    card.channel === attempt.place.channel &&
    card.ts === attempt.place.ts;
  return {
    kind: "slack",
    groups: who.groups,
    fromReviewCard,
    ...(who.namesAuthor ? { namesAuthor: true } : {}),
  };
}

/**
 * Slack's API did not say in time who is clicking: nothing was decided, and the person is told
 * so (unless the answer window told them already); audited as a refusal "too_late".
 */
async function tooSlow(deps: FlowDeps, attempt: Attempt, tell: Tell): Promise<void> {
  const refusal = { code: "too_late" as const, reviewId: attempt.reviewId };
  await deps.requests
    ?.audit(
      audits.requestRefused(attempt.reviewId, attempt.userId, attempt.action, refusal, {
        door: "slack",
        why: "Slack's API did not answer in time",
      }),
    )
    .catch((error: unknown) => deps.log.error({ err: error, reviewId: attempt.reviewId }, "cannot audit a refusal"));
  await tell(TRY_AGAIN);
}

/**
 * Asks the review service whether this person may act on the review now (the one decision
 * policy, which also audits a refusal). On refusal, tells the person ephemerally.
 *
 * @example const c = await checkAttempt(deps, attempt); if (!c.ok) return;
 */
export async function checkAttempt(
  deps: FlowDeps,
  attempt: Attempt,
  tell: Tell = (text) => ephemeral(deps, attempt, text),
): Promise<Checked> {
  const door = await doorOf(deps, attempt);
  if (door === "slow") {
    await tooSlow(deps, attempt, tell);
    return { ok: false };
  }
  const kind = attempt.action === "rerun" ? "approve" : attempt.action;
  const checked = await deps.service.check(attempt.reviewId, { kind, by: attempt.userId }, door);
  if (!checked.ok) {
    await tellRefusal(deps, attempt, checked, tell);
    return { ok: false };
  }
  return { ok: true, review: checked.review, result: checked.result, door };
}

/**
 * Applies an approve or reject and updates the card, or tells the person why not. One round trip:
 * the person is checked once (the one decision policy, by `check`, with Slack's API asked only
 * what it must say, within `LOOKUP_WAIT_MS`), the decision is stored durably and Slack answered
 * (through `window`, before its deadline, or "nothing changed"), then applied; the card is
 * updated once (by the service's publisher, or here). Their name is looked up beside the store
 * and waited for at most `NAME_GRACE_MS`; a name that comes later redraws the card.
 *
 * @example await decideAndUpdate(deps, attempt, { kind: "approve", by: userId }, answerWindow(ack, { log }));
 */
export async function decideAndUpdate(
  deps: FlowDeps,
  attempt: Attempt,
  resume: ResumeValue,
  /** Slack's answer: given once the decision is stored durably, before it is applied. */
  window?: AnswerWindow,
): Promise<void> {
  // A window closed by its deadline has told the person already.
  const tell: Tell = (text) => (window?.isClosed ? Promise.resolve() : ephemeral(deps, attempt, text));
  const checked = await checkAttempt(deps, attempt, tell);
  if (!checked.ok) return;
  const named = lookUpName(deps, attempt.client, attempt.userId);
  let namedInTime = false;
  // Checked just now: the decision itself only claims the review (one decision check per click).
  const outcome = await deps.service.decide(attempt.reviewId, resume, {
    door: checked.door,
    checked: true,
    ...(window ? { take: () => window.take() } : {}),
    onReceived: async () => {
      await window?.answer();
      namedInTime = await nameInTime(deps, named);
    },
  });
  if (!outcome.ok) {
    // Too late: the person was told so when the deadline passed.
    if (outcome.code !== "too_late") await tellRefusal(deps, attempt, outcome);
    return;
  }
  if (!deps.cardsPublished) await updateCard(deps, attempt, checked.review, outcome.result);
  if (!namedInTime) await redrawWhenNamed(deps, attempt, named);
}

/**
 * Records a decision after the fact on a PR merged without approval (approve it, or mark it as an
 * incident with a note) and updates the card, or tells the person why not (the one decision
 * policy: approver lists, never the author; the refusal is audited).
 *
 * @example await decideAfterMergeAndUpdate(deps, attempt, "incident", "hotfix merged by an admin");
 */
export async function decideAfterMergeAndUpdate(
  deps: FlowDeps,
  attempt: Attempt,
  kind: AfterMergeKind,
  note?: string,
): Promise<void> {
  const checked = await checkAttempt(deps, attempt);
  if (!checked.ok) return;
  const named = lookUpName(deps, attempt.client, attempt.userId);
  const namedInTime = await nameInTime(deps, named);
  const outcome = await deps.service.decideAfterMerge(
    attempt.reviewId,
    { kind, by: attempt.userId, ...(note ? { note } : {}) },
    { door: checked.door },
  );
  if (!outcome.ok) {
    await tellRefusal(deps, attempt, outcome);
    return;
  }
  if (!deps.cardsPublished) await updateCard(deps, attempt, checked.review, outcome.result);
  if (!namedInTime) await redrawWhenNamed(deps, attempt, named);
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
  const { review, result, door } = checked;
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
    await updateCard(deps, attempt, (await deps.service.get(review.id)) ?? review, current ?? result);
  };
  let outcome: DecideOutcome;
  try {
    outcome = await deps.service.decide(
      review.id,
      { kind: "info", by: attempt.userId, question },
      { door, onProgress: (p) => throttle.push(p) },
    );
  } catch (error) {
    await throttle.finish();
    await restoreCard();
    throw error;
  }
  await throttle.finish();
  if (!outcome.ok) {
    await tellRefusal(deps, attempt, outcome);
    // A busy review is being investigated by another request, whose updates own the card.
    if (outcome.code !== "busy") await restoreCard();
    return;
  }
  await updateCard(deps, attempt, (await deps.service.get(review.id)) ?? review, outcome.result);
}

/** Rewrites the card in place; a failure is logged and told, as the decision itself stands. */
export async function updateCard(
  deps: FlowDeps,
  attempt: Attempt,
  review: ReviewRecord,
  result: ReviewResult,
  extra: { progress?: InvestigationProgress; note?: string } = {},
): Promise<void> {
  await redrawCard(deps, attempt, (await deps.service.get(review.id)) ?? review, result, extra);
}

/** Rewrites the card in place from a review record as it stands now (see `updateCard`). */
async function redrawCard(
  deps: FlowDeps,
  attempt: Attempt,
  fresh: ReviewRecord,
  result: ReviewResult,
  extra: { progress?: InvestigationProgress; note?: string } = {},
): Promise<void> {
  const place = attempt.place ?? placeOf(fresh);
  if (!place) {
    deps.log.warn({ reviewId: fresh.id }, "no Slack card to update for this review");
    return;
  }
  const checkRunUrl = deps.checkRunUrl?.(fresh);
  const people = deps.people;
  const card = renderCard({
    review: fresh,
    result,
    ...(checkRunUrl ? { checkRunUrl } : {}),
    ...(people ? { personName: (id: string) => people.name(id) } : {}),
    ...(deps.githubWebUrl ? { githubWebUrl: deps.githubWebUrl } : {}),
    ...extra,
  });
  try {
    await attempt.client.chat.update({ channel: place.channel, ts: place.ts, text: card.text, blocks: card.blocks });
  } catch (error) {
    deps.log.error({ err: error, reviewId: fresh.id }, "chat.update of the card failed");
    if (!extra.progress)
      await ephemeral(
        deps,
        attempt,
        "The review was updated, but its card could not be refreshed; `/gate status` shows where it stands.",
      );
  }
}

/** Says something only the acting person sees, in the card's channel. Never throws. */
export async function ephemeral(
  deps: Pick<FlowDeps, "log">,
  attempt: Pick<Attempt, "client" | "userId" | "place" | "reviewId">,
  text: string,
): Promise<void> {
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

/**
 * Re-runs a review from Slack (the card's button, or `/gate rerun` when `fromCard` is false) if
 * the decision policy lets this person (`rerunRefusal`), and says what happened.
 *
 * @example const text = await rerunFromSlack(deps, attempt, start, true);
 */
export async function rerunFromSlack(
  deps: FlowDeps,
  attempt: Attempt,
  start: StartRerun,
  fromCard: boolean,
): Promise<string> {
  const review = await deps.service.get(attempt.reviewId);
  if (!review) return refusalMessage({ code: "not_found", reviewId: attempt.reviewId }, SLACK_STYLE);
  const known = await doorOf(deps, attempt);
  if (known === "slow") {
    await tooSlow(deps, attempt, async () => undefined);
    return TRY_AGAIN;
  }
  const { fromReviewCard, ...rest } = known;
  const door: DecisionDoor = fromCard && fromReviewCard !== undefined ? { ...rest, fromReviewCard } : rest;
  const refusal = rerunRefusal({ by: attempt.userId, door, review, approvers: deps.service.approvers });
  if (refusal) {
    deps.log.info({ reviewId: review.id, userId: attempt.userId, code: refusal.code }, "slack re-run refused");
    return refusalMessage(refusal, SLACK_STYLE);
  }
  const started = await start(review.id, attempt.userId);
  if (!started.ok) return refusalMessage(started.refusal, SLACK_STYLE);
  return `Re-run started for ${review.pr}: review \`${started.review.id}\`. Its card is posted in the PR's thread when a person is needed.`;
}

/** The card's place from the review record. */
export function placeOf(review: ReviewRecord): CardPlace | undefined {
  return review.slackChannel && review.slackTs ? { channel: review.slackChannel, ts: review.slackTs } : undefined;
}

/** Tells the person why their attempt was refused, in the policy's words. */
async function tellRefusal(
  deps: FlowDeps,
  attempt: Attempt,
  refused: Refused,
  tell: Tell = (text) => ephemeral(deps, attempt, text),
): Promise<void> {
  deps.log.info(
    { reviewId: attempt.reviewId, userId: attempt.userId, action: attempt.action, code: refused.code },
    "slack attempt refused",
  );
  await tell(refusalMessage(refused.refusal, SLACK_STYLE));
}
