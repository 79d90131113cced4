import type { CarryForwardMode, CoveredFinding, PriorDecision } from "../domain/carry.js";
import { SPECIALTIES, type Finding } from "../domain/finding.js";
import type { ResumeValue } from "../domain/review.js";
import type { ReviewStateValue } from "../graph/state.js";

type Values = Partial<ReviewStateValue>;

/** Every finding of a review's specialist batches. */
export function allFindings(values: Values): Finding[] {
  return SPECIALTIES.flatMap((s) => values.findings?.[s]?.findings ?? []);
}

/** The blocking findings a decision on this state covers, by fingerprint. */
export function coveredFindings(values: Values): CoveredFinding[] {
  const seen = new Map<string, CoveredFinding>();
  for (const f of allFindings(values)) {
    if (!f.blocking || !f.fingerprint || seen.has(f.fingerprint)) continue;
    seen.set(f.fingerprint, {
      fingerprint: f.fingerprint,
      policy: f.policy,
      ...(f.file ? { file: f.file } : {}),
      ...(f.package ? { package: f.package } : {}),
    });
  }
  return [...seen.values()];
}

const where = (f: { policy: string; file?: string }) => `${f.policy}${f.file ? ` in ${f.file}` : ""}`;
const pkg = (p: { name: string; version?: string } | undefined) => (p ? `${p.name}@${p.version ?? "?"}` : "");

/** One line saying how a blocking finding differs from what the decision covered. */
function describeNew(f: Finding, covered: readonly CoveredFinding[]): string {
  const before = covered.find(
    (c) => c.policy === f.policy && c.file === f.file && (c.package?.name ?? "") === (f.package?.name ?? ""),
  );
  if (f.package && before?.package) {
    return `${where(f)}: ${f.package.name} changed from ${pkg(before.package)} to ${pkg(f.package)}`;
  }
  if (before) return `${where(f)}: the code it cites changed${f.line ? ` (line ${f.line})` : ""}`;
  return `new: ${where(f)}${f.package ? ` (${pkg(f.package)})` : ""}${f.line ? ` line ${f.line}` : ""}`;
}

/**
 * What changed since the PR's earlier decision, one line each; empty when the decision carries to
 * this head: the same kind of stop (only blocking findings need a person), every blocking finding's
 * fingerprint covered, history not rewritten, and with `unchanged_files` none of the covered
 * findings' files changed. Pure: who may still decide is checked by the caller.
 *
 * @example changesSince(prior, state, "unchanged_findings") // ["LIC-02 in package.json: gpl-chart-lib changed from gpl-chart-lib@^2.1.0 to gpl-chart-lib@^2.2.0"]
 */
export function changesSince(prior: PriorDecision, values: Values, mode: CarryForwardMode): string[] {
  const changes: string[] = [];
  if (mode === "never") changes.push("decisions are not carried forward here (decisions.carry_forward: never)");
  if (prior.history === "rewritten") changes.push("the branch's history was rewritten (a force-push): starting over");
  if (prior.history === "unknown") changes.push("the gate could not compare the two heads: starting over");
  const base = values.pr?.baseRef;
  if (prior.retargeted) changes.push("the pull request moved to another base branch since the decision: starting over");
  else if (prior.base_ref !== undefined && base !== undefined && prior.base_ref !== base)
    changes.push(`the base branch changed from ${prior.base_ref} to ${base} since the decision: starting over`);
  const escalation = values.escalation;
  if (escalation && escalation.reason !== "blocking_finding") changes.push(`also needs a person: ${escalation.detail}`);
  const covered = new Set(prior.covered.map((c) => c.fingerprint));
  const blocking = allFindings(values).filter((f) => f.blocking);
  const fresh = blocking.filter((f) => !f.fingerprint || !covered.has(f.fingerprint));
  const unique = new Map(fresh.map((f) => [f.fingerprint ?? `${where(f)}:${f.line ?? ""}`, f]));
  for (const f of unique.values()) changes.push(describeNew(f, prior.covered));
  if (mode === "unchanged_files") {
    const files = new Set(prior.covered.flatMap((c) => (c.file ? [c.file] : [])));
    if (prior.files === undefined) changes.push("the files changed since are not known");
    else
      for (const f of prior.files.filter((name) => files.has(name)))
        changes.push(`${f} changed, where the decided findings are`);
  }
  if (blocking.length === 0 && changes.length === 0) changes.push("no blocking finding is left to decide on");
  return changes;
}

/** The resume value that carries the earlier decision to this head, naming its origin (and its approvals). */
export function carriedResume(prior: PriorDecision): ResumeValue {
  if (prior.kind === "approve") {
    return {
      kind: "approve",
      by: prior.by,
      ...(prior.note ? { note: prior.note } : {}),
      ...(prior.via ? { via: prior.via } : {}),
      // Every approval it needed travels with it: the next head checks each of them again.
      ...(prior.approvals ? { approvals: prior.approvals } : {}),
      carried: prior.origin,
    };
  }
  return {
    kind: prior.kind,
    by: prior.by,
    ...(prior.note ? { note: prior.note } : {}),
    ...(prior.via ? { via: prior.via } : {}),
    carried: prior.origin,
  };
}
