import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ANSWERS } from "../domain/turns.js";

/** A route of the gate's HTTP server, in Bolt's custom-route shape. */
export interface GateRoute {
  path: string;
  method: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * `GET /healthz`: 503 "starting" until the server is ready (the database open, recovery started);
 * then 200 "ok" while the database answers, and 503 "database: <why>" while it does not (it
 * recovers by itself once the database answers again).
 */
export function healthRoute(isReady: () => boolean, database: () => Promise<void>): GateRoute {
  return {
    path: "/healthz",
    method: "GET",
    handler: (_req, res) => {
      const answer = (status: number, text: string) =>
        res.headersSent || res.writeHead(status, { "content-type": "text/plain" }).end(text);
      if (!isReady()) return void answer(503, "starting");
      database().then(
        () => answer(200, "ok"),
        (error: unknown) => answer(503, `database: ${databaseTrouble(error)}`),
      );
    },
  };
}

/** What is wrong with the database, in one line (pg's connection errors are sometimes an AggregateError without a message). */
function databaseTrouble(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(databaseTrouble).join("; ");
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message || error.name : String(error);
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}

/** A plain Node request listener serving the given routes (when Slack is off, there is no Bolt). */
export function routeListener(routes: GateRoute[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    // A path may have a route per method (GET and POST /signin), as Bolt's custom routes allow.
    const onPath = routes.filter((r) => r.path === path);
    if (onPath.length === 0) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const route = onPath.find((r) => r.method === req.method);
    if (!route) {
      const allow = onPath.map((r) => r.method).join(", ");
      res.writeHead(405, { "content-type": "text/plain", allow }).end("method not allowed");
      return;
    }
    route.handler(req, res);
  };
}

/**
 * Serves the routes on a plain HTTP server on `port` (0: any free one): the server with Slack off.
 *
 * @example const { port, stop } = await serveRoutes([healthRoute(() => true, async () => {})], 0);
 */
export async function serveRoutes(routes: GateRoute[], port: number): Promise<{ port: number; stop(): Promise<void> }> {
  const listener = routeListener(routes);
  const server = http.createServer((req, res) => {
    // Review work on this thread waits between its slices while requests are answered.
    ANSWERS.track(res);
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
