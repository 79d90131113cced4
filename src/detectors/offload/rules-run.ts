import { performance } from "node:perf_hooks";
import { messageOf } from "../../domain/errors.js";
import { parsePolicyTexts } from "../../policy/load-policies.js";
import type { DetectContext, Detector } from "../detector.js";
import { policyRuleDetectors } from "../policy-rules.js";
import { repositoryPolicies } from "../repo-policies.js";
import type { DetectorOutcome } from "./protocol.js";
import type { CheckPoliciesJob, PoliciesChecked, RulesDone, RulesJob } from "./rules-protocol.js";

/**
 * Teams' rules, one detector per policy, one after the other within the job's budget: the
 * server's, then the repository's (parsed here; one that does not parse fails alone). Once the
 * budget is spent the rest are not run, and say so. `at` is told each rule before it searches;
 * `searching` when they are compiled, and the budget starts.
 *
 * @example runRules(job, (job, label) => write(job, label)).outcomes.map((o) => o.detector) // ["rules:ACME-01"]
 */
export async function runRules(
  job: RulesJob,
  at?: (job: number, label: string) => void,
  searching?: () => void,
): Promise<RulesDone> {
  const ctx = { pr: job.pr } as DetectContext; // rule detectors read only the change's files
  // The budget is the searches': parsing and compiling are linear in the (capped) policy files.
  const options = {
    deadline: Number.POSITIVE_INFINITY,
    budgetMs: job.budgetMs,
    onRule: (policy: { id: string; source: string }, rule: { id: string }, file: string) =>
      at?.(job.job, `rule ${rule.id} of ${policy.id} (${policy.source}) on ${file}`),
  };
  const outcomes: DetectorOutcome[] = [];
  const detectors: Detector[] = [];
  for (const [what, policies] of [
    ["server", () => job.policies],
    ["repository", () => parsePolicyTexts(job.texts)],
  ] as const) {
    try {
      detectors.push(...policyRuleDetectors(policies(), options));
    } catch (error) {
      outcomes.push({ detector: `rules:${what}`, error: messageOf(error) });
    }
  }
  const readBy = detectors.map((d): [string, string[]] => [
    d.id,
    job.pr.files.filter((f) => d.reads(f)).map((f) => f.filename),
  ]);
  searching?.();
  const deadline = performance.now() + job.budgetMs;
  options.deadline = deadline;
  let spent: string | undefined;
  for (const d of detectors) {
    if (spent) {
      outcomes.push({ detector: d.id, error: `not run: ${spent}` });
      continue;
    }
    try {
      outcomes.push({ detector: d.id, findings: await d.detect(ctx) });
    } catch (error) {
      outcomes.push({ detector: d.id, error: messageOf(error) });
      if (performance.now() > deadline) spent = `the teams' rules' budget (${job.budgetMs} ms) was spent before it`;
    }
  }
  return { type: "rules-done", job: job.job, outcomes, readBy };
}

/**
 * `repositoryPolicies` for a `CheckPoliciesJob`: the repository's files parsed and their rules compiled.
 *
 * @example checkPolicies({ type: "check-policies", job: 1, texts, server: [] }).policies.length
 */
export function checkPolicies(job: CheckPoliciesJob): PoliciesChecked {
  try {
    return { type: "checked", job: job.job, ...repositoryPolicies(job.texts, job.server) };
  } catch (error) {
    return { type: "checked", job: job.job, policies: [], problem: messageOf(error) };
  }
}
