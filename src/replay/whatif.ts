import type { Logger } from "pino";
import type { Clock } from "../domain/clock.js";
import { SPECIALTIES, type Finding } from "../domain/finding.js";
import type { Route } from "../domain/review-result.js";
import type { Settings } from "../settings/index.js";
import { messageOf } from "../domain/errors.js";
import type { DamagedReview, StoredReview } from "../store/replay-reader.js";
import type { ReviewStateValue } from "../graph/state.js";
import { type ReplayCorpus, replayGraph } from "./replay-graph.js";

/** Where a replayed review would stop: a verdict, or waiting for a person. */
export type ReplayRoute = "auto_approved" | "approved" | "human";

/** One review whose route or findings the proposed configuration changes. */
export interface WhatIfChange {
  review_id: string;
  pr: string;
  /** The route it took then, as stored (null: it never settled). */
  route_then: Route | null;
  /** Where it stops when replayed now with today's configuration (what the proposal is compared with). */
  route_now: ReplayRoute;
  /** Where it would stop with the proposed configuration. */
  route_would: ReplayRoute;
  /** Findings only the proposed configuration raises, as `POLICY file:line (severity, blocking)`. */
  appeared: string[];
  /** Findings only today's configuration raises. */
  disappeared: string[];
}

/** What a replay of the stored reviews found. */
export interface WhatIfReport {
  /** How many stored reviews were replayed. */
  replayed: number;
  /** Stored reviews that could not be replayed, and why (their pull request was not kept, their record is damaged, the replay failed). */
  skipped: { review_id: string; pr: string; why: string }[];
  /** The reviews that change, oldest first. */
  changes: WhatIfChange[];
  summary: {
    /** Would newly wait for a person. */
    newly_waiting: number;
    /** Would no longer wait for a person. */
    no_longer_waiting: number;
    /** Take the same route (some may still gain or lose findings). */
    unchanged: number;
  };
}

const person = (route: ReplayRoute) => route === "human";

function routeOf(values: Partial<ReviewStateValue>, waiting: boolean): ReplayRoute {
  if (waiting) return "human";
  const route = values.route;
  return route === "auto_approved" || route === "approved" ? route : "human";
}

function findingKeys(values: Partial<ReviewStateValue>): Set<string> {
  const batches = values.findings ?? {};
  const all: Finding[] = SPECIALTIES.flatMap((s) => batches[s]?.findings ?? []);
  return new Set(
    all.map(
      (f) =>
        `${f.policy} ${f.file ?? "(pr)"}${f.line !== undefined ? `:${f.line}` : ""} (${f.severity}${f.blocking ? ", blocking" : ""})`,
    ),
  );
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((k) => !b.has(k)).sort();

/**
 * Replays stored reviews through the detectors and the routing, in rules mode (no model call),
 * once with today's corpus and configuration and once with the proposed ones, and reports each
 * review whose route or findings differ, with a summary. Comparing two replays (not the stored
 * route) keeps what a model or a person decided then, or a registry answering differently, out
 * of what the configuration changes. Writes nothing.
 *
 * @example const report = await whatIf(stored, { current, proposed }, settings, log, systemClock); report.summary.newly_waiting
 */
export async function whatIf(
  stored: ReadonlyArray<StoredReview | DamagedReview>,
  corpora: { current: ReplayCorpus; proposed: ReplayCorpus },
  settings: Settings,
  log: Logger,
  clock: Clock,
): Promise<WhatIfReport> {
  const now = replayGraph(corpora.current, settings, log, clock);
  const would = replayGraph(corpora.proposed, settings, log, clock);
  const report: WhatIfReport = {
    replayed: 0,
    skipped: [],
    changes: [],
    summary: { newly_waiting: 0, no_longer_waiting: 0, unchanged: 0 },
  };
  try {
    for (const review of stored) {
      const skip = (why: string) => report.skipped.push({ review_id: review.id, pr: review.pr, why });
      if ("damaged" in review) {
        skip(`its stored record cannot be read: ${review.damaged}`);
        continue;
      }
      if (!review.pullRequest) {
        skip("its pull request was not kept");
        continue;
      }
      const input = { id: review.id, source: review.source, pullRequest: review.pullRequest };
      let a: Awaited<ReturnType<typeof now.run>>;
      let b: typeof a;
      try {
        [a, b] = [await now.run(input), await would.run(input)];
      } catch (error) {
        // One review the replay cannot finish (a stored pull request that no longer fits) is named; the rest go on.
        log.warn({ err: error, reviewId: review.id }, "a stored review could not be replayed");
        skip(`the replay failed: ${messageOf(error)}`);
        continue;
      }
      report.replayed++;
      const routeNow = routeOf(a.values, a.waiting);
      const routeWould = routeOf(b.values, b.waiting);
      const before = findingKeys(a.values);
      const after = findingKeys(b.values);
      const appeared = minus(after, before);
      const disappeared = minus(before, after);
      if (person(routeWould) && !person(routeNow)) report.summary.newly_waiting++;
      else if (person(routeNow) && !person(routeWould)) report.summary.no_longer_waiting++;
      else report.summary.unchanged++;
      if (routeNow === routeWould && appeared.length === 0 && disappeared.length === 0) continue;
      report.changes.push({
        review_id: review.id,
        pr: review.pr,
        route_then: review.result?.route ?? null,
        route_now: routeNow,
        route_would: routeWould,
        appeared,
        disappeared,
      });
    }
  } finally {
    now.close();
    would.close();
  }
  return report;
}
