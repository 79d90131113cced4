import { escapeRegExp } from "../domain/reg-exp.js";
import picomatch from "picomatch";
import type { Finding, Specialty } from "../domain/finding.js";
import { addedLines } from "../domain/patch.js";
import type { PullRequest } from "../domain/pull-request.js";
import type { Policy } from "../domain/policy.js";

/** Per PR: its added lines, lower-cased and joined with "\n" (null when none), and what is known of each trigger. */
const ADDED = new WeakMap<PullRequest, { text: string | null; found: Map<string, boolean> }>();

/**
 * Which of `triggers` (lower case) appear in the PR's added lines, each read once per PR. One pass
 * over the text finds, at every position, the longest trigger starting there; a trigger appears
 * exactly when it is a prefix of one of those (a shorter one starting at the same place is), so
 * the pass answers for all of them at once.
 */
function triggersFound(pr: PullRequest, triggers: readonly string[]): Map<string, boolean> {
  let added = ADDED.get(pr);
  if (!added) {
    const lines = pr.files.flatMap((f) => addedLines(f.patch).map((l) => l.text.toLowerCase()));
    added = { text: lines.length > 0 ? lines.join("\n") : null, found: new Map() };
    ADDED.set(pr, added);
  }
  const { text, found } = added;
  // A trigger is a phrase within one line: one with a line break, or any when nothing was added, is never found.
  const unknown = [...new Set(triggers)].filter((t) => !found.has(t));
  const searched = unknown.filter((t) => text !== null && t !== "" && !t.includes("\n"));
  for (const t of unknown) found.set(t, text !== null && t === "");
  if (text !== null && searched.length > 0) {
    const longestFirst = [...searched].sort((a, b) => b.length - a.length).map(escapeRegExp);
    const starts = new Set<string>();
    for (const m of text.matchAll(new RegExp(`(?=(${longestFirst.join("|")}))`, "g"))) starts.add(m[1] ?? "");
    for (const t of searched)
      found.set(
        t,
        [...starts].some((s) => s.startsWith(t)),
      );
  }
  return found;
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
  // Decided by a citation, or by their paths alone; the rest are decided by their triggers.
  const open = policies.filter((p) => {
    if (p.specialty !== specialty || cited.has(p.id)) return false;
    if (p.paths.length === 0) return true;
    // One matcher per policy, not one per file.
    const matches = picomatch(p.paths, { dot: true, noextglob: true });
    return pr.files.some((f) => matches(f.filename));
  });
  const triggers = open.flatMap((p) => p.triggers.map((t) => t.toLowerCase()));
  const found = triggers.length > 0 ? triggersFound(pr, triggers) : new Map<string, boolean>();
  const out = policies.filter(
    (p) =>
      (p.specialty === specialty && cited.has(p.id)) ||
      (open.includes(p) && (p.triggers.length === 0 || p.triggers.some((t) => found.get(t.toLowerCase()) === true))),
  );
  return out.map((p) => p.id).sort();
}
