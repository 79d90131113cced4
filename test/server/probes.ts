import { expect } from "vitest";
import * as stack from "./helpers.js";

/** The 99th percentile of latencies (ms). */
export const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

/** Asks `/healthz` and sends a signed `ping` one after the other until `busy()` is false; the latencies of each. */
export async function probeWhile(base: string, busy: () => boolean): Promise<{ health: number[]; webhook: number[] }> {
  const health: number[] = [];
  const webhook: number[] = [];
  while (busy()) {
    const started = performance.now();
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    await res.text();
    health.push(performance.now() - started);
    const ping = await stack.postWebhook(base, JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 }), {
      event: "ping",
    });
    expect(ping.status).toBe(200);
    webhook.push(ping.ms);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { health, webhook };
}
