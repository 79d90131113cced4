import { randomUUID } from "node:crypto";
import http from "node:http";
import { performance } from "node:perf_hooks";
import type { Webhooks } from "@octokit/webhooks";

/** A signed `pull_request` delivery of `body`, with its own delivery id, as GitHub sends one. */
export async function signedDelivery(
  signer: Webhooks,
  body: string,
): Promise<{ body: string; headers: Record<string, string> }> {
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-github-event": "pull_request",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": await signer.sign(body),
    },
  };
}

/**
 * Sends deliveries all at once, each on a connection of its own (as GitHub sends them: no
 * delivery reuses another's connection, so neither server is measured with warm connections the
 * other lacks); returns each answer's latency in ms, from the request to the answer's last byte.
 */
export async function burst(
  port: number,
  deliveries: Array<{ body: string; headers: Record<string, string> }>,
): Promise<number[]> {
  return Promise.all(
    deliveries.map(
      (d) =>
        new Promise<number>((resolve, reject) => {
          const started = performance.now();
          const req = http.request(
            {
              host: "127.0.0.1",
              port,
              path: "/github/webhook",
              method: "POST",
              headers: { ...d.headers, "content-length": Buffer.byteLength(d.body) },
              // No pooled agent: a new connection, closed after its answer.
              agent: false,
            },
            (res) => {
              res.resume();
              res.once("error", reject);
              res.once("end", () => {
                if (res.statusCode === 202) resolve(performance.now() - started);
                else reject(new Error(`webhook answered ${res.statusCode}`));
              });
            },
          );
          req.once("error", reject);
          req.end(d.body);
        }),
    ),
  );
}

/**
 * The 99th percentile (nearest rank): of 200 values, the 198th smallest; of 100 or fewer, the largest.
 *
 * @example p99([5, 1, 3]) // 5
 */
export const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;
