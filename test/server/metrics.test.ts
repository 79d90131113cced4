import { afterEach, describe, expect, it } from "vitest";
import { postWebhook, pullRequestEvent, serveFixture, startStack, type Stack } from "./helpers.js";

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** The value of one sample line of Prometheus' text format, e.g. `gate_reviews_settled_total{route="auto_approved"}`. */
function sample(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe("GET /metrics", () => {
  it("counts settled reviews by route, webhook answers, refusals, waiting reviews and the queue", async () => {
    stack = await startStack();
    const docs = serveFixture(stack, "001_readme_typo");
    const gpl = serveFixture(stack, "002_new_dependency");
    expect((await postWebhook(stack.base, JSON.stringify(pullRequestEvent("opened", docs)))).status).toBe(202);
    expect((await postWebhook(stack.base, JSON.stringify(pullRequestEvent("opened", gpl)))).status).toBe(202);
    expect((await postWebhook(stack.base, "{}", { signature: "sha256=0000" })).status).toBe(401);
    await stack.server.idle();

    const res = await fetch(`${stack.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(sample(text, 'gate_reviews_settled_total{route="auto_approved"}')).toBe(1);
    expect(sample(text, 'gate_reviews_settled_total{route="human_approved"}')).toBeUndefined();
    expect(sample(text, "gate_reviews_waiting")).toBe(1);
    expect(sample(text, "gate_queue_depth")).toBe(0);
    expect(sample(text, 'gate_webhook_ack_seconds_count{status="202"}')).toBe(2);
    expect(sample(text, 'gate_rejected_requests_total{source="github",status="401"}')).toBe(1);
    expect(sample(text, 'gate_review_duration_seconds_count{route="auto_approved"}')).toBe(1);
    expect(sample(text, "gate_model_cost_usd_total")).toBe(0);
    expect(text).toContain("gate_process_resident_memory_bytes");
  });
});
