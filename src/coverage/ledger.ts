import picomatch from "picomatch";
import { type AcceptedUnread, readKey, type Coverage, type ExemptFile, type UnreadEntry } from "../domain/coverage.js";
import { addedLines } from "../domain/patch.js";
import { Turns } from "../domain/turns.js";
import type { ChangedFile } from "../domain/pull-request.js";
import type { Detector } from "../detectors/detector.js";
import { MAX_LINE, readableLine } from "../detectors/code-lines.js";
import { looksBinary } from "../detectors/security/file-kind.js";
import { ledgerKind, type FileKind } from "./ledger-kind.js";

/** A gap the detect step saw while the detectors ran: a cap reached, a head file that could not be had. */
export interface ReadGap {
  file: string;
  reason: "cap" | "snapshot";
  detail: string;
}

const plural = (n: number, one: string) => `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;

/** The first added line too long to read, and how many there are. */
function overlongLines(file: ChangedFile): { line: number; length: number; count: number } | undefined {
  // A patch no longer than a readable line has no line longer than one.
  if ((file.patch?.length ?? 0) <= MAX_LINE) return undefined;
  let first: { line: number; length: number } | undefined;
  let count = 0;
  for (const l of addedLines(file.patch)) {
    if (l.text.length <= MAX_LINE || readableLine(l.text) !== undefined) continue;
    count++;
    first ??= { line: l.line, length: l.text.trimEnd().length };
  }
  return first ? { ...first, count } : undefined;
}

/** Why nothing needs reading in this file, or undefined when something does. */
function exemption(file: ChangedFile, kind: FileKind): ExemptFile["why"] | undefined {
  if (file.status === "removed") return "removed";
  if (kind.kind === "media") return "media";
  if (file.patch === undefined && file.status === "renamed" && file.changes === 0) return "unchanged rename";
  return undefined;
}

function names(detectors: readonly Detector[]): string {
  return detectors.map((d) => `${d.id} (${d.policies.join(", ")})`).join(", ");
}

/** What of one file was not read, or undefined when every detector it needs read all of it. */
function unreadOf(
  file: ChangedFile,
  kind: FileKind,
  detectors: readonly Detector[],
  readers: ReadonlySet<Detector>,
): Omit<UnreadEntry, "file"> | undefined {
  const base = { kind: kind.kind, language: kind.language };
  if (kind.kind === "binary") {
    return { ...base, reason: "binary", detail: `a .${kind.language} binary that can run: no detector reads it` };
  }
  if (file.patch === undefined) {
    const detail = file.patchNotRead ?? "GitHub gave no diff for it (binary or too large): not read";
    return { ...base, reason: "no_patch", detail };
  }
  if (looksBinary(file.patch)) return { ...base, reason: "binary", detail: "binary content: no detector reads it" };
  const owners = detectors.filter((d) => d.covers.includes(kind.kind));
  const missing = owners.filter((d) => !readers.has(d));
  if (owners.length === 0 || missing.length === owners.length) {
    const what = kind.kind === "code" ? "this language" : "this format";
    return {
      ...base,
      reason: kind.kind === "code" ? "language" : "format",
      detail: `${kind.language}: no detector reads ${what}`,
    };
  }
  if (missing.length > 0) {
    const what = kind.kind === "code" ? "language" : "format";
    return {
      ...base,
      reason: kind.kind === "code" ? "language" : "format",
      detail: `${kind.language}: not read by ${names(missing)}, which do not read this ${what}; read only by ${names(owners.filter((d) => readers.has(d)))}`,
    };
  }
  const long = overlongLines(file);
  if (long) {
    const more = long.count > 1 ? ` (and ${plural(long.count - 1, "more line")})` : "";
    return {
      ...base,
      line: long.line,
      reason: "long_line",
      detail: `line ${long.line} is ${plural(long.length, "character")} long${more}, over the ${MAX_LINE.toLocaleString("en-US")} the detectors read`,
    };
  }
  return undefined;
}

/** The configuration's acceptance of an unread entry, if one matches its path or language. */
function acceptance(entry: UnreadEntry, accepted: readonly AcceptedUnread[]): string | undefined {
  for (const a of accepted) {
    const byPath = a.path !== undefined && picomatch(a.path, { dot: true, noextglob: true })(entry.file);
    const byLanguage = a.language !== undefined && a.language.toLowerCase() === entry.language?.toLowerCase();
    if (byPath || byLanguage) return a.reason;
  }
  return undefined;
}

/**
 * The coverage ledger of a pull request: every changed file accounted for, as read (by which
 * detectors, in which language), unread (and why), or exempt (nothing to read). Unread code is
 * never a pass; `accepted` lets a team's configuration turn an entry into a warning.
 *
 * @example (await buildCoverage(pr.files, ALL_DETECTORS, [], [])).unread // [{ file: "cgi-bin/run.pl", reason: "language", ... }]
 */
export async function buildCoverage(
  files: readonly ChangedFile[],
  detectors: readonly Detector[],
  gaps: readonly ReadGap[],
  accepted: readonly AcceptedUnread[],
): Promise<Coverage> {
  const read = new Map<string, string[]>();
  const unread: UnreadEntry[] = [];
  const exempt: ExemptFile[] = [];
  const gapsOf = new Map<string, ReadGap[]>();
  for (const g of gaps) {
    const list = gapsOf.get(g.file) ?? [];
    list.push(g);
    gapsOf.set(g.file, list);
  }
  const turns = new Turns();
  for (const file of files) {
    // Between slices of files the thread answers whatever waits (a webhook, a Slack click).
    if (turns.due()) await turns.take();
    const kind = ledgerKind(file);
    const fileGaps = gapsOf.get(file.filename) ?? [];
    const why = fileGaps.length === 0 ? exemption(file, kind) : undefined;
    if (why) {
      exempt.push({ file: file.filename, why });
      continue;
    }
    // Which detectors read the file: asked once of each (the entry and the read key both need it).
    const readers = new Set(detectors.filter((d) => d.reads(file)));
    const gap =
      fileGaps.length === 0 || file.patch !== undefined ? unreadOf(file, kind, detectors, readers) : undefined;
    if (gap) unread.push({ file: file.filename, ...gap });
    for (const g of fileGaps) unread.push({ kind: kind.kind, language: kind.language, ...g });
    if (gap || fileGaps.length > 0) continue;
    const key = readKey(
      kind.language,
      [...readers].flatMap((d) => d.policies),
    );
    const group = read.get(key) ?? [];
    group.push(file.filename);
    read.set(key, group);
  }
  // Gaps in files the pull request does not change (a head file a detector needed) are unread too.
  const changed = new Set(files.map((f) => f.filename));
  for (const g of gaps) if (!changed.has(g.file)) unread.push({ kind: "text", ...g });
  for (const entry of unread) {
    const reason = acceptance(entry, accepted);
    if (reason !== undefined) entry.accepted = reason;
  }
  return {
    read: Object.fromEntries(read),
    ...(unread.length > 0 ? { unread } : {}),
    ...(exempt.length > 0 ? { exempt } : {}),
  };
}
