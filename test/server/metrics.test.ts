import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, textMessage } from "../fakes/anthropic-api.js";
import { routeByCaller } from "../claude-e2e/helpers.js";
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
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(text).not.toContain("gate_process_");
  });

  it("shows the standard process and Node metrics and the escalation, lookup, token and publish-failure counters", async () => {
    stack = await startStack();
    const vulnerable = serveFixture(stack, "018_vulnerable_dependency");
    const gpl = serveFixture(stack, "002_new_dependency");
    expect((await postWebhook(stack.base, JSON.stringify(pullRequestEvent("opened", vulnerable)))).status).toBe(202);
    expect((await postWebhook(stack.base, JSON.stringify(pullRequestEvent("opened", gpl)))).status).toBe(202);
    await stack.server.idle();
    const before = await (await fetch(`${stack.base}/metrics`)).text();
    expect(sample(before, 'gate_publish_failures_total{target="github-check"}')).toBeUndefined();

    // GitHub answers 500 to every check-run write (past the client's retries): the publish fails.
    const docs = serveFixture(stack, "001_readme_typo");
    stack.gh.failNext("POST", /\/check-runs$/, 1000, { status: 500 });
    stack.gh.failNext("PATCH", /\/check-runs\/\d+$/, 1000, { status: 500 });
    expect((await postWebhook(stack.base, JSON.stringify(pullRequestEvent("opened", docs)))).status).toBe(202);
    await stack.server.idle();

    const text = await (await fetch(`${stack.base}/metrics`)).text();
    expect(sample(text, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'gate_publish_failures_total{target="github-check"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'gate_publish_failures_total{target="slack"}')).toBeUndefined();
    expect(sample(text, 'gate_escalations_total{reason="blocking_finding"}')).toBe(2);
    // The typo review settled (auto-approved) although its check run could not be shown.
    expect(sample(text, 'gate_reviews_settled_total{route="auto_approved"}')).toBe(1);
    // 018 asks OSV about its pinned versions and the npm registry about its new packages' licences.
    expect(sample(text, 'gate_lookups_total{source="osv",outcome="found"}')).toBeGreaterThan(0);
    expect(sample(text, 'gate_lookups_total{source="npm",outcome="found"}')).toBeGreaterThan(0);
    expect(sample(text, 'gate_lookups_total{source="npm",outcome="failed"}')).toBeUndefined();
    for (const kind of ["input", "output", "cache_read", "cache_write"]) {
      expect(sample(text, `gate_model_tokens_total{kind="${kind}"}`)).toBe(0);
    }
  });

  it("counts a settled review's model tokens by kind: input, output, cache reads and cache writes", async () => {
    const api = await startFakeAnthropic();
    try {
      const usage = {
        input_tokens: 1000,
        output_tokens: 200,
        cache_creation_input_tokens: 300,
        cache_read_input_tokens: 500,
      };
      const compliant = {
        findings: [],
        verdicts: [
          { policy: "LIC-01", verdict: "compliant", reason: "MIT is on the allow-list" },
          { policy: "LIC-02", verdict: "compliant", reason: "MIT OR GPL lets us choose MIT" },
        ],
      };
      routeByCaller(api, {}, (caller) =>
        caller === "investigator" || caller === undefined ? undefined : textMessage(compliant, usage),
      );
      stack = await startStack({ env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: api.url } });
      const pr = serveFixture(stack, "010_mit_or_gpl_dependency");
      expect((await postWebhook(stack.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
      await stack.server.idle();

      const calls = api.requests.filter((r) => r.path.startsWith("/v1/messages") && !r.path.includes("count_tokens"));
      expect(calls.length).toBeGreaterThan(0);
      const text = await (await fetch(`${stack.base}/metrics`)).text();
      expect(sample(text, 'gate_reviews_settled_total{route="approved"}')).toBe(1);
      expect(sample(text, 'gate_model_tokens_total{kind="input"}')).toBe(1000 * calls.length);
      expect(sample(text, 'gate_model_tokens_total{kind="output"}')).toBe(200 * calls.length);
      expect(sample(text, 'gate_model_tokens_total{kind="cache_write"}')).toBe(300 * calls.length);
      expect(sample(text, 'gate_model_tokens_total{kind="cache_read"}')).toBe(500 * calls.length);
      expect(sample(text, "gate_model_calls_total")).toBe(calls.length);
    } finally {
      await stack?.close();
      stack = undefined;
      await api.close();
    }
  });
});
