import type { ResultFinding, ReviewResult } from "../domain/review-result.js";
import type { Expected } from "./expected.js";

/** One fixture's review, or why it could not be reviewed. */
export interface FixtureOutcome {
  fixture: string;
  expected: Expected;
  /** Absent when the review threw (`error` says why). */
  result?: Pick<ReviewResult, "route" | "findings" | "escalation" | "budget">;
  error?: string;
}

/** One fixture, scored. TP/FP/FN/TN are policy ids (see `scoreFixture`). */
export interface FixtureScore {
  fixture: string;
  expected_route: Expected["route"];
  route: string | null;
  route_ok: boolean;
  /** Every policy id a finding of the result cites, sorted. */
  cited: string[];
  /**
   * Every finding of the result, in its order: its policy, where (when it has a place) and its
   * message, so that a score can ask which finding cited a policy (scripts/sast-eval.ts does).
   */
  findings: FixtureFinding[];
  tp: string[];
  fp: string[];
  fn: string[];
  tn: string[];
  /** Cited, but in neither list of expected.json: not scored. */
  unscored: string[];
  escalation: string | null;
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  error?: string;
}

/** One finding of a fixture's review, as `per_fixture[].findings` prints it. */
export type FixtureFinding = Pick<ResultFinding, "policy" | "file" | "line" | "message">;

/** Counts for one policy id over all fixtures; a rate is null when its denominator is 0. */
export interface PolicyScore {
  policy: string;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number | null;
  recall: number | null;
}

/** Fixtures whose route missed in one direction, with their count. */
export interface RouteMisses {
  count: number;
  /** Of how many fixtures that could miss this way. */
  of: number;
  /** count / of, or null when no fixture could miss this way. */
  rate: number | null;
  fixtures: string[];
}

/** The whole evaluation, as `gate eval --json` prints it. */
export interface EvalReport {
  fixtures: number;
  errors: number;
  route_accuracy: { correct: number; total: number; rate: number | null };
  /**
   * Risky fixtures (expected `human`) that the gate passed (`approved` or `auto_approved`): the
   * one number that must stay 0. `of` counts the risky fixtures.
   */
  unsafe_passes: RouteMisses;
  /** Clean fixtures (expected `approved` or `auto_approved`) that went to a person. `of` counts the clean fixtures. */
  needless_escalations: RouteMisses;
  /** Per policy id, sorted by id. */
  policies: PolicyScore[];
  /** Every policy's counts summed (micro-averaged precision and recall). */
  overall: Omit<PolicyScore, "policy">;
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  per_fixture: FixtureScore[];
}

/** One run of `gate eval`: how it reviewed, over which folders, and the scores. */
export interface EvalRun extends EvalReport {
  /** `rules`: the rules reviewer and the deterministic investigator, no model; `model`: Claude. */
  mode: "rules" | "model";
  /** The corpus folders, absolute. */
  corpus: string[];
}

const sorted = (ids: Iterable<string>): string[] => [...new Set(ids)].sort();

/** Routes that let a PR through without a person. */
const PASSED: ReadonlySet<string> = new Set(["approved", "auto_approved"]);

/**
 * Is this fixture an unsafe pass (a risky PR the gate let through)? A review that failed is not a
 * pass: it let nothing through (and it is counted in `errors`).
 *
 * @example isUnsafePass(scoreFixture(outcome)) // true when expected "human" and got "approved"
 */
export function isUnsafePass(s: Pick<FixtureScore, "expected_route" | "route">): boolean {
  return s.expected_route === "human" && s.route !== null && PASSED.has(s.route);
}

/**
 * Is this fixture a needless escalation (a clean PR sent to a person)?
 *
 * @example isNeedlessEscalation({ expected_route: "auto_approved", route: "human" }) // true
 */
export function isNeedlessEscalation(s: Pick<FixtureScore, "expected_route" | "route">): boolean {
  return s.expected_route !== "human" && s.route === "human";
}

function misses(
  scores: readonly FixtureScore[],
  eligible: (s: FixtureScore) => boolean,
  missed: (s: FixtureScore) => boolean,
): RouteMisses {
  const pool = scores.filter(eligible);
  const fixtures = pool.filter(missed).map((s) => s.fixture);
  return {
    count: fixtures.length,
    of: pool.length,
    rate: pool.length === 0 ? null : fixtures.length / pool.length,
    fixtures,
  };
}

/**
 * Scores one fixture against its expected.json. A policy is *cited* when any finding of the
 * result names it (blocking or not, from a detector, the rules or the model). Then, per policy id:
 * in `must_cite` and cited → TP; in `must_cite`, not cited → FN; in `must_not_cite` and cited →
 * FP; in `must_not_cite`, not cited → TN; in neither list → not scored (`unscored` when cited).
 * A review that failed cites nothing and matches no route.
 *
 * @example scoreFixture({ fixture: "002", expected, result }).tp // ["LIC-02"]
 */
export function scoreFixture(outcome: FixtureOutcome): FixtureScore {
  const { expected, result } = outcome;
  const cited = sorted((result?.findings ?? []).map((f) => f.policy));
  const has = new Set(cited);
  const must = new Set(expected.must_cite);
  const mustNot = new Set(expected.must_not_cite.filter((p) => !must.has(p)));
  const route = result?.route ?? null;
  return {
    fixture: outcome.fixture,
    expected_route: expected.route,
    route,
    route_ok: result !== undefined && route === expected.route,
    cited,
    findings: (result?.findings ?? []).map(({ policy, file, line, message }) => ({
      policy,
      ...(file !== undefined ? { file } : {}),
      ...(line !== undefined ? { line } : {}),
      message,
    })),
    tp: sorted([...must].filter((p) => has.has(p))),
    fp: sorted([...mustNot].filter((p) => has.has(p))),
    fn: sorted([...must].filter((p) => !has.has(p))),
    tn: sorted([...mustNot].filter((p) => !has.has(p))),
    unscored: cited.filter((p) => !must.has(p) && !mustNot.has(p)),
    escalation: result?.escalation?.reason ?? null,
    model_calls: result?.budget.model_calls ?? 0,
    input_tokens: result?.budget.input_tokens ?? 0,
    output_tokens: result?.budget.output_tokens ?? 0,
    cost_usd: result?.budget.cost_usd ?? 0,
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
  };
}

/**
 * TP / (TP + FP), or null when nothing was cited that a fixture scores.
 *
 * @example precision(3, 1) // 0.75
 */
export function precision(tp: number, fp: number): number | null {
  return tp + fp === 0 ? null : tp / (tp + fp);
}

/**
 * TP / (TP + FN), or null when no fixture requires the policy.
 *
 * @example recall(3, 1) // 0.75
 */
export function recall(tp: number, fn: number): number | null {
  return tp + fn === 0 ? null : tp / (tp + fn);
}

function counts(tp: number, fp: number, fn: number, tn: number): Omit<PolicyScore, "policy"> {
  return { tp, fp, fn, tn, precision: precision(tp, fp), recall: recall(tp, fn) };
}

/**
 * Sums fixture scores into the report: route accuracy, unsafe passes and needless escalations,
 * per-policy counts, precision and recall, and the model usage over all reviews.
 *
 * @example summarize([scoreFixture(outcome)]).route_accuracy // { correct: 1, total: 1, rate: 1 }
 */
export function summarize(scores: readonly FixtureScore[]): EvalReport {
  const per = new Map<string, { tp: number; fp: number; fn: number; tn: number }>();
  const bump = (ids: string[], key: "tp" | "fp" | "fn" | "tn") => {
    for (const id of ids) {
      const row = per.get(id) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
      row[key]++;
      per.set(id, row);
    }
  };
  for (const s of scores) {
    bump(s.tp, "tp");
    bump(s.fp, "fp");
    bump(s.fn, "fn");
    bump(s.tn, "tn");
  }
  const policies = [...per.keys()].sort().map((policy) => {
    const r = per.get(policy) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
    return { policy, ...counts(r.tp, r.fp, r.fn, r.tn) };
  });
  const sum = (f: (s: FixtureScore) => number) => scores.reduce((n, s) => n + f(s), 0);
  const correct = scores.filter((s) => s.route_ok).length;
  return {
    fixtures: scores.length,
    errors: scores.filter((s) => s.error !== undefined).length,
    route_accuracy: { correct, total: scores.length, rate: scores.length === 0 ? null : correct / scores.length },
    unsafe_passes: misses(scores, (s) => s.expected_route === "human", isUnsafePass),
    needless_escalations: misses(scores, (s) => s.expected_route !== "human", isNeedlessEscalation),
    policies,
    overall: counts(
      sum((s) => s.tp.length),
      sum((s) => s.fp.length),
      sum((s) => s.fn.length),
      sum((s) => s.tn.length),
    ),
    model_calls: sum((s) => s.model_calls),
    input_tokens: sum((s) => s.input_tokens),
    output_tokens: sum((s) => s.output_tokens),
    cost_usd: Math.round(sum((s) => s.cost_usd) * 1e6) / 1e6,
    per_fixture: [...scores],
  };
}
