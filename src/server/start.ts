import type { Logger } from "pino";
import { buildGate, type Gate } from "../build-gate.js";
import { reviewDeciders } from "../cli/review-report.js";
import { type Clock, systemClock } from "../domain/clock.js";
import type { ReviewJobs } from "../domain/review-jobs.js";
import { createPushTriage } from "../github/push-triage.js";
import { wireGitHub } from "../github/wiring.js";
import { createLogger } from "../logger.js";
import { type Env, loadSettings, type ServerSettings, type Settings, serverSettings } from "../settings/index.js";
import { checkSlackToken } from "../slack/token-check.js";
import { wireSlack } from "../slack/wiring.js";
import { AnswersFirst } from "./answers-first.js";
import { type GateRoute, healthRoute, serveRoutes } from "./http-routes.js";
import { InFlight, trackedService } from "./in-flight.js";
import { resumeOnStart, wireJobs } from "./jobs.js";
import { createMetrics, type GateMetrics } from "./metrics.js";
import { createGitHubDecisions } from "./github-decisions.js";
import { createReruns } from "./reruns.js";
import { evidenceRoutes } from "./evidence-pages.js";
import { detailsUrl, reviewPageRoute } from "./review-page.js";
import { signInRoutes } from "./sign-in.js";
import { slackSignInRoutes } from "./slack-sign-in.js";
import { slackSessionKey } from "../review/slack-sessions.js";
import { createWebhookSink } from "./webhook-sink.js";

/** How often emergencies past their due time are looked for. */
const EMERGENCY_SWEEP_MS = 60_000;

export interface RunningServer {
  port: number;
  gate: Gate;
  settings: Settings;
  server: ServerSettings;
  /** Where reviews, re-runs, closes and recoveries are queued as jobs. */
  jobs: ReviewJobs;
  metrics: GateMetrics;
  /** Marks emergencies past their due time overdue now (the timer does it every minute); how many it marked. */
  sweepEmergencies(): Promise<number>;
  /** Brings waiting reviews up in their thread now (the timer does it every minute); how many messages were said. */
  remind(): Promise<number>;
  /** Resolves when every queued review has run and every decision from Slack is applied (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds and starts the whole gate, composing its parts in order: GitHub (github/wiring.ts), the
 * gate's core (build-gate.ts), the start-up checks of the models, GitHub's credentials and Slack's
 * bot token (each failure a GateError naming its settings), Slack unless GATE_SLACK=off (slack/wiring.ts), the publishers
 * (Slack's card, the check run, the PR's summary comment unless GATE_PR_COMMENT=off),
 * the jobs (jobs.ts), the HTTP routes, then what the last process left (SQLite: recovered;
 * PostgreSQL: taken from the table every replica shares).
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
  const clock = opts.clock ?? systemClock;
  const github = wireGitHub(server, log);
  const metrics = createMetrics();
  const gate = await buildGate(settings, log, { github: github.auth, clock, ...metrics.gateHooks(clock) });
  // Models, GitHub's credentials and Slack's bot token are checked once, now, before anything
  // listens, rather than failing every review (or crashing the process) later.
  const [, , bot] = await Promise.all([
    gate.checkModels(),
    github.auth.check(),
    server.slack.enabled ? checkSlackToken({ ...server.slack, log }) : undefined,
  ]).catch(async (error: unknown) => {
    await gate.close();
    throw error;
  });
  const slack = server.slack.enabled
    ? wireSlack(
        { ...server.slack, ...(bot ? { bot } : {}) },
        {
          store: gate.store,
          configuredChannel: async (reviewId) => (await gate.reviewConfig(reviewId))?.slackChannel,
          approvers: settings.approvers,
          emergencies: settings.emergency.label !== undefined,
          ...(settings.github.webUrl ? { githubWebUrl: settings.github.webUrl } : {}),
          clock,
          log,
        },
      )
    : undefined;
  const check = metrics.counted(
    github.checkPublisher({
      askedWho: slack?.askedWho ?? "a person with `gate decide`",
      ...(slack ? { personName: (id: string) => slack.people.name(id) } : {}),
      detailsUrl: detailsUrl({ publicUrl: server.publicUrl, slackCard: slack !== undefined }),
    }),
  );
  // The PR's summary comment last: it waits for nothing, and nothing waits for it.
  const comment = server.prComment
    ? [
        metrics.counted(
          github.prCommentPublisher({
            deciders: (_review, result) => reviewDeciders(gate, result),
            isLatest: async (review) => (await gate.store.latestForPr(review.pr))?.id === review.id,
            ...(slack ? { personName: (id: string) => slack.people.name(id) } : {}),
          }),
        ),
      ]
    : [];
  // Slack first: the card's place, once posted, is the check run's details link.
  const first = slack ? [metrics.counted(slack.publisher)] : [];
  gate.runner.publishWith((review) => (review.source === "github" ? [...first, check, ...comment] : first));
  // A decision carried to a new head is judged with the groups its maker is in now.
  if (slack) gate.runner.groupsFrom(slack.currentGroups);
  // Webhook answers go out before the background work their deliveries queue (announcements, reviews).
  const answersFirst = new AnswersFirst();
  const { jobs, handle } = wireJobs(gate, {
    concurrency: server.concurrency,
    log,
    later: answersFirst.later,
    // A push's commits: which came through a merged pull request (the rest are reviewed after the fact).
    triage: createPushTriage(github.auth, log),
  });
  const waiting = async () => (await gate.store.withStatus("waiting_for_human")).length;
  metrics.watch({ queueDepth: () => jobs.depth(), waiting });
  const decisions = new InFlight();
  const idle = async () => void (await Promise.all([jobs.idle(), decisions.idle()]));
  let ready = false;
  const rerun = createReruns({ runner: gate.runner, store: gate.store, jobs, log });
  // The check run's Approve and Reject: the same decision path as a Slack click, counted as one is.
  const decide = createGitHubDecisions({
    service: trackedService(gate.runner, decisions),
    store: gate.store,
    ...(slack ? { currentGroups: slack.currentGroups } : {}),
    log,
  });
  const sink = createWebhookSink({ store: gate.store, jobs, reviewDrafts: server.reviewDrafts, log, rerun, decide });
  // "Sign in with Slack" for members of the bot's workspace (auth.test's team), when configured.
  const signIn = server.slack.enabled ? server.slack.signIn : undefined;
  const slackSignIn =
    signIn && bot?.teamId ? { key: slackSessionKey(signIn.clientSecret), teamId: bot.teamId } : undefined;
  if (signIn && !slackSignIn) log.warn("Sign in with Slack is off: auth.test named no team for SLACK_BOT_TOKEN");
  const pages = { store: gate.store, clock, publicUrl: server.publicUrl, log, slackSignIn };
  const routes: GateRoute[] = [
    github.webhookRoute(sink, (handler) => metrics.timedWebhook(handler)),
    healthRoute(() => ready, gate.state.health),
    metrics.route(),
    // The auditor's pages (docs/operations.md, "How an auditor gets access"), signed in only;
    // the review page is also the check run's link without a card.
    ...signInRoutes(pages),
    ...(signIn && slackSignIn && server.publicUrl
      ? slackSignInRoutes({
          ...pages,
          slackSignIn,
          ...signIn,
          publicUrl: server.publicUrl,
          apiUrl: server.slack.enabled ? server.slack.apiUrl : undefined,
          ...(slack ? { groupsOf: slack.groupsOf } : {}),
        })
      : []),
    ...evidenceRoutes(pages),
    reviewPageRoute(pages),
  ];
  const listening = slack
    ? await slack.listen({ routes, service: trackedService(gate.runner, decisions), rerun, port: server.port })
    : await serveRoutes(routes, server.port);
  const stopReminders = slack?.remindEvery();
  // Emergencies not approved by their due time are marked overdue (docs/operations.md, "Emergency changes").
  const sweep = setInterval(() => {
    gate.runner.sweepEmergencies().catch((error: unknown) => log.error({ err: error }, "emergency sweep failed"));
  }, EMERGENCY_SWEEP_MS);
  sweep.unref();
  const pending = await resumeOnStart(gate, jobs, handle, server.concurrency);
  ready = true;
  const where = { port: listening.port, slack: slack?.mode ?? "off", github: github.auth.mode };
  log.info({ ...where, resumed: pending }, "gate listening");
  return {
    port: listening.port,
    gate,
    settings,
    server,
    jobs,
    metrics,
    idle,
    sweepEmergencies: () => gate.runner.sweepEmergencies(),
    remind: async () => (slack?.reminders ? slack.reminders.tick() : 0),
    close: async () => {
      ready = false;
      stopReminders?.();
      clearInterval(sweep);
      await listening.stop();
      answersFirst.close();
      // PostgreSQL: this replica's running jobs finish (the rest are other replicas'); SQLite: every queued one runs.
      await jobs.close();
      await idle();
      await gate.close();
    },
  };
}
