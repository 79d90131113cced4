import picomatch from "picomatch";
import type { Finding, Specialty } from "../domain/finding.js";
import { addedLines } from "../domain/patch.js";
import type { PullRequest } from "../domain/pull-request.js";
import type { Policy } from "../domain/policy.js";

/** Every added line of a PR, lower-cased and joined with "\n" (null when none): read lazily, once per PR. */
const ADDED_TEXT = new WeakMap<PullRequest, string | null>();

function addedTextOf(pr: PullRequest): string | null {
  let text = ADDED_TEXT.get(pr);
  if (text === undefined) {
    const lines = pr.files.flatMap((f) => addedLines(f.patch).map((l) => l.text.toLowerCase()));
    text = lines.length > 0 ? lines.join("\n") : null;
    ADDED_TEXT.set(pr, text);
  }
  return text;
}

/**
 * The policies a specialty should weigh for this PR: those a detector cited, and those whose
 * path globs match a changed file (or that have none) and whose triggers appear in an added line
 * (or that have none). Ids, sorted.
 *
 * @example retrievePolicies(policies, pr, detections, "licensing") // ["LIC-01", "LIC-02"]
 */
export function retrievePolicies(
  policies: Policy[],
  pr: PullRequest,
  detections: Finding[],
  specialty: Specialty,
): string[] {
  const cited = new Set(detections.filter((d) => d.specialty === specialty).map((d) => d.policy));
  const out = policies.filter((p) => {
    if (p.specialty !== specialty) return false;
    if (cited.has(p.id)) return true;
    if (p.paths.length > 0) {
      // One matcher per policy, not one per file.
      const matches = picomatch(p.paths, { dot: true, noextglob: true });
      if (!pr.files.some((f) => matches(f.filename))) return false;
    }
    if (p.triggers.length === 0) return true;
    // A trigger is a phrase within one line: searching the lines joined finds the same ones.
    const text = addedTextOf(pr);
    return text !== null && p.triggers.some((t) => !t.includes("\n") && text.includes(t.toLowerCase()));
  });
  return out.map((p) => p.id).sort();
}
