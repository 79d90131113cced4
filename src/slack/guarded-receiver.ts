import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { ListenOptions } from "node:net";
import {
  HTTPModuleFunctions,
  HTTPReceiver,
  HTTPReceiverDeferredRequestError,
  type App,
  type CustomRoute,
  type Receiver,
} from "@slack/bolt";
import type { Logger } from "pino";
import { ANSWERS } from "../domain/turns.js";
import { boltLogger } from "./bolt-logger.js";
import { REQUEST_KEY } from "./replays.js";
import { checkSlackRequest } from "./request-check.js";

/** Slack's events path (commands, interactivity and the Events API all post here). */
export const SLACK_EVENTS_PATH = "/slack/events";

export interface GuardedReceiverOptions {
  signingSecret: string;
  customRoutes?: CustomRoute[];
  log: Logger;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** Largest body read, in bytes (Bolt's default, 4 MB, unless told). */
  bodyLimit?: number;
}

/**
 * Bolt's HTTP receiver with a guard in front of `/slack/events`: the body is read (up to a limit),
 * the signature and a timestamp within five minutes either way are verified (once: Bolt's own
 * check is off behind it), and the request is checked to be one this app handles, before Bolt
 * parses it. Whatever fails gets a 4xx and a log
 * line; nothing a request carries can throw inside Bolt's receiver. Other paths (the custom
 * routes) go to Bolt's receiver unchanged.
 *
 * @example new App({ token, receiver: new GuardedReceiver({ signingSecret, customRoutes, log }) })
 */
export class GuardedReceiver implements Receiver {
  private readonly inner: HTTPReceiver;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly bodyLimit: number;
  private server: http.Server | undefined;

  constructor(private readonly opts: GuardedReceiverOptions) {
    this.log = opts.log.child({ component: "slack-receiver" });
    this.now = opts.now ?? Date.now;
    this.bodyLimit = opts.bodyLimit ?? HTTPModuleFunctions.defaultBodyLimit;
    this.inner = new HTTPReceiver({
      signingSecret: opts.signingSecret,
      // The guard has verified the signature and the timestamp of every request it forwards to
      // `/slack/events` (the only requests Bolt would verify): Bolt does not verify them again.
      signatureVerification: false,
      endpoints: [SLACK_EVENTS_PATH],
      customRoutes: opts.customRoutes ?? [],
      logger: boltLogger(opts.log),
      bodyLimit: this.bodyLimit,
      // The verified signature (of the timestamp and the body) knows a replayed request again.
      customPropertiesExtractor: (req) => {
        const signature = req.headers["x-slack-signature"];
        return typeof signature === "string" ? { [REQUEST_KEY]: signature } : {};
      },
    });
  }

  init(app: App): void {
    this.inner.init(app);
  }

  /** Listens like Bolt's receiver: a port, or Node's listen options. Resolves with the server. */
  start(portOrOptions: number | ListenOptions = 3000): Promise<http.Server> {
    if (this.server) return Promise.reject(new Error("the Slack receiver is already started"));
    const server = http.createServer((req, res) => {
      // Review work on this thread waits between its slices while requests are answered.
      ANSWERS.track(res);
      this.listen(req, res);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(portOrOptions, () => {
        server.off("error", reject);
        resolve(server);
      });
    });
  }

  stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  }

  private listen(req: IncomingMessage, res: ServerResponse): void {
    let path: string;
    try {
      path = new URL(req.url ?? "/", "http://localhost").pathname;
    } catch {
      this.answer(res, 400, "the request's URL cannot be read");
      return;
    }
    if (path === SLACK_EVENTS_PATH && req.method === "POST") {
      void this.guard(req, res);
      return;
    }
    this.forward(req, res);
  }

  private async guard(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let rawBody: string;
    try {
      // Sets req.rawBody, which Bolt's receiver then reuses instead of reading the stream again.
      rawBody = (await HTTPModuleFunctions.bufferIncomingMessage(req, this.bodyLimit)).rawBody.toString();
    } catch (error) {
      const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
      this.refused(
        res,
        tooLarge ? 413 : 400,
        tooLarge ? `the body is over ${this.bodyLimit} bytes` : "the body could not be read",
      );
      return;
    }
    const verdict = checkSlackRequest({
      signingSecret: this.opts.signingSecret,
      headers: req.headers,
      rawBody,
      nowMs: this.now(),
    });
    if (!verdict.ok) {
      this.refused(res, verdict.status, verdict.why);
      return;
    }
    if (verdict.kind === "answer") {
      this.log.info({ why: verdict.why }, "slack request answered without processing");
      this.answer(res, 200, "");
      return;
    }
    this.forward(req, res);
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    try {
      this.inner.requestListener(req, res);
    } catch (error) {
      if (error instanceof HTTPReceiverDeferredRequestError) {
        this.answer(res, 404, "not found");
        return;
      }
      this.log.error({ err: error, method: req.method, url: req.url }, "an HTTP request failed");
      this.answer(res, 500, "");
    }
  }

  private refused(res: ServerResponse, status: number, why: string): void {
    this.log.warn({ status, why }, "slack request refused");
    this.answer(res, status, "");
  }

  private answer(res: ServerResponse, status: number, text: string): void {
    if (res.headersSent) return;
    res.writeHead(status, { "content-type": "text/plain" });
    res.end(text);
  }
}
