import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { ReviewResult } from "../domain/review-result.js";
import type { Publisher, ReviewRecord } from "../domain/review.js";
import { createCheckPublisher } from "./check-publisher.js";
import { createGitHubAuth, type GitHubAuthConfig } from "./client.js";
import { createPrCommentPublisher } from "./pr-comment.js";
import type { DeciderLine } from "./step-summary.js";
import { createWebhookHandler, type WebhookSink } from "./webhook.js";

type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The server's GitHub side, wired once: one authentication (App or token, with Octokit's retry
 * and throttling plugins: the one retry layer of every request), the check-run publisher, the PR
 * summary comment's publisher, and the webhook route's handler.
 *
 * @example const github = wireGitHub(server, log); buildGate(settings, log, { github: github.auth });
 */
export function wireGitHub(
  server: { github: Omit<GitHubAuthConfig, "log">; webhookSecret: string; protectedBranches?: readonly string[] },
  log: Logger,
) {
  const auth = createGitHubAuth({ ...server.github, log });
  return {
    auth,
    /** The check run (App) or commit status (token) of each review, naming who decided and who is asked. */
    checkPublisher(opts: {
      askedWho: string;
      personName?: (id: string) => string | undefined;
      /** The check's "Details" link (the Slack card, where a person decides). */
      detailsUrl?: (review: ReviewRecord) => string | undefined;
    }): Publisher {
      return createCheckPublisher({
        auth,
        log,
        // A create is tried again in the same unit as each request's retries.
        ...(server.github.retry?.baseMs !== undefined ? { retry: { baseMs: server.github.retry.baseMs } } : {}),
        askedWho: () => opts.askedWho,
        ...(opts.personName ? { personName: opts.personName } : {}),
        ...(opts.detailsUrl ? { detailsUrl: opts.detailsUrl } : {}),
      });
    },
    /** The PR's one summary comment (GATE_PR_COMMENT), edited in place on each new head or result. */
    prCommentPublisher(opts: {
      deciders: (review: ReviewRecord, result: ReviewResult) => Promise<DeciderLine[]>;
      isLatest: (review: ReviewRecord) => Promise<boolean>;
      personName?: (id: string) => string | undefined;
    }): Publisher {
      return createPrCommentPublisher({
        auth,
        log,
        ...(server.github.retry?.baseMs !== undefined ? { retry: { baseMs: server.github.retry.baseMs } } : {}),
        deciders: opts.deciders,
        isLatest: opts.isLatest,
        ...(opts.personName ? { personName: opts.personName } : {}),
      });
    },
    /**
     * `POST /github/webhook` (in Bolt's custom-route shape): verifies each delivery and hands it
     * to the sink; `wrap` adds what the server measures and orders around the handler.
     */
    webhookRoute(sink: WebhookSink, wrap: (handler: RouteHandler) => RouteHandler = (h) => h) {
      const webhook = createWebhookHandler({
        secret: server.webhookSecret,
        sink,
        log,
        ...(server.protectedBranches ? { protectedBranches: server.protectedBranches } : {}),
      });
      return { path: "/github/webhook", method: "POST", handler: wrap((req, res) => void webhook(req, res)) };
    },
  };
}
