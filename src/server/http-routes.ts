import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A route of the gate's HTTP server, in Bolt's custom-route shape. */
export interface GateRoute {
  path: string;
  method: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/** `GET /healthz`: 200 once the server is ready (the database open, recovery started), 503 before. */
export function healthRoute(isReady: () => boolean): GateRoute {
  return {
    path: "/healthz",
    method: "GET",
    handler: (_req, res) => {
      const ready = isReady();
      res.writeHead(ready ? 200 : 503, { "content-type": "text/plain" });
      res.end(ready ? "ok" : "starting");
    },
  };
}

/** A plain Node request listener serving the given routes (when Slack is off, there is no Bolt). */
export function routeListener(routes: GateRoute[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    const route = routes.find((r) => r.path === path);
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    if (route.method !== req.method) {
      res.writeHead(405, { "content-type": "text/plain", allow: route.method }).end("method not allowed");
      return;
    }
    route.handler(req, res);
  };
}

/**
 * Serves the routes on a plain HTTP server on `port` (0: any free one): the server with Slack off.
 *
 * @example const { port, stop } = await serveRoutes([healthRoute(() => true)], 0);
 */
export async function serveRoutes(routes: GateRoute[], port: number): Promise<{ port: number; stop(): Promise<void> }> {
  const server = http.createServer(routeListener(routes));
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
