import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { LookupOutcome } from "../domain/lookup-observer.js";
import type { Publisher, ReviewRecord } from "../domain/review.js";
import type { ReviewResult } from "../domain/review-result.js";
import type { GateRoute } from "./http-routes.js";

/** What the metrics watch besides what is told to them: the queue's depth. */
export interface MetricsSources {
  queueDepth(): Promise<number>;
  /** Reviews waiting for a person now. */
  waiting(): Promise<number>;
}

/**
 * The gate's Prometheus metrics, on a registry of its own (never the library's global one, so two
 * gates in one process, as in tests, do not share counters), served at `GET /metrics`.
 *
 * What the gauges read (the queue, the store) is given to `watch` once those exist; until then
 * they read 0.
 *
 * @example const metrics = createMetrics(); metrics.watch({ queueDepth: () => jobs.depth(), waiting: async () => 0 });
 */
export function createMetrics() {
  let sources: MetricsSources = { queueDepth: async () => 0, waiting: async () => 0 };
  const registry = new Registry();
  // prom-client's defaults under their standard names (process_*, nodejs_*), as dashboards expect them.
  collectDefaultMetrics({ register: registry });

  const reviews = new Counter({
    name: "gate_reviews_settled_total",
    help: "Reviews settled, by route (auto_approved, approved, human_approved, human_rejected, merged_unapproved)",
    labelNames: ["route"] as const,
    registers: [registry],
  });
  const reviewSeconds = new Histogram({
    name: "gate_review_duration_seconds",
    help: "From registering a review to its result (queue wait included), by route",
    labelNames: ["route"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const ackSeconds = new Histogram({
    name: "gate_webhook_ack_seconds",
    help: "Time to answer a GitHub webhook delivery, by HTTP status",
    labelNames: ["status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const rejected = new Counter({
    name: "gate_rejected_requests_total",
    help: "Requests refused with a 4xx (bad signature, malformed body, ...), by source and status",
    labelNames: ["source", "status"] as const,
    registers: [registry],
  });
  const tokens = new Counter({
    name: "gate_model_tokens_total",
    help: "Model tokens of settled reviews, by kind (input, output, cache_read, cache_write)",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const escalations = new Counter({
    name: "gate_escalations_total",
    help: "Reviews sent to a person, by reason (blocking_finding, timeout, lookup_failed, ...)",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  const publishFailures = new Counter({
    name: "gate_publish_failures_total",
    help: "Failed attempts to show a result, by target (github-check, github-comment, slack)",
    labelNames: ["target"] as const,
    registers: [registry],
  });
  const lookups = new Counter({
    name: "gate_lookups_total",
    help: "Licence and advisory lookups of live reviews, by source (npm, pypi, ..., osv) and outcome (found, unknown, failed)",
    labelNames: ["source", "outcome"] as const,
    registers: [registry],
  });
  const cost = new Counter({
    name: "gate_model_cost_usd_total",
    help: "Model spend of settled reviews, in US dollars",
    registers: [registry],
  });
  const modelCalls = new Counter({
    name: "gate_model_calls_total",
    help: "Model calls of settled reviews",
    registers: [registry],
  });
  new Gauge({
    name: "gate_queue_depth",
    help: "Review jobs queued or running: this process's (SQLite), or every replica's (PostgreSQL)",
    registers: [registry],
    async collect() {
      this.set(await sources.queueDepth());
    },
  });
  new Gauge({
    name: "gate_reviews_waiting",
    help: "Reviews waiting for a person",
    registers: [registry],
    async collect() {
      this.set(await sources.waiting());
    },
  });

  return {
    registry,
    /** What the queue-depth and waiting gauges read at each scrape. */
    watch(watched: MetricsSources): void {
      sources = watched;
    },
    /** Counts a settled review: its route, how long it took, what its model calls cost. */
    reviewed(review: ReviewRecord, result: ReviewResult, now: Date): void {
      const route = result.route ?? "none";
      reviews.inc({ route });
      reviewSeconds.observe({ route }, Math.max(0, (now.getTime() - Date.parse(review.createdAt)) / 1000));
      tokens.inc({ kind: "input" }, result.budget.input_tokens);
      tokens.inc({ kind: "output" }, result.budget.output_tokens);
      tokens.inc({ kind: "cache_read" }, result.budget.cache_read_input_tokens);
      tokens.inc({ kind: "cache_write" }, result.budget.cache_creation_input_tokens);
      cost.inc(result.budget.cost_usd);
      modelCalls.inc(result.budget.model_calls);
    },
    /** What the gate tells the metrics: settled reviews, escalations, lookups (`buildGate`'s extras). */
    gateHooks(clock: () => Date) {
      return {
        onSettled: (review: ReviewRecord, result: ReviewResult) => this.reviewed(review, result, clock()),
        onEscalated: (review: ReviewRecord, result: ReviewResult) => this.escalated(review, result),
        onLookup: (source: string, outcome: LookupOutcome) => this.lookedUp(source, outcome),
      };
    },
    /** Counts a review sent to a person, by its escalation's reason. */
    escalated(_review: ReviewRecord, result: ReviewResult): void {
      escalations.inc({ reason: result.escalation?.reason ?? "none" });
    },
    /** Counts one licence or advisory lookup. */
    lookedUp(source: string, outcome: LookupOutcome): void {
      lookups.inc({ source, outcome });
    },
    /** The publisher, its failures counted by its name (the error still goes to its caller). */
    counted(publisher: Publisher): Publisher {
      return {
        name: publisher.name,
        publish: async (review, result) => {
          try {
            return await publisher.publish(review, result);
          } catch (error) {
            publishFailures.inc({ target: publisher.name });
            throw error;
          }
        },
      };
    },
    /** A refused request (4xx) from `source` ("github", "slack"). */
    rejected(source: string, status: number): void {
      rejected.inc({ source, status: String(status) });
    },
    /** Wraps the webhook handler: times each answer, and counts refusals. */
    timedWebhook(handler: (req: IncomingMessage, res: ServerResponse) => void) {
      return (req: IncomingMessage, res: ServerResponse): void => {
        const end = ackSeconds.startTimer();
        res.once("finish", () => {
          end({ status: String(res.statusCode) });
          if (res.statusCode >= 400 && res.statusCode < 500)
            rejected.inc({ source: "github", status: String(res.statusCode) });
        });
        handler(req, res);
      };
    },
    /** `GET /metrics`, in Prometheus' text format. */
    route(): GateRoute {
      return {
        path: "/metrics",
        method: "GET",
        handler: (_req, res) => {
          registry.metrics().then(
            (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
            () => res.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable"),
          );
        },
      };
    },
  };
}

export type GateMetrics = ReturnType<typeof createMetrics>;
