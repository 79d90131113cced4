/**
 * The coverage ledger: what the deterministic detectors read of a pull request and what they could
 * not. "Approved" means read: a review whose ledger has unread code never passes by rules, it goes
 * to a person (`not_inspected`). Plain JSON (it is checkpointed and printed in the `--json` result).
 *
 * @example coverageComplete({ read: [], unread: [], exempt: [] }) // true
 */

/** What a changed file is, for the question "who must read it". */
export type LedgerKind = "code" | "manifest" | "workflow" | "text" | "binary" | "media";

/** Why a file, or part of it, was not read. */
export type UnreadReason =
  /** A programming language no detector reads by what the code does. */
  | "language"
  /** A file format (a manifest, a workflow) the detector that owns it does not parse. */
  | "format"
  /** A binary that can run (a shared library, a jar, an executable, wasm). */
  | "binary"
  /** GitHub gave no diff (binary or too large), so its added lines could not be read. */
  | "no_patch"
  /** A line too long for the detectors (after trailing whitespace is dropped). */
  | "long_line"
  /** A detector's cap (files, folders) was reached before this file. */
  | "cap"
  /** The head snapshot lacks the file, or could not be had whole. */
  | "snapshot";

/** Files read, grouped by who read them. */
export interface ReadGroup {
  /** The detectors that read these files (by id). */
  by: string[];
  /** The language or format, e.g. "typescript", "package.json", "markdown". */
  language: string;
  files: string[];
}

/** One file (or part of one) that was not read. */
export interface UnreadEntry {
  file: string;
  /** The first line concerned, where one is (an overlong line). */
  line?: number;
  kind: LedgerKind;
  /** The language or format, when known. */
  language?: string;
  reason: UnreadReason;
  /** A sentence a person can act on, e.g. "perl: no detector reads this language". */
  detail: string;
  /** Set when the configuration accepts this unread file (`coverage.accept_unread`): a warning only. */
  accepted?: string;
}

/** A changed file with nothing a detector reads: removed, a picture or a font, a rename with no change. */
export interface ExemptFile {
  file: string;
  why: "removed" | "media" | "unchanged rename";
}

/** The ledger of one review. */
export interface Coverage {
  read: ReadGroup[];
  unread: UnreadEntry[];
  exempt: ExemptFile[];
}

/** The unread entries no configuration accepted: each sends the review to a person. */
export function blockingUnread(coverage: Coverage | null | undefined): UnreadEntry[] {
  return (coverage?.unread ?? []).filter((u) => u.accepted === undefined);
}

/** Whether every changed file that needs reading was read (accepted gaps aside). */
export function coverageComplete(coverage: Coverage | null | undefined): boolean {
  return blockingUnread(coverage).length === 0;
}

/**
 * The escalation detail for unread files: each file and why, at most `max` of them.
 *
 * @example describeUnread([{ file: "a.pl", reason: "language", detail: "perl: no detector reads this language", kind: "code" }]) // "a.pl (perl: no detector reads this language)"
 */
export function describeUnread(entries: readonly UnreadEntry[], max = 10): string {
  const shown = entries.slice(0, max).map((u) => `${u.file} (${u.detail})`);
  const more = entries.length > max ? `; and ${entries.length - max} more` : "";
  return `${shown.join("; ")}${more}`;
}

/**
 * The ledger in a few lines a person reads (the card, the check run, the terminal): how many files
 * were read, then each unread file and why, then each unread file the configuration accepts.
 *
 * @example coverageLines(coverage) // ["Read 11 of 12 changed files.", "Not read: cgi-bin/run.pl (perl: no detector reads this language)"]
 */
export function coverageLines(coverage: Coverage, max = 10): string[] {
  const read = coverage.read.reduce((n, g) => n + g.files.length, 0);
  const needing = read + new Set(coverage.unread.map((u) => u.file)).size;
  const exempt = coverage.exempt.length > 0 ? ` (${coverage.exempt.length} with nothing to read)` : "";
  const lines = [`Read ${read} of ${needing} changed file${needing === 1 ? "" : "s"} that need reading${exempt}.`];
  const open = blockingUnread(coverage);
  if (open.length > 0) lines.push(`Not read: ${describeUnread(open, max)}`);
  const accepted = coverage.unread.filter((u) => u.accepted !== undefined);
  if (accepted.length > 0) {
    const shown = accepted.slice(0, max).map((u) => `${u.file} (${u.detail}; accepted: ${u.accepted})`);
    const more = accepted.length > max ? `; and ${accepted.length - max} more` : "";
    lines.push(`Not read, accepted by the configuration: ${shown.join("; ")}${more}`);
  }
  return lines;
}
