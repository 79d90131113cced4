import http from "node:http";
import type { AddressInfo } from "node:net";
import { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import { buildGate, type Gate } from "../build-gate.js";
import { createLogger } from "../logger.js";
import { createCheckPublisher } from "../github/check-publisher.js";
import { createGitHubAuth } from "../github/client.js";
import { createWebhookHandler } from "../github/webhook.js";
import type { Publisher, ReviewRecord } from "../domain/review.js";
import { buildSlackApp } from "../slack/app.js";
import { cardLink } from "../slack/card-link.js";
import { channelFor } from "../slack/channel-map.js";
import { createSlackPublisher } from "../slack/slack-publisher.js";
import { whoToAsk } from "../slack/approvers.js";
import { createReminders } from "../slack/reminders.js";
import type { Clock } from "../domain/clock.js";
import { healthRoute, routeListener, type GateRoute } from "./http-routes.js";
import { createMetrics, type GateMetrics } from "./metrics.js";
import { InProcessJobs } from "./review-queue.js";
import type { JobHandler, ReviewJobs } from "../domain/review-jobs.js";
import { adoptUnqueued, reviewJobHandler } from "./jobs.js";
import { loadSettings, serverSettings, type Env, type ServerSettings, type Settings } from "../settings/index.js";
import { InFlight, trackedService } from "./in-flight.js";
import { createWebhookSink } from "./webhook-sink.js";
import { createInbox } from "./inbox.js";
import { AnswersFirst } from "./answers-first.js";
import { createReruns } from "./reruns.js";
import { RUN_AFTER_RESTART } from "../review/leftover-work.js";

export interface RunningServer {
  port: number;
  gate: Gate;
  settings: Settings;
  server: ServerSettings;
  /** Where reviews, re-runs, closes and recoveries are queued as jobs. */
  jobs: ReviewJobs;
  metrics: GateMetrics;
  /** Brings waiting reviews up in their thread now (the timer does it every minute); how many messages were said. */
  remind(): Promise<number>;
  /** Resolves when every queued review has run and every decision from Slack is applied (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Who may decide on a review's PR. One function, so that a per-repository policy file can take
 * over where approvers come from.
 */
function approversOf(settings: Settings): (review: ReviewRecord) => Settings["approvers"] {
  return () => settings.approvers;
}

/** The check run's page for a card's "+N more" link (the PR's Checks tab). */
const checksUrl = (review: ReviewRecord) => (review.url ? `${review.url}/checks` : undefined);

/**
 * Builds and starts the whole gate: one SQLite file, GitHub (webhook route, intake, check runs),
 * Slack (Bolt on the same HTTP server, or Socket Mode) unless GATE_SLACK=off, and the queue that
 * runs reviews in the background. SQLite: recovers queued, running and unpublished reviews on
 * start; PostgreSQL: takes jobs from the table every replica shares (see `PgJobQueue`).
 *
 * @example const server = await startGateServer({ GITHUB_WEBHOOK_SECRET: "…", GITHUB_TOKEN: "…", GATE_SLACK: "off" });
 */
export async function startGateServer(
  env: Env,
  opts: { log?: Logger /** The gate's clock (tests pin it: reminders, ages). */; clock?: Clock } = {},
): Promise<RunningServer> {
  const settings = loadSettings(env);
  const server = serverSettings(settings);
  const log = opts.log ?? createLogger({ level: settings.logLevel ?? "info" });
  const auth = createGitHubAuth({ ...server.github, log });
  const approversFor = approversOf(settings);
  const githubWebUrl = settings.github.webUrl;
  // Deciders by their Slack display name, with their GitHub login where GATE_GITHUB_TO_SLACK maps one.
  // Names are rendered synchronously (cards, check runs): this process keeps the ones it recorded
  // or read, and reads a name it lacks from the store for the next rendering.
  const names = new Map<string, string>();
  const recordPerson = async (id: string, name: string): Promise<void> => {
    names.set(id, name);
    await gate.store.recordPerson(id, name);
  };
  const personName = (id: string): string | undefined => {
    const name = names.get(id);
    if (name === undefined)
      void gate.store
        .personName(id)
        .then((stored) => stored !== undefined && names.set(id, stored))
        .catch((error: unknown) => log.warn({ err: error }, "cannot read a person's name"));
    const login = Object.entries(settings.approvers.githubToSlack).find(([, slackId]) => slackId === id)?.[0];
    if (name && login) return `${name} (@${login})`;
    return name ?? (login ? `@${login}` : undefined);
  };
  const slackCfg = server.slack.enabled ? server.slack : undefined;
  const slackClient = slackCfg
    ? new webApi.WebClient(slackCfg.botToken, { ...(slackCfg.apiUrl ? { slackApiUrl: slackCfg.apiUrl } : {}) })
    : undefined;

  const publishers: { check: Publisher; slack?: Publisher } = {
    check: createCheckPublisher({
      auth,
      log,
      // Publishing backs off in the same unit as each request's retries.
      ...(server.github.retry?.baseMs !== undefined ? { retry: { baseMs: server.github.retry.baseMs } } : {}),
      askedWho: () =>
        slackCfg
          ? `an approver in Slack (${slackCfg.channels.fallback ?? "the repository's channel"})`
          : "a person with `gate decide`",
      personName,
      // The check's "Details" opens the Slack card, where a person decides.
      ...(slackCfg ? { detailsUrl: (review: ReviewRecord) => cardLink(review) } : {}),
    }),
    ...(slackCfg && slackClient
      ? {
          slack: createSlackPublisher({
            client: slackClient,
            // A channel the review's configuration names (a repository's own file) comes first.
            channelFor: async (repo, review) =>
              (review ? (await gate.reviewConfig(review.id))?.slackChannel : undefined) ??
              channelFor(slackCfg.channels)(repo),
            checkRunUrl: checksUrl,
            log,
            recordPostIntent: (reviewId, at) => gate.store.recordSlackPostIntent(reviewId, at),
            siblings: async (review) =>
              Promise.all(
                (await gate.store.allForPr(review.pr)).map(async (r) => {
                  const result = await gate.store.lastResult(r.id);
                  return { review: r, ...(result ? { result } : {}) };
                }),
              ),
            claimNote: (key, reviewId) => gate.store.claimSlackNote(key, reviewId),
            whoToAsk: (review, result) => whoToAsk(approversFor(review), review, result),
            personName,
            githubWebUrl,
          }),
        }
      : {}),
  };

  // Read at scrape time, when the queue and the store exist.
  const metrics = createMetrics({
    queueDepth: () => jobs.depth(),
    waiting: async () => (await gate.store.withStatus("waiting_for_human")).length,
  });
  const gate = await buildGate(settings, log, {
    github: auth,
    ...(opts.clock ? { clock: opts.clock } : {}),
    onSettled: async (review) => {
      const result = await gate.runner.status(review.id);
      if (result) metrics.reviewed(review, result, gate.clock());
    },
    // Slack first: the card's place, once posted, is the check run's details link.
    publishersFor: (review) => [
      ...(publishers.slack ? [publishers.slack] : []),
      ...(review.source === "github" ? [publishers.check] : []),
    ],
  });
  try {
    await gate.checkModels();
  } catch (error) {
    await gate.close();
    throw error;
  }
  // Webhook answers go out before the background work their deliveries queue (announcements, reviews).
  const answersFirst = new AnswersFirst();
  // The handler needs the inbox, the inbox the queue, and the queue the handler: the queue gets
  // this forwarder, which reaches the handler once it exists (no job runs before it does).
  const handleJob: JobHandler = (job) => handle(job);
  // PostgreSQL: the job table every replica takes from; SQLite: this process's queue.
  const jobs: ReviewJobs = gate.jobQueue ?? new InProcessJobs(server.concurrency, log, handleJob, answersFirst.later);
  const inbox = createInbox({ store: gate.store, runner: gate.runner, jobs, log, later: answersFirst.later });
  const handle = reviewJobHandler(gate.runner, inbox);
  const decisions = new InFlight();
  const idle = async () => {
    await Promise.all([jobs.idle(), decisions.idle()]);
  };
  let ready = false;
  const startRerun = createReruns({ runner: gate.runner, store: gate.store, jobs, log });
  const reminders =
    slackCfg && slackClient && slackCfg.reminderAfterMs !== undefined
      ? createReminders({
          client: slackClient,
          afterMs: slackCfg.reminderAfterMs,
          escalateTo: slackCfg.escalateTo,
          clock: gate.clock,
          waiting: () => gate.store.withStatus("waiting_for_human"),
          resultOf: (id) => gate.store.lastResult(id),
          deciders: (review, result) => (result ? whoToAsk(approversFor(review), review, result).approvers : []),
          claimNote: (key, reviewId) => gate.store.claimSlackNote(key, reviewId),
          log,
        })
      : undefined;
  const stopReminders = reminders?.every(
    Math.min(60_000, Math.max(1000, Math.floor((slackCfg?.reminderAfterMs ?? 0) / 4))),
  );
  const webhook = createWebhookHandler({
    secret: server.webhookSecret,
    sink: createWebhookSink({ store: gate.store, jobs, reviewDrafts: server.reviewDrafts, log, rerun: startRerun }),
    log,
  });
  const routes: GateRoute[] = [
    {
      path: "/github/webhook",
      method: "POST",
      handler: answersFirst.answering(metrics.timedWebhook((req, res) => void webhook(req, res))),
    },
    healthRoute(() => ready),
    metrics.route(),
  ];

  let port: number;
  let stop: () => Promise<void>;
  if (slackCfg) {
    const app = buildSlackApp({
      botToken: slackCfg.botToken,
      ...(slackCfg.signingSecret ? { signingSecret: slackCfg.signingSecret } : {}),
      ...(slackCfg.appToken ? { appToken: slackCfg.appToken } : {}),
      socketMode: slackCfg.socketMode,
      ...(slackCfg.apiUrl ? { slackApiUrl: slackCfg.apiUrl } : {}),
      port: server.port,
      customRoutes: routes,
      service: trackedService(gate.runner, decisions),
      ...(slackCfg.defaultRepo ? { defaultRepo: slackCfg.defaultRepo } : {}),
      log,
      checkRunUrl: checksUrl,
      rerun: startRerun,
      clock: gate.clock,
      people: { record: recordPerson, name: personName },
      githubWebUrl,
    });
    const started = (await app.start(server.port)) as unknown;
    port = started instanceof http.Server ? (started.address() as AddressInfo).port : server.port;
    stop = async () => {
      await app.stop();
    };
  } else {
    const httpServer = http.createServer(routeListener(routes));
    await new Promise<void>((resolve) => httpServer.listen(server.port, resolve));
    port = (httpServer.address() as AddressInfo).port;
    stop = () => new Promise((resolve) => httpServer.close(() => resolve()));
  }

  let pending: number;
  if (gate.jobQueue) {
    // Replicas share the work: this one takes jobs (GATE_CONCURRENCY at once), and a job whose
    // replica died is taken over once its lease expires. Nothing else is recovered here, as
    // another replica may be running it; only what no job covers (a review queued, a decision
    // received or a result unpublished by a process outside the queue) is queued now.
    await gate.jobQueue.start(handleJob, server.concurrency);
    pending = await adoptUnqueued(gate.store, gate.jobQueue);
  } else {
    // Reviews that were queued or running when the process stopped run again; unpublished results
    // are published; deliveries whose review was not registered yet are registered.
    pending = (await gate.store.withStatus(...RUN_AFTER_RESTART)).length + (await gate.store.inboxDeliveries()).length;
    await jobs.enqueue({ kind: "recover" });
  }
  ready = true;
  log.info(
    { port, slack: slackCfg ? (slackCfg.socketMode ? "socket" : "http") : "off", github: auth.mode, resumed: pending },
    "gate listening",
  );

  return {
    port,
    gate,
    settings,
    server,
    jobs,
    metrics,
    idle,
    remind: async () => (reminders ? reminders.tick() : 0),
    close: async () => {
      ready = false;
      stopReminders?.();
      await stop();
      // PostgreSQL: this replica stops taking jobs and its running ones finish (the rest are the
      // other replicas'); SQLite: every queued review runs first.
      await jobs.close();
      await idle();
      await gate.close();
    },
  };
}
