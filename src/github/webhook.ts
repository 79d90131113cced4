import type { IncomingMessage, ServerResponse } from "node:http";
import { type EmitterWebhookEvent, Webhooks } from "@octokit/webhooks";
import type { Logger } from "pino";
import { onCheckRequestedAction } from "./events/check-requested-action.js";
import { onCheckRerequested } from "./events/check-rerequested.js";
import { type DeliveryContext, DeliveryContexts } from "./events/delivery.js";
import { onReviewedPullRequest } from "./events/pull-request.js";
import { onClosedPullRequest } from "./events/pull-request-closed.js";
import { onLabeledPullRequest } from "./events/pull-request-labeled.js";
import { onPush } from "./events/push.js";
import type { WebhookSink } from "./events/sink.js";

export { baseChanged, type PullRequestEvent, PullRequestEventSchema, REVIEWED_ACTIONS } from "./events/pull-request.js";
export type { GitHubDecisionRequest } from "./events/decision-request.js";
export type { RerunRequest } from "./events/rerun-request.js";
export type { DecisionRecorded, Recorded, WebhookDelivery, WebhookSink } from "./events/sink.js";

export interface WebhookHandlerOptions {
  /** `GITHUB_WEBHOOK_SECRET`. */
  secret: string;
  sink: WebhookSink;
  log: Logger;
  /** `GATE_PROTECTED_BRANCHES`: branches watched for pushes besides each repository's default branch. */
  protectedBranches?: readonly string[];
  /** Larger bodies get 413 without being buffered; 5 MB by default. */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 5 * 1024 * 1024;
const DELIVERY_ID = /^[A-Za-z0-9-]{1,100}$/;
const EVENT_NAME = /^[a-z_]{1,64}$/;

type BodyRead = { ok: true; body: string } | { ok: false };

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function actionOf(json: object): unknown {
  return "action" in json ? json.action : undefined;
}

function send(res: ServerResponse, status: number, text: string, close = false): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    ...(close ? { connection: "close" } : {}),
  });
  res.end(text);
}

/** Reads the raw body, giving up (without buffering more) once it passes `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ ok: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off("data", onData);
        chunks.length = 0;
        resolve({ ok: false });
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve({ ok: true, body: Buffer.concat(chunks).toString("utf8") }));
    req.once("error", reject);
  });
}

/** Answers 413 and discards (never buffers) what the client still sends, then hangs up. */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse, max: number): void {
  send(res, 413, `payload larger than ${max} bytes`, true);
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > 4 * max) req.destroy();
  });
  req.resume();
}

/**
 * The `POST /github/webhook` route: verifies GitHub's signature over the raw body before
 * parsing it, answers pings, drops duplicates, and hands PR and push events to the sink (202).
 * It never rejects: every failure becomes an HTTP answer.
 *
 * @example server.on("request", (req, res) => void createWebhookHandler({ secret, sink, log })(req, res));
 */
export function createWebhookHandler(
  opts: WebhookHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const webhooks = new Webhooks({ secret: opts.secret });
  // One handler per event kind, each in its own file under events/; the route verifies first.
  const deliveries = new DeliveryContexts();
  onReviewedPullRequest(webhooks, opts.sink, deliveries);
  if (opts.sink.closed) onClosedPullRequest(webhooks, opts.sink.closed.bind(opts.sink), deliveries);
  if (opts.sink.labeled) onLabeledPullRequest(webhooks, opts.sink.labeled.bind(opts.sink), deliveries);
  if (opts.sink.pushed) onPush(webhooks, opts.sink.pushed.bind(opts.sink), opts.protectedBranches ?? [], deliveries);
  if (opts.sink.rerun) onCheckRerequested(webhooks, opts.sink.rerun.bind(opts.sink), deliveries);
  if (opts.sink.decide) onCheckRequestedAction(webhooks, opts.sink.decide.bind(opts.sink), deliveries);
  const max = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;

  const verify = async (body: string, signature: string): Promise<boolean> => {
    try {
      return await webhooks.verify(body, signature);
    } catch {
      return false; // an empty body or signature: the library throws instead of answering false
    }
  };

  return async (req, res) => {
    // The delivery's own logger, made only for a line that needs it: most deliveries log one line,
    // written with its fields as they are (a child logger per request was work for no line).
    let delivery: { deliveryId: string; event: string } | undefined;
    let child: Logger | undefined;
    const log = (): Logger => {
      if (!delivery) return opts.log;
      child ??= opts.log.child(delivery);
      return child;
    };
    try {
      if (req.method !== "POST") {
        res.setHeader("allow", "POST");
        send(res, 405, "POST only");
        return;
      }
      const id = header(req, "x-github-delivery");
      const event = header(req, "x-github-event");
      const signature = header(req, "x-hub-signature-256");
      if (!id || !DELIVERY_ID.test(id) || !event || !EVENT_NAME.test(event)) {
        log().warn("webhook without a valid X-GitHub-Delivery or X-GitHub-Event");
        send(res, 400, "missing or invalid X-GitHub-Delivery / X-GitHub-Event");
        return;
      }
      delivery = { deliveryId: id, event };
      if (!signature) {
        log().warn("webhook without X-Hub-Signature-256");
        send(res, 401, "missing X-Hub-Signature-256");
        return;
      }
      const read = await readBody(req, max);
      if (!read.ok) {
        log().warn({ maxBodyBytes: max }, "webhook body too large");
        refuseTooLarge(req, res, max);
        return;
      }
      if (!(await verify(read.body, signature))) {
        log().warn("webhook signature does not match GITHUB_WEBHOOK_SECRET");
        send(res, 401, "signature does not match");
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(read.body);
      } catch {
        log().warn("signed webhook body is not JSON");
        send(res, 400, "body is not JSON");
        return;
      }
      if (event === "ping") {
        send(res, 200, "pong");
        return;
      }
      if (typeof json !== "object" || json === null || Array.isArray(json)) {
        log().warn("signed webhook body is not a JSON object");
        send(res, 400, "body is not a JSON object");
        return;
      }
      const context: DeliveryContext = {
        id,
        event,
        log,
        baseLog: opts.log,
        answer: { status: 200, text: "ignored" },
      };
      deliveries.open(json, context);
      await webhooks.receive({ id, name: event, payload: json } as EmitterWebhookEvent);
      if (context.answer.text === "ignored") log().debug({ action: actionOf(json) }, "webhook ignored");
      send(res, context.answer.status, context.answer.text);
      context.afterAnswer?.();
    } catch (error) {
      // A handler's failure reaches here wrapped by the library (an AggregateError of one).
      const cause = error instanceof AggregateError && error.errors.length === 1 ? error.errors[0] : error;
      log().error({ err: cause }, "webhook handling failed");
      send(res, 500, "internal error");
    }
  };
}
