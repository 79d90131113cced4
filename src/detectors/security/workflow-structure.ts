import { isMap, isScalar, isSeq, LineCounter, parseDocument, type YAMLMap } from "yaml";
import { canonicalJson, normaliseCode, subjectDigest } from "../../domain/fingerprint.js";
import { PRIVILEGED_TRIGGER, PR_HEAD_REF, RUN_CHECKS_OUT_PR, type WorkflowIssue } from "./workflow-issue.js";

/** Lines of `text` (1-based) matching `pattern`. */
function linesMatching(text: string, pattern: RegExp): number[] {
  const out: number[] = [];
  text.split("\n").forEach((l, i) => {
    if (pattern.test(l)) out.push(i + 1);
  });
  return out;
}

/** The privileged triggers a parsed `on:` declares (string, list or map form). */
function privilegedTriggers(on: unknown): string[] {
  const names =
    typeof on === "string"
      ? [on]
      : Array.isArray(on)
        ? on.map(String)
        : on && typeof on === "object"
          ? Object.keys(on)
          : [];
  return names.filter((n) => n === "pull_request_target" || n === "workflow_run");
}

interface JobRisk {
  /** The job's id and its whole definition as canonical JSON (its steps, env, permissions). */
  job: string;
  definition: string;
  /** Where the job checks out or fetches the PR head. */
  checkoutLine: number;
  /** First lines of the job's later `run:` steps (what executes the checked-out code). */
  runs: string[];
  /** The secrets the job references, with the first line. */
  secrets: string[];
  secretsLine?: number;
  /** Every line of the job. */
  jobLines: number[];
}

function jobRisks(text: string, jobs: YAMLMap, lc: LineCounter, values: Record<string, unknown>): JobRisk[] {
  const lineOf = (offset: number) => Math.max(1, lc.linePos(offset).line);
  const out: JobRisk[] = [];
  for (const pair of jobs.items) {
    const job = pair.value;
    const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!isMap(job) || !job.range) continue;
    const from = lineOf(job.range[0]);
    const to = lineOf(job.range[2]);
    const jobLines = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const steps = job.get("steps", true);
    let checkoutLine: number | undefined;
    const runs: string[] = [];
    for (const step of isSeq(steps) ? steps.items : []) {
      if (!isMap(step) || !step.range) continue;
      const uses = String(step.get("uses") ?? "");
      const run = step.get("run");
      if (checkoutLine === undefined) {
        const withNode = step.get("with", true);
        const withText = isMap(withNode) ? JSON.stringify(withNode.toJSON()) : "";
        if (uses.startsWith("actions/checkout") && PR_HEAD_REF.test(withText)) {
          const ref = isMap(withNode) ? (withNode.get("ref", true) ?? withNode.get("repository", true)) : undefined;
          checkoutLine = lineOf((isScalar(ref) && ref.range ? ref.range : step.range)[0]);
        } else if (typeof run === "string" && RUN_CHECKS_OUT_PR.test(run)) {
          checkoutLine = lineOf(step.range[0]);
        }
      } else if (typeof run === "string") {
        runs.push(run.trim().split("\n")[0]?.slice(0, 60) ?? "");
      } else if (uses.startsWith("./")) {
        runs.push(`uses: ${uses}`);
      }
    }
    if (checkoutLine === undefined) continue;
    const jobText = text
      .split("\n")
      .slice(from - 1, to)
      .join("\n");
    const secrets = [...new Set([...jobText.matchAll(/secrets\.([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? ""))];
    const secretsLine = linesMatching(jobText, /secrets\.[A-Za-z0-9_]+/)[0];
    out.push({
      job: name,
      definition: canonicalJson(values[name] ?? null),
      checkoutLine,
      runs,
      secrets,
      ...(secretsLine !== undefined ? { secretsLine: secretsLine + from - 1 } : {}),
      jobLines,
    });
  }
  return out;
}

/**
 * Privileged-trigger checks on a parsed workflow: `pull_request_target`/`workflow_run` jobs that
 * check out or run the PR's head (critical) and secrets those jobs can reach (high). Returns
 * undefined when the text is not a whole workflow (then the caller falls back to line checks).
 *
 * @example workflowStructureIssues(headText)?.[0]?.severity // "critical"
 */
export function workflowStructureIssues(text: string): WorkflowIssue[] | undefined {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const jobs = doc.get("jobs", true);
  if (!isMap(jobs)) return undefined;
  const value = doc.toJS({ maxAliasCount: 100 }) as { on?: unknown; jobs?: Record<string, unknown> } | null;
  const on = value?.on;
  const triggers = privilegedTriggers(on);
  if (triggers.length === 0) return [];
  // What a privileged job's finding is about: every trigger, the whole job (its steps) and its secrets.
  const about = (kind: string, job: JobRisk) =>
    subjectDigest(kind, canonicalJson(on ?? null), job.job, job.definition, [...job.secrets].sort().join(","));
  const triggerLines = linesMatching(text, PRIVILEGED_TRIGGER).slice(0, 2);
  const issues: WorkflowIssue[] = [];
  for (const job of jobRisks(text, jobs, lc, value?.jobs ?? {})) {
    const involved = [...triggerLines, ...job.jobLines];
    const runs = job.runs.length > 0 ? `, then runs it (${job.runs.slice(0, 3).join("; ")})` : "";
    issues.push({
      line: job.checkoutLine,
      involved,
      subject: about("checkout", job),
      severity: "critical",
      message:
        `Workflow triggered by ${triggers.join(" and ")} checks out the pull request's head${runs}: code from ` +
        "any fork runs with this repository's write token and secrets. Run untrusted code only under " +
        "pull_request, or never check out the head in a privileged workflow.",
    });
    if (job.secrets.length > 0 && job.secretsLine !== undefined) {
      issues.push({
        line: job.secretsLine,
        involved,
        subject: about("secrets", job),
        severity: "high",
        message:
          `Secrets (${job.secrets
            .slice(0, 5)
            .map((s) => `secrets.${s}`)
            .join(", ")}) are exposed to a job ` +
          `that runs the pull request's code under ${triggers.join(" and ")}: a fork can read them. Move ` +
          "the step that needs them to a workflow that does not run untrusted code.",
      });
    }
  }
  return issues;
}

/**
 * Best-effort privileged-trigger check for text that is not a whole workflow (e.g. only the added
 * lines): a privileged trigger plus a PR-head reference anywhere in it.
 *
 * @example workflowFallbackIssues("on: pull_request_target\n ref: ${{ github.head_ref }}").length // 1
 */
export function workflowFallbackIssues(text: string): WorkflowIssue[] {
  const triggerLines = linesMatching(text, PRIVILEGED_TRIGGER);
  const headLines = linesMatching(text, new RegExp(`${PR_HEAD_REF.source}|${RUN_CHECKS_OUT_PR.source}`));
  const first = headLines[0];
  if (triggerLines.length === 0 || first === undefined) return [];
  // Not a whole workflow: every line of it that says something (not its layout, not a comment).
  const said = text
    .split("\n")
    .map(normaliseCode)
    .filter((l) => l !== "" && !l.startsWith("#"));
  return [
    {
      line: first,
      involved: triggerLines,
      subject: subjectDigest("fallback", ...said),
      severity: "critical",
      message:
        "Workflow with a privileged trigger (pull_request_target or workflow_run) references the pull " +
        "request's head: if a job checks it out or runs it, code from any fork runs with this " +
        "repository's token and secrets.",
    },
  ];
}
