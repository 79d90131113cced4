import { SocketModeReceiver, type CustomRoute } from "@slack/bolt";
import type { Logger } from "pino";
import { boltLogger } from "./bolt-logger.js";
import { REQUEST_KEY } from "./replays.js";
import { checkSocketModeMessage } from "./request-check.js";

export interface GuardedSocketModeReceiverOptions {
  /** The app-level token (xapp-…) that opens the WebSocket. */
  appToken: string;
  log: Logger;
  customRoutes?: CustomRoute[];
  /** The custom routes' HTTP port. */
  port?: number;
  /** The Web API base (apps.connections.open), with a trailing slash; tests point it at a fake. */
  slackApiUrl?: string;
}

/** The Socket Mode client as far as the guard uses it: an event emitter that can answer an envelope. */
interface SocketClient {
  listeners(event: string): ((...args: unknown[]) => unknown)[];
  removeAllListeners(event: string): unknown;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  send(envelopeId: string, body?: Record<string, unknown>): Promise<void>;
}

/**
 * Bolt's Socket Mode receiver with the HTTP guard's checks in front: every WebSocket message is
 * checked by `checkSocketModeMessage` (the same payload rules as `/slack/events`) before the
 * Socket Mode client parses it. A malformed envelope, a `null` payload, an action without a user
 * is logged and acknowledged (so Slack does not redeliver it), and goes no further; nothing an
 * envelope carries can throw inside the client or Bolt.
 *
 * @example new App({ token, receiver: new GuardedSocketModeReceiver({ appToken, log }) })
 */
export class GuardedSocketModeReceiver extends SocketModeReceiver {
  constructor(opts: GuardedSocketModeReceiverOptions) {
    super({
      appToken: opts.appToken,
      logger: boltLogger(opts.log),
      ...(opts.customRoutes ? { customRoutes: opts.customRoutes } : {}),
      // Slack redelivers an envelope it heard no answer to: its id knows the request again.
      customPropertiesExtractor: (args: { envelope_id?: unknown }) =>
        typeof args.envelope_id === "string" ? { [REQUEST_KEY]: `envelope:${args.envelope_id}` } : {},
      installerOptions: {
        ...(opts.port !== undefined ? { port: opts.port } : {}),
        ...(opts.slackApiUrl ? { clientOptions: { slackApiUrl: opts.slackApiUrl } } : {}),
      },
    });
    guardSocketMessages(this.client as unknown as SocketClient, opts.log.child({ component: "slack-socket" }));
  }
}

/**
 * Puts the guard between the WebSocket and the Socket Mode client's own parser.
 *
 * A quirk of @slack/socket-mode 2.x: the client reads each message in its own `ws_message`
 * listener and reads `payload.event.type` unchecked, so an `events_api` envelope without a payload
 * rejects inside an event listener (an unhandled rejection, which ends a Node 20 process). Its
 * listener is taken off and called only for messages the guard lets through.
 */
export function guardSocketMessages(client: SocketClient, log: Logger): void {
  const inner = client.listeners("ws_message");
  client.removeAllListeners("ws_message");
  const acknowledge = (envelopeId: string) =>
    client.send(envelopeId).catch((error: unknown) => log.warn({ err: error, envelopeId }, "could not acknowledge"));
  client.on("ws_message", (data: unknown, isBinary: unknown) => {
    if (isBinary === false && typeof data === "string") {
      const verdict = checkSocketModeMessage(data);
      if (!verdict.ok) {
        log.warn({ why: verdict.why, envelopeId: verdict.envelopeId }, "slack socket message refused");
        if (verdict.envelopeId) void acknowledge(verdict.envelopeId);
        return;
      }
      if (verdict.kind === "answer") {
        log.info({ why: verdict.why }, "slack socket message answered without processing");
        void acknowledge(verdict.envelopeId);
        return;
      }
    }
    // Binary messages, which the client ignores, go on unchanged; so does everything accepted.
    for (const listener of inner) {
      try {
        void Promise.resolve(listener.call(client, data, isBinary)).catch((error: unknown) =>
          log.error({ err: error }, "a slack socket message failed"),
        );
      } catch (error) {
        log.error({ err: error }, "a slack socket message failed");
      }
    }
  });
}
