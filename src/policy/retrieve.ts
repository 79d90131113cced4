import picomatch from "picomatch";
import type { Finding, Specialty } from "../domain/finding.js";
import { addedLines } from "../domain/patch.js";
import type { PullRequest } from "../domain/pull-request.js";
import type { Policy } from "../domain/policy.js";

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
  // Read lazily and once: most policies are decided by a citation or their paths alone.
  let added: string[] | undefined;
  const addedText = () => {
    added ??= pr.files.flatMap((f) => addedLines(f.patch).map((l) => l.text.toLowerCase()));
    return added;
  };
  const out = policies.filter((p) => {
    if (p.specialty !== specialty) return false;
    if (cited.has(p.id)) return true;
    if (p.paths.length > 0) {
      // One matcher per policy, not one per file.
      const matches = picomatch(p.paths, { dot: true, noextglob: true });
      if (!pr.files.some((f) => matches(f.filename))) return false;
    }
    if (p.triggers.length === 0) return true;
    const triggers = p.triggers.map((t) => t.toLowerCase());
    return addedText().some((l) => triggers.some((t) => l.includes(t)));
  });
  return out.map((p) => p.id).sort();
}
