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
  /**
   * The detectors that read these files, named by the policies they check (the credentials
   * detector is `SEC-01`, the dependency-licences detector `LIC-01` and `LIC-02`).
   */
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

/** An unread file a team accepts (`coverage.accept_unread`): a path glob or a language, and why. */
export interface AcceptedUnread {
  path?: string;
  language?: string;
  reason: string;
}

/** A changed file with nothing a detector reads: removed, a picture or a font, a rename with no change. */
export interface ExemptFile {
  file: string;
  why: "removed" | "media" | "unchanged rename";
}

/**
 * The ledger of one review, as the graph's state keeps it: compact, since every checkpoint after
 * the detect step carries it. `read` maps `<language>:<detector ids, space-separated>` to its
 * files (`readGroups` spells the groups out); the lists are absent when empty.
 */
export interface Coverage {
  read: Record<string, string[]>;
  unread?: UnreadEntry[];
  exempt?: ExemptFile[];
}

/** The ledger spelled out, as the result prints it and people read it. */
export interface CoverageView {
  read: ReadGroup[];
  unread: UnreadEntry[];
  exempt: ExemptFile[];
}

/**
 * The ledger spelled out: the groups of files read, and the lists even when empty.
 *
 * @example coverageView({ read: {} }) // { read: [], unread: [], exempt: [] }
 */
export function coverageView(coverage: Coverage): CoverageView {
  return { read: readGroups(coverage), unread: coverage.unread ?? [], exempt: coverage.exempt ?? [] };
}

/** The key of a group of files read: their language and the policies of the detectors that read them. */
export function readKey(language: string, by: readonly string[]): string {
  return `${language}:${by.join(" ")}`;
}

/**
 * The groups of files read, spelled out.
 *
 * @example readGroups({ read: { "md:SEC-01": ["README.md"] } }) // [{ by: ["SEC-01"], language: "md", files: ["README.md"] }]
 */
export function readGroups(coverage: Coverage): ReadGroup[] {
  return Object.entries(coverage.read).map(([key, files]) => {
    const at = key.lastIndexOf(":");
    const by = key.slice(at + 1);
    return { by: by === "" ? [] : by.split(" "), language: key.slice(0, at), files };
  });
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
export function coverageLines(coverage: CoverageView, max = 10): string[] {
  const read = coverage.read.reduce((n, g) => n + g.files.length, 0);
  const needing = read + new Set(coverage.unread.map((u) => u.file)).size;
  const exempt = coverage.exempt.length > 0 ? ` (${coverage.exempt.length} with nothing to read)` : "";
  const lines = [`Read ${read} of ${needing} changed file${needing === 1 ? "" : "s"} that need reading${exempt}.`];
  const open = coverage.unread.filter((u) => u.accepted === undefined);
  if (open.length > 0) lines.push(`Not read: ${describeUnread(open, max)}`);
  const accepted = coverage.unread.filter((u) => u.accepted !== undefined);
  if (accepted.length > 0) {
    const shown = accepted.slice(0, max).map((u) => `${u.file} (${u.detail}; accepted: ${u.accepted})`);
    const more = accepted.length > max ? `; and ${accepted.length - max} more` : "";
    lines.push(`Not read, accepted by the configuration: ${shown.join("; ")}${more}`);
  }
  return lines;
}

/** An unread file a team accepts (`coverage.accept_unread`): a path glob or a language, and why. */
export interface AcceptedUnread {
  path?: string;
  language?: string;
  reason: string;
}
