// The baseline for the webhook-ack figure: a bare node:http server that does what every webhook
// receiver must (read the body, check GitHub's signature with @octokit/webhooks) and answers 202.
// Prints its port as JSON on stdout.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhooks } from "@octokit/webhooks";

const webhooks = new Webhooks({ secret: process.env.GITHUB_WEBHOOK_SECRET ?? "" });
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    webhooks.verify(body, String(req.headers["x-hub-signature-256"] ?? "")).then(
      (ok) => res.writeHead(ok ? 202 : 401).end(),
      () => res.writeHead(400).end(),
    );
  });
});
server.listen(0, "127.0.0.1", () =>
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`),
);
