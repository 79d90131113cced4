import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { AddressInfo } from "node:net";
import { type CustomRoute, webApi } from "@slack/bolt";
import type { Logger } from "pino";
import type { Clock } from "../domain/clock.js";
import type { EmergencyPass } from "../domain/review-result.js";
import type { ApproverConfig, CurrentGroups } from "../domain/decision.js";
import type { Publisher, ReviewRecord, ReviewService } from "../domain/review.js";
import type { ReviewStore } from "../domain/review-store.js";
import { buildSlackApp } from "./app.js";
import { type ChannelMap, channelFor } from "./channel-map.js";
import type { StartRerun } from "./decision-flow.js";
import { createPeople, type People } from "./people.js";
import { openEmergencies } from "../review/emergency-pass.js";
import { createReminders } from "./reminders.js";
import { createSlackPublisher } from "./slack-publisher.js";
import { appTokenRefusal, type SlackBotIdentity } from "./token-check.js";
import { UserGroupCache, userGroupsNow } from "./user-groups.js";
import { groupIdsIn, whoToAsk } from "./who-to-ask.js";

/** Slack as the server runs it (the settings' `ServerSlack` when enabled). */
export interface SlackOn {
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  socketMode: boolean;
  apiUrl?: string;
  channels: ChannelMap;
  defaultRepo?: string;
  reminderAfterMs?: number;
  escalateTo: readonly string[];
  /** The bot's ids, from the start-up check of `botToken` (token-check.ts). */
  bot?: SlackBotIdentity;
}

/** How long a carried decision waits for Slack's user groups before counting them as empty (a slow or rate-limited Slack). */
const GROUPS_DEADLINE_MS = 5000;

/** The check run's page for a card's "+N more" link (the PR's Checks tab). */
const checkRunUrl = (review: ReviewRecord) => (review.url ? `${review.url}/checks` : undefined);

/** What the server's Slack side needs of the gate. */
export interface SlackWiringDeps {
  store: ReviewStore;
  /** The channel a review's own configuration (a repository's file) names, if any. */
  configuredChannel(reviewId: string): Promise<string | undefined>;
  /** Who may decide (the decision policy's lists and GATE_GITHUB_TO_SLACK). */
  approvers: ApproverConfig & { githubToSlack: Readonly<Record<string, string>> };
  githubWebUrl?: string;
  /** Whether there is an emergency path (GATE_EMERGENCY_LABEL not off): its reminders follow each pass's due time. */
  emergencies?: boolean;
  clock: Clock;
  log: Logger;
}

/** The Slack side of a running server: its app listening, and how to stop it. */
export interface SlackListening {
  port: number;
  stop(): Promise<void>;
}

/**
 * The server's Slack side, wired once: one Web API client, the people's names, the card
 * publisher, the reminders (GATE_REMINDER_AFTER), and Bolt itself (HTTP on the gate's port
 * with its routes, or Socket Mode), started by `listen`.
 *
 * @example const slack = wireSlack(server.slack, deps); const { port } = await slack.listen({ routes, service, rerun, port: 3000 });
 */
export function wireSlack(cfg: SlackOn, deps: SlackWiringDeps) {
  const { log } = deps;
  const client = new webApi.WebClient(cfg.botToken, { ...(cfg.apiUrl ? { slackApiUrl: cfg.apiUrl } : {}) });
  const people: People = createPeople({ memory: deps.store, githubToSlack: deps.approvers.githubToSlack, log });
  // One memory of the user groups' members, for clicks and for decisions carried to a new head alike.
  const groups = new UserGroupCache();
  const publisher: Publisher = createSlackPublisher({
    client,
    // A channel the review's configuration names (a repository's own file) comes first.
    channelFor: async (repo, review) =>
      (review ? await deps.configuredChannel(review.id) : undefined) ?? channelFor(cfg.channels)(repo),
    checkRunUrl,
    log,
    recordPostIntent: (reviewId, at) => deps.store.recordSlackPostIntent(reviewId, at),
    now: deps.clock,
    siblings: async (review) =>
      Promise.all(
        (await deps.store.allForPr(review.pr)).map(async (r) => {
          const result = await deps.store.lastResult(r.id);
          return { review: r, ...(result ? { result } : {}) };
        }),
      ),
    claimNote: (key, reviewId) => deps.store.claimSlackNote(key, reviewId),
    whoToAsk: (review, result) => whoToAsk(deps.approvers, review, result),
    personName: (id) => people.name(id),
    ...(deps.githubWebUrl ? { githubWebUrl: deps.githubWebUrl } : {}),
  });
  const reminders =
    cfg.reminderAfterMs !== undefined || deps.emergencies
      ? createReminders({
          client,
          afterMs: cfg.reminderAfterMs,
          escalateTo: cfg.escalateTo,
          approvers: deps.approvers.approvers,
          clock: deps.clock,
          waiting: () => deps.store.withStatus("waiting_for_human"),
          merged: async () => (deps.emergencies ? deps.store.withStatus("merged_unapproved") : []),
          openEmergencies: async (reviews) =>
            deps.emergencies ? openEmergencies(deps.store, reviews) : new Map<string, EmergencyPass>(),
          resultOf: (id) => deps.store.lastResult(id),
          deciders: (review, result) => (result ? whoToAsk(deps.approvers, review, result).approvers : []),
          claimNote: (key, reviewId) => deps.store.claimSlackNote(key, reviewId),
          log,
        })
      : undefined;
  return {
    /** How Slack reaches the gate: over HTTP, or Socket Mode. */
    mode: cfg.socketMode ? ("socket" as const) : ("http" as const),
    people,
    publisher,
    reminders,
    /** Starts the reminders' timer (every minute at most, a quarter of GATE_REMINDER_AFTER at least); returns how to stop it. */
    remindEvery: () =>
      reminders?.every(Math.min(60_000, Math.max(1000, Math.floor((cfg.reminderAfterMs ?? 240_000) / 4)))),
    /**
     * The approver groups a person is in now, read as a click's are (a group that cannot be read,
     * or does not answer within GROUPS_DEADLINE_MS, counts as empty): what a carried decision is judged with.
     */
    currentGroups: (async (userId, approvers) => {
      const now = userGroupsNow(client, userId, groupIdsIn(approvers), groups, log);
      const late = sleep(GROUPS_DEADLINE_MS, undefined, { ref: false });
      const read = await Promise.race([now, late]);
      if (!read) log.warn({ userId }, "Slack's user groups did not answer in time; counting them as empty");
      return read ?? [];
    }) satisfies CurrentGroups,
    /** The user groups, among `groupIds`, that a Slack user is in now (a group that cannot be read counts as empty). */
    groupsOf: (userId: string, groupIds: string[]) => userGroupsNow(client, userId, groupIds, groups, log),
    /** How the check run says who a waiting review waits for. */
    askedWho: `an approver in Slack (${cfg.channels.fallback ?? "the repository's channel"})`,
    /** Starts Bolt with the gate's routes beside Slack's, on `port` (0: any free one). */
    async listen(parts: {
      routes: CustomRoute[];
      service: ReviewService;
      rerun: StartRerun;
      port: number;
    }): Promise<SlackListening> {
      const app = buildSlackApp({
        botToken: cfg.botToken,
        ...(cfg.bot ? { bot: cfg.bot } : {}),
        ...(cfg.signingSecret ? { signingSecret: cfg.signingSecret } : {}),
        ...(cfg.appToken ? { appToken: cfg.appToken } : {}),
        socketMode: cfg.socketMode,
        ...(cfg.apiUrl ? { slackApiUrl: cfg.apiUrl } : {}),
        port: parts.port,
        customRoutes: parts.routes,
        service: parts.service,
        ...(cfg.defaultRepo ? { defaultRepo: cfg.defaultRepo } : {}),
        log,
        checkRunUrl,
        rerun: parts.rerun,
        clock: deps.clock,
        people,
        // The publisher above updates each card after a decision.
        cardsPublished: true,
        requests: {
          claim: (key, reviewId) => deps.store.claimSlackNote(key, reviewId),
          audit: (entry) => deps.store.audit(entry),
        },
        ...(deps.githubWebUrl ? { githubWebUrl: deps.githubWebUrl } : {}),
        groups,
      });
      const started = (await app.start(parts.port).catch((error: unknown) => {
        // Socket Mode opens its socket now, with SLACK_APP_TOKEN: a refusal names it.
        throw cfg.socketMode ? appTokenRefusal(error, cfg.apiUrl) : error;
      })) as unknown;
      return {
        port: started instanceof http.Server ? (started.address() as AddressInfo).port : parts.port,
        stop: async () => {
          await app.stop();
        },
      };
    },
  };
}

export type SlackWiring = ReturnType<typeof wireSlack>;
