import { escapeRegExp } from "../domain/reg-exp.js";
import picomatch from "picomatch";
import type { Finding, Specialty } from "../domain/finding.js";
import { addedLines } from "../domain/patch.js";
import { Turns } from "../domain/turns.js";
import type { PullRequest } from "../domain/pull-request.js";
import type { Policy } from "../domain/policy.js";

/**
 * Added lines searched at once. Between searches the thread answers whatever waits (a webhook, a
 * Slack click) once it has been held for a slice of time, so a PR of 60,000 added lines never
 * holds it for one long search.
 */
const SEARCHED_LINES = 500;

/** What one reading of a PR has answered (per question: trigger, set of globs), and its last reading asked. */
interface Known {
  found: Map<string, boolean>;
  last: Promise<unknown>;
}

/** Per PR: the triggers (lower case) found in its added lines, and the path globs its files match. */
const TRIGGERS = new WeakMap<PullRequest, Known>();
const PATHS = new WeakMap<PullRequest, Known>();

/**
 * Asks `read` to answer more questions of a PR into what is known of it, one reading at a time:
 * a second asks after the first has answered (each specialty asks, and most questions are the
 * previous specialty's). Resolves with everything known.
 */
function oneAtATime(
  known: WeakMap<PullRequest, Known>,
  pr: PullRequest,
  read: (found: Map<string, boolean>) => Promise<void>,
): Promise<Map<string, boolean>> {
  const entry = known.get(pr) ?? { found: new Map<string, boolean>(), last: Promise.resolve() };
  const answered = entry.last.then(async () => {
    await read(entry.found);
    return entry.found;
  });
  known.set(pr, { found: entry.found, last: answered.catch(() => undefined) });
  return answered;
}

const pathsKey = (paths: readonly string[]) => JSON.stringify(paths);

/**
 * Whether some changed file matches each of the policies' path globs, every policy's globs tested
 * in the one reading of the file list per PR, a slice of files at a time.
 */
function pathsMatched(pr: PullRequest, policies: readonly Policy[]): Promise<Map<string, boolean>> {
  const keys = new Set(policies.filter((p) => p.paths.length > 0).map((p) => pathsKey(p.paths)));
  return oneAtATime(PATHS, pr, async (found) => {
    // One matcher per set of globs, not one per file.
    let open = [...keys]
      .filter((k) => !found.has(k))
      .map((k) => ({ key: k, matches: picomatch(JSON.parse(k) as string[], { dot: true, noextglob: true }) }));
    for (const { key } of open) found.set(key, false);
    const turns = new Turns();
    for (const file of pr.files) {
      if (open.length === 0) break;
      if (turns.due()) await turns.take();
      const matched = open.filter((m) => m.matches(file.filename));
      for (const m of matched) found.set(m.key, true);
      if (matched.length > 0) open = open.filter((m) => !matched.includes(m));
    }
  });
}

/**
 * Which of `triggers` (lower case) appear in the PR's added lines, each read once per PR. A trigger
 * is a phrase within one line (one with a line break is never found; the empty one is found when
 * any line is added), so the lines are searched a slice at a time, and the search stops once every
 * trigger was found. In each slice one pass finds, at every position, the longest trigger starting
 * there; a trigger appears exactly when it is a prefix of one of those (a shorter one starting at
 * the same place is), so the pass answers for all of them at once.
 */
function triggersFound(pr: PullRequest, triggers: readonly string[]): Promise<Map<string, boolean>> {
  return oneAtATime(TRIGGERS, pr, (found) => search(pr, found, triggers));
}

async function search(pr: PullRequest, found: Map<string, boolean>, triggers: readonly string[]): Promise<void> {
  const unknown = [...new Set(triggers)].filter((t) => !found.has(t));
  if (unknown.length === 0) return;
  let open = unknown.filter((t) => t !== "" && !t.includes("\n"));
  for (const t of unknown) found.set(t, false);
  let added = false;
  let slice: string[] = [];
  // The pattern of the triggers still open, built again only when one is found.
  let pattern: RegExp | undefined;
  const searchSlice = () => {
    if (slice.length === 0 || open.length === 0) return;
    const text = slice.join("\n").toLowerCase();
    slice = [];
    pattern ??= new RegExp(
      `(?=(${[...open]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join("|")}))`,
      "g",
    );
    const starts = new Set<string>();
    for (const m of text.matchAll(pattern)) starts.add(m[1] ?? "");
    const before = open.length;
    for (const t of open) if ([...starts].some((s) => s.startsWith(t))) found.set(t, true);
    open = open.filter((t) => found.get(t) !== true);
    if (open.length !== before) pattern = undefined;
  };
  const turns = new Turns();
  for (const file of pr.files) {
    for (const l of addedLines(file.patch)) slice.push(l.text);
    added ||= slice.length > 0;
    if (added && open.length === 0) break;
    if (slice.length >= SEARCHED_LINES) {
      searchSlice();
      if (turns.due()) await turns.take();
    }
  }
  searchSlice();
  if (unknown.includes("")) found.set("", added);
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
  const own = policies.filter((p) => p.specialty === specialty && !cited.has(p.id));
  const paths = await pathsMatched(pr, own);
  const open = own.filter((p) => p.paths.length === 0 || paths.get(pathsKey(p.paths)) === true);
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
