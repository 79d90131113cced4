import type { PriorReading } from "../domain/carry.js";
import type { Finding, Specialty } from "../domain/finding.js";
import type { PullRequest } from "../domain/pull-request.js";
import type { Specialist } from "../domain/specialist.js";

/** What a specialist is given to read at this head, and what it inherits from the earlier reading. */
export interface ReadingPlan {
  /** The pull request as the specialist sees it: only the files to read again. */
  pr: PullRequest;
  /** The model's findings of the earlier review on files not read again (kept: a model's block is never dropped). */
  kept: Finding[];
  /** The head each file is read at (a model specialist only). */
  reviewed?: Record<string, string>;
}

/**
 * Which files a specialist reads at this head. A model specialist after an earlier model reading
 * of the same history (the old head an ancestor of this one, its changed files known) reads only
 * the files changed since, and files that reading never saw; the earlier model findings on the
 * others are kept. Anything else (the rules reviewer, a first review, a force-push, an unknown
 * comparison) reads every file.
 *
 * @example readingPlan(pr, state.since?.reading, specialist, "security").pr.files.length // 1 of 10 after a one-file push
 */
export function readingPlan(
  pr: PullRequest,
  reading: PriorReading | undefined,
  specialist: Pick<Specialist, "kind">,
  specialty: Specialty,
): ReadingPlan {
  if (specialist.kind !== "model") return { pr, kept: [] };
  const all = Object.fromEntries(pr.files.map((f) => [f.filename, pr.headSha]));
  if (reading?.history !== "ahead" || reading.files === undefined) return { pr, kept: [], reviewed: all };
  const changed = new Set(reading.files);
  const files = pr.files.filter(
    (f) =>
      changed.has(f.filename) || changed.has(f.previousFilename ?? "") || reading.reviewed[f.filename] === undefined,
  );
  const sent = new Set(files.map((f) => f.filename));
  const inPr = new Set(pr.files.map((f) => f.filename));
  const kept = reading.findings.filter(
    (f) => f.specialty === specialty && (f.file === undefined || (inPr.has(f.file) && !sent.has(f.file))),
  );
  const reviewed = Object.fromEntries(
    pr.files.map((f) => [
      f.filename,
      sent.has(f.filename) ? pr.headSha : (reading.reviewed[f.filename] ?? reading.head_sha),
    ]),
  );
  return { pr: { ...pr, files }, kept, reviewed };
}

/**
 * A batch's findings with the earlier reading's kept ones that the new answer does not repeat
 * (by fingerprint).
 */
export function withKept(findings: Finding[], kept: readonly Finding[]): Finding[] {
  const prints = new Set(findings.map((f) => f.fingerprint));
  return [...findings, ...kept.filter((f) => !f.fingerprint || !prints.has(f.fingerprint))];
}
