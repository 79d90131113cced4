import { setImmediate as nextTurn } from "node:timers/promises";
import { escapeRegExp } from "../domain/reg-exp.js";
import picomatch from "picomatch";
import type { Finding, Specialty } from "../domain/finding.js";
import { addedLines } from "../domain/patch.js";
import type { PullRequest } from "../domain/pull-request.js";
import type { Policy } from "../domain/policy.js";

/**
 * Added lines searched per slice: between slices the thread answers whatever waits (a webhook, a
 * Slack click), so a PR of 60,000 added lines never holds it for one long search.
 */
const SLICE_LINES = 2_000;

/** Per PR: what is known of each trigger (lower case), and the last search asked of it. */
const SEARCHES = new WeakMap<PullRequest, { found: Map<string, boolean>; last: Promise<unknown> }>();

/**
 * Which of `triggers` (lower case) appear in the PR's added lines, each read once per PR. A trigger
 * is a phrase within one line (one with a line break is never found; the empty one is found when
 * any line is added), so the lines are searched a slice at a time, and the search stops once every
 * trigger was found. In each slice one pass finds, at every position, the longest trigger starting
 * there; a trigger appears exactly when it is a prefix of one of those (a shorter one starting at
 * the same place is), so the pass answers for all of them at once.
 */
function triggersFound(pr: PullRequest, triggers: readonly string[]): Promise<Map<string, boolean>> {
  const known = SEARCHES.get(pr) ?? { found: new Map<string, boolean>(), last: Promise.resolve() };
  // One search of a PR at a time: a second asks after the first has answered what it knows.
  const searched = known.last.then(() => search(pr, known.found, triggers));
  SEARCHES.set(pr, { found: known.found, last: searched.catch(() => undefined) });
  return searched;
}

async function search(
  pr: PullRequest,
  found: Map<string, boolean>,
  triggers: readonly string[],
): Promise<Map<string, boolean>> {
  const unknown = [...new Set(triggers)].filter((t) => !found.has(t));
  if (unknown.length === 0) return found;
  let open = unknown.filter((t) => t !== "" && !t.includes("\n"));
  for (const t of unknown) found.set(t, false);
  let added = false;
  let slice: string[] = [];
  const searchSlice = () => {
    if (slice.length === 0 || open.length === 0) return;
    const text = slice.join("\n").toLowerCase();
    slice = [];
    const longestFirst = [...open].sort((a, b) => b.length - a.length).map(escapeRegExp);
    const starts = new Set<string>();
    for (const m of text.matchAll(new RegExp(`(?=(${longestFirst.join("|")}))`, "g"))) starts.add(m[1] ?? "");
    for (const t of open) if ([...starts].some((s) => s.startsWith(t))) found.set(t, true);
    open = open.filter((t) => found.get(t) !== true);
  };
  for (const file of pr.files) {
    for (const l of addedLines(file.patch)) slice.push(l.text);
    added ||= slice.length > 0;
    if (added && open.length === 0) break;
    if (slice.length >= SLICE_LINES) {
      searchSlice();
      await nextTurn();
    }
  }
  searchSlice();
  if (unknown.includes("")) found.set("", added);
  return found;
}

/**
 * The policies a specialty should weigh for this PR: those a detector cited, and those whose
 * path globs match a changed file (or that have none) and whose triggers appear in an added line
 * (or that have none). Ids, sorted.
 *
 * @example await retrievePolicies(policies, pr, detections, "licensing") // ["LIC-01", "LIC-02"]
 */
export async function retrievePolicies(
  policies: Policy[],
  pr: PullRequest,
  detections: Finding[],
  specialty: Specialty,
): Promise<string[]> {
  const cited = new Set(detections.filter((d) => d.specialty === specialty).map((d) => d.policy));
  // Decided by a citation, or by their paths alone; the rest are decided by their triggers.
  const open = policies.filter((p) => {
    if (p.specialty !== specialty || cited.has(p.id)) return false;
    if (p.paths.length === 0) return true;
    // One matcher per policy, not one per file.
    const matches = picomatch(p.paths, { dot: true, noextglob: true });
    return pr.files.some((f) => matches(f.filename));
  });
  // Every policy's triggers are searched in the one reading of the lines (the next specialty asks too).
  const found = open.some((p) => p.triggers.length > 0)
    ? await triggersFound(
        pr,
        policies.flatMap((p) => p.triggers.map((t) => t.toLowerCase())),
      )
    : new Map<string, boolean>();
  const out = policies.filter(
    (p) =>
      (p.specialty === specialty && cited.has(p.id)) ||
      (open.includes(p) && (p.triggers.length === 0 || p.triggers.some((t) => found.get(t.toLowerCase()) === true))),
  );
  return out.map((p) => p.id).sort();
}
