import type { IncomingMessage, ServerResponse } from "node:http";
import { Webhooks } from "@octokit/webhooks";
import type { Logger } from "pino";
import { z } from "zod";
import { rerunRequest, type RerunRequest } from "./rerun-event.js";
import { prKey } from "../domain/pull-request.js";

export type { RerunRequest } from "./rerun-event.js";

/** The fields of a `pull_request` webhook payload the gate reads (GitHub sends many more). */
export const PullRequestEventSchema = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    html_url: z.string(),
    /** When the PR last changed (a push moves it): orders deliveries that arrive out of order. */
    updated_at: z.string().optional(),
    draft: z.boolean().optional(),
    state: z.string(),
    user: z.object({ login: z.string() }).nullable(),
    head: z.object({ ref: z.string(), sha: z.string().regex(/^[0-9a-f]{40}$/) }),
    base: z.object({ ref: z.string(), sha: z.string() }),
  }),
  repository: z.object({
    name: z.string(),
    full_name: z.string(),
    owner: z.object({ login: z.string() }),
  }),
  installation: z.object({ id: z.number().int().positive() }).optional(),
  /** On `edited`: what changed. A new `base` means a new diff for the same head. */
  changes: z
    .object({ base: z.object({}).passthrough().optional() })
    .passthrough()
    .optional(),
  sender: z.object({ login: z.string() }).optional(),
});
/** A verified `pull_request` delivery, reduced to what the gate reads. */
export type PullRequestEvent = z.infer<typeof PullRequestEventSchema>;

/** One verified delivery the gate should review. */
export interface WebhookDelivery {
  /** `X-GitHub-Delivery`: the de-duplication key. */
  id: string;
  /** `X-GitHub-Event`, always "pull_request" here. */
  event: string;
  action?: string;
  /** The PR is a draft: passed through, the caller decides whether drafts are reviewed. */
  draft: boolean;
  payload: PullRequestEvent;
}

/** What became of a delivery: a redelivery of one recorded before (GitHub redelivers), or recorded now. */
export type Recorded = { duplicate: boolean };

/**
 * Where verified deliveries go (the store records them with the job each calls for). Each method
 * records the delivery and acts on it in one transaction, unless its id was recorded before: the
 * same transaction says which. Each must be quick (GitHub waits 10 s at most).
 */
export interface WebhookSink {
  /** Records the delivery with the review it asks for (registered after the answer: the `review queued` line names both). */
  accept(delivery: WebhookDelivery): Recorded | Promise<Recorded>;
  /** A pull request was closed (or merged): its open reviews end without a decision. */
  closed?(delivery: { id: string; event: string; pr: string }): Recorded | Promise<Recorded>;
  /** GitHub's "Re-run" on the gate's check run, or on the whole check suite. */
  rerun?(request: RerunRequest): Recorded | Promise<Recorded>;
}

export interface WebhookHandlerOptions {
  /** `GITHUB_WEBHOOK_SECRET`. */
  secret: string;
  sink: WebhookSink;
  log: Logger;
  /** Larger bodies get 413 without being buffered; 5 MB by default. */
  maxBodyBytes?: number;
}

/** The pull_request actions that start a review. */
export const REVIEWED_ACTIONS: ReadonlySet<string> = new Set(["opened", "synchronize", "reopened", "ready_for_review"]);

const DEFAULT_MAX_BODY = 5 * 1024 * 1024;
const DELIVERY_ID = /^[A-Za-z0-9-]{1,100}$/;
const EVENT_NAME = /^[a-z_]{1,64}$/;

type BodyRead = { ok: true; body: string } | { ok: false };

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
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
 * An `edited` delivery that moved the PR to another base branch: the same head now has another
 * diff, so the check run on it must be earned again.
 */
export function baseChanged(json: unknown): boolean {
  const changes = typeof json === "object" && json !== null && "changes" in json ? json.changes : undefined;
  return typeof changes === "object" && changes !== null && "base" in changes && changes.base != null;
}

/**
 * The `POST /github/webhook` route: verifies GitHub's signature over the raw body before
 * parsing it, answers pings, drops duplicates, and hands PR events to the sink (202).
 * It never rejects: every failure becomes an HTTP answer.
 *
 * @example server.on("request", (req, res) => void createWebhookHandler({ secret, sink, log })(req, res));
 */
export function createWebhookHandler(
  opts: WebhookHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const webhooks = new Webhooks({ secret: opts.secret });
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
      const action =
        typeof json === "object" && json !== null && "action" in json && typeof json.action === "string"
          ? json.action
          : undefined;
      if ((event === "check_run" || event === "check_suite") && action === "rerequested" && opts.sink.rerun) {
        const request = rerunRequest(event, id, json);
        if (!request) {
          log().warn({ event }, "rerequested payload lacks fields the gate reads");
          send(res, 400, `${event} payload is missing fields`);
          return;
        }
        if ((await opts.sink.rerun(request)).duplicate) {
          send(res, 200, "duplicate");
          return;
        }
        log().info({ repo: request.repo, headSha: request.headSha }, "re-run requested");
        send(res, 202, "accepted");
        return;
      }
      if (event === "pull_request" && action === "closed" && opts.sink.closed) {
        const closed = PullRequestEventSchema.safeParse(json);
        if (!closed.success) {
          send(res, 400, "pull_request payload is missing fields");
          return;
        }
        const pr = prKey({ repo: closed.data.repository.full_name, number: closed.data.pull_request.number });
        if ((await opts.sink.closed({ id, event, pr })).duplicate) {
          send(res, 200, "duplicate");
          return;
        }
        log().info({ pr }, "pull request closed");
        send(res, 202, "accepted");
        return;
      }
      const reviewed =
        action !== undefined && (REVIEWED_ACTIONS.has(action) || (action === "edited" && baseChanged(json)));
      if (event !== "pull_request" || action === undefined || !reviewed) {
        log().debug({ action }, "webhook ignored");
        send(res, 200, "ignored");
        return;
      }
      const payload = PullRequestEventSchema.safeParse(json);
      if (!payload.success) {
        const issue = payload.error.issues[0];
        log().warn(
          { issue: issue?.message, path: issue?.path.join(".") },
          "pull_request payload lacks fields the gate reads",
        );
        send(res, 400, "pull_request payload is missing fields");
        return;
      }
      const draft = payload.data.pull_request.draft ?? false;
      if ((await opts.sink.accept({ id, event, action, draft, payload: payload.data })).duplicate) {
        send(res, 200, "duplicate");
        log().info("duplicate webhook delivery");
        return;
      }
      send(res, 202, "accepted");
      // The delivery's log line, once GitHub has its answer; the review it asks for is registered
      // after it (a "review queued" line with the same deliveryId names the review).
      opts.log.info(
        {
          ...delivery,
          action,
          draft,
          pr: prKey({ repo: payload.data.repository.full_name, number: payload.data.number }),
        },
        "webhook accepted",
      );
    } catch (error) {
      log().error({ err: error }, "webhook handling failed");
      send(res, 500, "internal error");
    }
  };
}
