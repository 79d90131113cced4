import { ProfileCache } from "./author-profile.js";
import { App, LogLevel, type BlockAction, type ButtonAction, type CustomRoute, type types } from "@slack/bolt";
import type { Logger } from "pino";
import { GateError } from "../domain/errors.js";
import type { ReviewRecord, ReviewService } from "../domain/review.js";
import { type AnswerWindow, TRY_AGAIN, answerWindow } from "./answer-window.js";
import { boltLogger } from "./bolt-logger.js";
import { firstDelivery, REQUEST_KEY, type RequestMemory } from "./replays.js";
import { refusalMessage } from "../domain/decision.js";
import {
  ACTION_APPROVE,
  ACTION_APPROVE_AFTER_MERGE,
  ACTION_APPROVE_NOTE,
  ACTION_INCIDENT,
  ACTION_REJECT,
  ACTION_REQUEST_INFO,
  ACTION_RERUN,
} from "./card.js";
import {
  SOMETHING_WENT_WRONG,
  decideAfterMergeAndUpdate,
  decideAndUpdate,
  ephemeral,
  requestInfo,
  rerunFromSlack,
  type Attempt,
  type CardPlace,
  type Checked,
  type FlowDeps,
  type SlackAction,
  type StartRerun,
} from "./decision-flow.js";
import { answerGateCommand } from "./gate-command.js";
import { renderHome } from "./home.js";
import {
  APPROVE_MODAL,
  INCIDENT_MODAL,
  INFO_MODAL,
  NOTE_BLOCK,
  incidentModal,
  NOTE_INPUT,
  approveModal,
  QUESTION_BLOCK,
  QUESTION_INPUT,
  REASON_BLOCK,
  REASON_INPUT,
  REJECT_MODAL,
  infoModal,
  inputValue,
  parseModalMetadata,
  rejectModal,
  type ModalMetadata,
} from "./modals.js";
import { GuardedReceiver } from "./guarded-receiver.js";
import { GuardedSocketModeReceiver } from "./guarded-socket-receiver.js";
import type { SlackBotIdentity } from "./token-check.js";
import { openCheckedModal } from "./modal-open.js";
import { UserGroupCache } from "./user-groups.js";

export interface SlackAppOptions {
  botToken: string;
  /** Required in HTTP mode. */
  signingSecret?: string;
  /** Required in Socket Mode (xapp-…). */
  appToken?: string;
  socketMode: boolean;
  /** The Web API base, with a trailing slash (tests point it at a loopback fake). */
  slackApiUrl?: string;
  /** The HTTP port (HTTP mode), or the custom routes' port in Socket Mode. */
  port?: number;
  customRoutes?: CustomRoute[];
  /** Decides by the one decision policy (its approver lists included) and audits every attempt. */
  service: ReviewService;
  /** The repository `/gate status #123` means. */
  defaultRepo?: string;
  log: Logger;
  /** At most one card update per this many ms while an investigation runs (default 3000). */
  progressIntervalMs?: number;
  /** The check run's page, for the card's "+N more" link. */
  checkRunUrl?: (review: ReviewRecord) => string | undefined;
  /** The bot's ids, from the start-up check of its token (token-check.ts): Bolt then asks `auth.test` no more. */
  bot?: SlackBotIdentity;
  /** Tests only: skips Bolt's `auth.test` token check. */
  testMode?: boolean;
  /** The clock Slack request timestamps are checked against (ms since the epoch; tests pin it). */
  now?: () => number;
  /** Starts a re-run (card button, `/gate rerun`); without it, re-runs are not offered. */
  rerun?: StartRerun;
  /** The clock `/gate list` measures ages with. */
  clock?: () => Date;
  /** Remembers deciders' display names and names them (the store's people table). */
  people?: FlowDeps["people"];
  /** The service publishes each review's card itself (the server's Slack publisher); see `FlowDeps.cardsPublished`. */
  cardsPublished?: boolean;
  /** GitHub's web address for links (GitHub Enterprise Server). */
  githubWebUrl?: string;
  /** Remembers the requests acted on, so a replay has no effect (the store's once-keys); none: no replay check. */
  requests?: RequestMemory;
  /** Tests only: Slack's answer deadline (`ANSWER_DEADLINE_MS`, 2.5 s, unless told). */
  answerDeadlineMs?: number;
  /** The user groups' memberships as last read (the server shares one with its carried decisions); a fresh one by default. */
  groups?: UserGroupCache;
}

/**
 * The gate's Slack app: card buttons (approve, reject, request info), their modals, `/gate`, and
 * the App Home tab. Every handler acks first and never throws.
 *
 * @example const app = buildSlackApp({ botToken, signingSecret, socketMode: false, service, log }); await app.start(3000);
 */
export function buildSlackApp(opts: SlackAppOptions): App {
  const common = {
    token: opts.botToken,
    logger: boltLogger(opts.log),
    logLevel: LogLevel.INFO,
    ...(opts.slackApiUrl ? { clientOptions: { slackApiUrl: opts.slackApiUrl } } : {}),
    // Without the ids, Bolt's constructor calls auth.test and nobody awaits it: a refused token crashed the process.
    ...(opts.bot ? { botId: opts.bot.botId, botUserId: opts.bot.botUserId } : {}),
    ...(opts.testMode ? { tokenVerificationEnabled: false } : {}),
  };
  let app: App;
  if (opts.socketMode) {
    if (!opts.appToken)
      throw new GateError(
        "CONFIG_INVALID",
        "Socket Mode needs an app-level token with connections:write in SLACK_APP_TOKEN (xapp-…)",
      );
    // The same payload checks as the HTTP guard, in front of the Socket Mode client's parser.
    const receiver = new GuardedSocketModeReceiver({
      appToken: opts.appToken,
      log: opts.log,
      ...(opts.customRoutes ? { customRoutes: opts.customRoutes } : {}),
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.slackApiUrl ? { slackApiUrl: opts.slackApiUrl } : {}),
    });
    app = new App({ ...common, receiver });
  } else {
    if (!opts.signingSecret)
      throw new GateError("CONFIG_INVALID", "HTTP mode needs the Slack app's signing secret in SLACK_SIGNING_SECRET");
    // Our receiver verifies and sanity-checks every request before Bolt parses it.
    const receiver = new GuardedReceiver({
      signingSecret: opts.signingSecret,
      log: opts.log,
      ...(opts.customRoutes ? { customRoutes: opts.customRoutes } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    });
    app = new App({ ...common, receiver });
  }
  const deps: FlowDeps = {
    service: opts.service,
    groups: opts.groups ?? new UserGroupCache(),
    profiles: new ProfileCache(),
    log: opts.log.child({ component: "slack" }),
    ...(opts.checkRunUrl ? { checkRunUrl: opts.checkRunUrl } : {}),
    progressIntervalMs: opts.progressIntervalMs ?? 3000,
    ...(opts.people ? { people: opts.people } : {}),
    ...(opts.cardsPublished ? { cardsPublished: true } : {}),
    ...(opts.githubWebUrl ? { githubWebUrl: opts.githubWebUrl } : {}),
    ...(opts.answerDeadlineMs !== undefined ? { answerDeadlineMs: opts.answerDeadlineMs } : {}),
    ...(opts.requests ? { requests: opts.requests } : {}),
  };
  registerCardActions(app, deps, opts.rerun);
  registerModals(app, deps);
  registerCommand(app, deps, opts);
  registerHome(app, deps);
  return app;
}

/** Runs a handler's work, turning any error into a log line and an ephemeral apology. */
async function guarded(deps: FlowDeps, attempt: Attempt, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    deps.log.error(
      { err: error, reviewId: attempt.reviewId, userId: attempt.userId, action: attempt.action },
      "slack handler failed",
    );
    await ephemeral(deps, attempt, SOMETHING_WENT_WRONG);
  }
}

function attemptFromClick(
  body: BlockAction<ButtonAction>,
  action: ButtonAction,
  kind: SlackAction,
  client: Attempt["client"],
): Attempt {
  const reviewId = action.value ?? "";
  const channel: unknown = body.container.channel_id ?? body.channel?.id;
  const ts: unknown = body.container.message_ts ?? body.message?.ts;
  const place: CardPlace | undefined =
    typeof channel === "string" && typeof ts === "string" ? { channel, ts } : undefined;
  return { client, reviewId, userId: body.user.id, action: kind, ...(place ? { place } : {}) };
}

/** Slack's trigger id of an interaction (block actions and view submissions carry one). */
function triggerOf(body: object): unknown {
  return "trigger_id" in body ? body.trigger_id : undefined;
}

/** Whether this request is new: a replay (the same signed request, or trigger and action) has no effect. */
function isNew(
  deps: FlowDeps,
  attempt: Attempt,
  action: string,
  context: Record<string, unknown>,
  triggerId: unknown,
): Promise<boolean> {
  return firstDelivery(deps.requests, deps.log, {
    reviewId: attempt.reviewId,
    userId: attempt.userId,
    action,
    requestKey: context[REQUEST_KEY],
    triggerId,
  });
}

/**
 * Runs an approve or reject inside its answer window: Slack hears back once the decision is stored
 * (or refused), and by the deadline whatever happens; a decision not stored by then is not stored
 * at all, and the person is told to try again, nothing changed.
 */
async function decideWithin(
  deps: FlowDeps,
  attempt: Attempt,
  ack: () => Promise<void>,
  work: (window: AnswerWindow) => Promise<void>,
): Promise<void> {
  const window = answerWindow(ack, {
    log: deps.log,
    ...(deps.answerDeadlineMs !== undefined ? { deadlineMs: deps.answerDeadlineMs } : {}),
  });
  const told = window.closed.then(() => {
    deps.log.warn(
      { reviewId: attempt.reviewId, userId: attempt.userId },
      "slack answered before its decision was stored",
    );
    return ephemeral(deps, attempt, TRY_AGAIN);
  });
  try {
    await guarded(deps, attempt, () => work(window));
  } finally {
    window.done();
    await window.answer();
  }
  if (window.isClosed) await told;
}

function registerCardActions(app: App, deps: FlowDeps, rerun: StartRerun | undefined): void {
  openModalOnClick(app, deps, ACTION_APPROVE_NOTE, "approve", (checked, meta) => approveModal(checked.review, meta));

  app.action<BlockAction<ButtonAction>>(ACTION_RERUN, async ({ ack, body, action, client, context }) => {
    await ack();
    const attempt = attemptFromClick(body, action, "rerun", client);
    await guarded(deps, attempt, async () => {
      if (!(await isNew(deps, attempt, ACTION_RERUN, context, triggerOf(body)))) return;
      const text = rerun ? await rerunFromSlack(deps, attempt, rerun, true) : "Re-runs are not available here.";
      await ephemeral(deps, attempt, text);
    });
  });

  app.action<BlockAction<ButtonAction>>(ACTION_APPROVE, async ({ ack, body, action, client, context }) => {
    // Slack hears back once the approval is stored durably (or refused), and within the deadline:
    // a crash after the answer loses nothing, as the restart applies it.
    const attempt = attemptFromClick(body, action, "approve", client);
    await decideWithin(deps, attempt, ack, async (window) => {
      if (await isNew(deps, attempt, ACTION_APPROVE, context, triggerOf(body)))
        await decideAndUpdate(deps, attempt, { kind: "approve", by: attempt.userId }, window);
    });
  });

  openModalOnClick(app, deps, ACTION_REJECT, "reject", (checked, meta) => rejectModal(checked.review, meta));

  openModalOnClick(app, deps, ACTION_REQUEST_INFO, "info", (checked, meta) =>
    infoModal(checked.review, meta, checked.result.budget.cycles_max - checked.result.budget.cycles_used),
  );

  // A PR merged without approval: a decision after the fact (nothing is resumed, so no answer window).
  app.action<BlockAction<ButtonAction>>(ACTION_APPROVE_AFTER_MERGE, async ({ ack, body, action, client, context }) => {
    await ack();
    const attempt = attemptFromClick(body, action, "approve_after_merge", client);
    await guarded(deps, attempt, async () => {
      if (await isNew(deps, attempt, ACTION_APPROVE_AFTER_MERGE, context, triggerOf(body)))
        await decideAfterMergeAndUpdate(deps, attempt, "approve_after_merge");
    });
  });

  openModalOnClick(app, deps, ACTION_INCIDENT, "incident", (checked, meta) => incidentModal(checked.review, meta));
}

/**
 * A card button that opens a modal (see `openCheckedModal`: the person is checked first, and
 * a check that needs Slack's API runs behind a modal opened at once).
 */
function openModalOnClick(
  app: App,
  deps: FlowDeps,
  actionId: string,
  kind: SlackAction,
  view: (checked: Extract<Checked, { ok: true }>, meta: ModalMetadata) => types.ModalView,
): void {
  app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client, context }) => {
    await ack();
    const attempt = attemptFromClick(body, action, kind, client);
    await guarded(deps, attempt, async () => {
      if (await isNew(deps, attempt, actionId, context, triggerOf(body)))
        await openCheckedModal(deps, attempt, body.trigger_id, view);
    });
  });
}

function registerModals(app: App, deps: FlowDeps): void {
  app.view(APPROVE_MODAL, async ({ ack, body, view, client, context }) => {
    const note = inputValue(view.state.values, NOTE_BLOCK, NOTE_INPUT);
    const attempt = attemptFromModal(deps, view.private_metadata, body.user.id, "approve", client);
    if (!attempt) {
      await ack();
      return;
    }
    await decideWithin(deps, attempt, ack, async (window) => {
      if (await isNew(deps, attempt, APPROVE_MODAL, context, triggerOf(body)))
        await decideAndUpdate(
          deps,
          attempt,
          { kind: "approve", by: attempt.userId, ...(note ? { note } : {}) },
          window,
        );
    });
  });

  app.view(REJECT_MODAL, async ({ ack, body, view, client, context }) => {
    const reason = inputValue(view.state.values, REASON_BLOCK, REASON_INPUT);
    if (!reason) {
      await ack({ response_action: "errors", errors: { [REASON_BLOCK]: "Say why it is rejected." } });
      return;
    }
    const attempt = attemptFromModal(deps, view.private_metadata, body.user.id, "reject", client);
    if (!attempt) {
      await ack();
      return;
    }
    await decideWithin(deps, attempt, ack, async (window) => {
      if (await isNew(deps, attempt, REJECT_MODAL, context, triggerOf(body)))
        await decideAndUpdate(deps, attempt, { kind: "reject", by: attempt.userId, note: reason }, window);
    });
  });

  app.view(INCIDENT_MODAL, async ({ ack, body, view, client, context }) => {
    const note = inputValue(view.state.values, REASON_BLOCK, REASON_INPUT);
    if (!note) {
      await ack({ response_action: "errors", errors: { [REASON_BLOCK]: "Say what happened." } });
      return;
    }
    await ack();
    const attempt = attemptFromModal(deps, view.private_metadata, body.user.id, "incident", client);
    if (!attempt) return;
    await guarded(deps, attempt, async () => {
      if (await isNew(deps, attempt, INCIDENT_MODAL, context, triggerOf(body)))
        await decideAfterMergeAndUpdate(deps, attempt, "incident", note);
    });
  });

  app.view(INFO_MODAL, async ({ ack, body, view, client, context }) => {
    const question = inputValue(view.state.values, QUESTION_BLOCK, QUESTION_INPUT);
    if (!question) {
      await ack({ response_action: "errors", errors: { [QUESTION_BLOCK]: "Ask a question." } });
      return;
    }
    await ack();
    const attempt = attemptFromModal(deps, view.private_metadata, body.user.id, "info", client);
    if (!attempt) return;
    await guarded(deps, attempt, async () => {
      if (await isNew(deps, attempt, INFO_MODAL, context, triggerOf(body))) await requestInfo(deps, attempt, question);
    });
  });
}

function attemptFromModal(
  deps: FlowDeps,
  privateMetadata: string,
  userId: string,
  kind: SlackAction,
  client: Attempt["client"],
): Attempt | undefined {
  const meta = parseModalMetadata(privateMetadata);
  if (!meta) {
    deps.log.warn({ userId }, "a modal came back without this app's metadata; ignored");
    return undefined;
  }
  const place = meta.channel && meta.ts ? { channel: meta.channel, ts: meta.ts } : undefined;
  return { client, reviewId: meta.reviewId, userId, action: kind, ...(place ? { place } : {}) };
}

function registerCommand(app: App, deps: FlowDeps, opts: SlackAppOptions): void {
  app.command("/gate", async ({ ack, command, respond, client, context }) => {
    await ack();
    let text: string;
    const start = opts.rerun;
    // A command comes from no card: the re-run is checked without one (channel kept for answers).
    const rerun = start
      ? async (reviewId: string) => {
          const attempt: Attempt = {
            client,
            reviewId,
            userId: command.user_id,
            action: "rerun",
            place: { channel: command.channel_id, ts: "" },
          };
          if (!(await isNew(deps, attempt, "/gate rerun", context, command.trigger_id)))
            return refusalMessage({ code: "replayed", reviewId });
          return rerunFromSlack(deps, attempt, start, false);
        }
      : undefined;
    try {
      text = await answerGateCommand(command.text, {
        service: deps.service,
        ...(opts.defaultRepo ? { defaultRepo: opts.defaultRepo } : {}),
        ...(rerun ? { rerun } : {}),
        ...(opts.clock ? { now: opts.clock } : {}),
        ...(opts.githubWebUrl ? { githubWebUrl: opts.githubWebUrl } : {}),
      });
    } catch (error) {
      deps.log.error({ err: error, userId: command.user_id }, "/gate failed");
      text = SOMETHING_WENT_WRONG;
    }
    try {
      await respond({ response_type: "ephemeral", text });
    } catch (error) {
      deps.log.error({ err: error, userId: command.user_id }, "/gate could not answer");
    }
  });
}

function registerHome(app: App, deps: FlowDeps): void {
  app.event("app_home_opened", async ({ event, client }) => {
    if (event.tab !== "home") return;
    try {
      await client.views.publish({ user_id: event.user, view: renderHome(await deps.service.listWaiting()) });
    } catch (error) {
      deps.log.error({ err: error, userId: event.user }, "App Home could not be published");
    }
  });
}
