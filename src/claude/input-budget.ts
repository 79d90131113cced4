import picomatch from "picomatch";
import type { Finding, Specialty } from "../domain/finding.js";
import { parsePatch, type PatchLine } from "../domain/patch.js";
import type { ChangedFile } from "../domain/pull-request.js";
import type { Policy } from "../domain/policy.js";

/** Characters per token, for estimates (Claude averages a little under 4 on code). */
export const CHARS_PER_TOKEN = 4;

/**
 * Estimated tokens of a text (1 token ≈ 4 characters, rounded up).
 *
 * @example estimateTokens("abcdefgh") // 2
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** What to pack. `files` are the PR's files, already redacted. */
export interface PackInput {
  specialty: Specialty;
  files: readonly ChangedFile[];
  policies: readonly Policy[];
  /** Findings of the deterministic detectors (only this specialty's count for ordering). */
  detections: readonly Finding[];
  /** Estimated tokens the sections may take. */
  maxTokens: number;
}

/** The packed diff, and the files (or parts of files) that did not fit or had no patch. */
export interface PackedHunks {
  sections: string;
  dropped: string[];
}

/**
 * Packs a PR's hunks for one specialty under a token budget.
 *
 * Order of files (stable: PR order within a tier):
 *   1. files with a detector finding of this specialty;
 *   2. files matching one of the specialty's policies' `paths` globs, or whose added lines contain
 *      one of their `triggers` (case-insensitive);
 *   3. every other file.
 * Within a file, hunks keep their order; each hunk is sent whole (context, removed and added lines,
 * numbered by head line) when it fits, else as its added lines only (context dropped first), else
 * it is dropped. A file with any dropped hunk, and a non-removed file GitHub sent no patch for,
 * is listed in `dropped` (by file name, once): it was not fully reviewed.
 *
 * @example packHunks({ specialty: "security", files, policies, detections, maxTokens: 50_000 }).dropped // []
 */
export function packHunks(input: PackInput): PackedHunks {
  const ordered = orderFiles(input);
  const dropped: string[] = [];
  const parts: string[] = [];
  let left = input.maxTokens;
  const take = (text: string): boolean => {
    const cost = estimateTokens(text);
    if (cost > left) return false;
    left -= cost;
    parts.push(text);
    return true;
  };

  for (const file of ordered) {
    const header = fileHeader(file);
    if (!file.patch) {
      if (file.status !== "removed") dropped.push(file.filename);
      take(`${header}(no patch: binary or too large for GitHub to show)\n`);
      continue;
    }
    if (!take(header)) {
      dropped.push(file.filename);
      continue;
    }
    let lost = false;
    for (const hunk of splitHunks(file.patch)) {
      if (take(renderHunk(hunk, "full"))) continue;
      if (hunk.lines.some((l) => l.kind === "add") && take(renderHunk(hunk, "added"))) continue;
      lost = true;
    }
    if (lost) {
      dropped.push(file.filename);
      take(`(some hunks of ${file.filename} were left out: input budget)\n`);
    }
  }
  return { sections: parts.join(""), dropped };
}

/**
 * The files in the documented order (see `packHunks`).
 *
 * @example orderFiles({ specialty: "security", files, policies, detections })[0]?.filename // "src/config.ts"
 */
export function orderFiles(input: Pick<PackInput, "specialty" | "files" | "policies" | "detections">): ChangedFile[] {
  const flagged = new Set(
    input.detections.filter((f) => f.specialty === input.specialty && f.file !== undefined).map((f) => f.file),
  );
  const policies = input.policies.filter((p) => p.specialty === input.specialty);
  const globs = policies.flatMap((p) => p.paths);
  const matchesPath = globs.length > 0 ? picomatch(globs, { dot: true, noextglob: true }) : () => false;
  const triggers = policies
    .flatMap((p) => p.triggers)
    .map((t) => t.toLowerCase())
    .filter((t) => t !== "");
  const tier = (file: ChangedFile): number => {
    if (flagged.has(file.filename)) return 0;
    if (matchesPath(file.filename)) return 1;
    if (triggers.length > 0) {
      const added = parsePatch(file.patch)
        .filter((l) => l.kind === "add")
        .map((l) => l.text.toLowerCase());
      if (added.some((text) => triggers.some((t) => text.includes(t)))) return 1;
    }
    return 2;
  };
  return input.files
    .map((file, index) => ({ file, index, tier: tier(file) }))
    .sort((a, b) => a.tier - b.tier || a.index - b.index)
    .map((x) => x.file);
}

interface Hunk {
  header: string;
  lines: PatchLine[];
}

function splitHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: string[] = [];
  const flush = () => {
    const header = current[0];
    if (header !== undefined) hunks.push({ header, lines: parsePatch(current.join("\n")) });
    current = [];
  };
  for (const raw of patch.split("\n")) {
    if (raw.startsWith("@@")) flush();
    current.push(raw);
  }
  flush();
  // A patch without any hunk header is shown as one hunk of its own.
  return hunks.length > 0 || patch.trim() === ""
    ? hunks
    : [{ header: "@@", lines: parsePatch(`@@ -1 +1 @@\n${patch}`) }];
}

function fileHeader(file: ChangedFile): string {
  const renamed = file.previousFilename ? ` (renamed from ${file.previousFilename})` : "";
  return `\n### ${file.filename}${renamed} [${file.status}, +${file.additions} -${file.deletions}]\n`;
}

/** One hunk, each line numbered by its head line (`-` lines carry no head number). */
function renderHunk(hunk: Hunk, mode: "full" | "added"): string {
  const lines = mode === "full" ? hunk.lines : hunk.lines.filter((l) => l.kind === "add");
  const body = lines
    .map((l) => {
      if (l.kind === "add") return `${String(l.line).padStart(5)} + ${l.text}`;
      if (l.kind === "del") return `      - ${l.text}`;
      return `${String(l.line).padStart(5)}   ${l.text}`;
    })
    .join("\n");
  const note = mode === "added" ? " (added lines only; context left out for the input budget)" : "";
  return `${hunk.header.split(" @@")[0]} @@${note}\n${body}\n`;
}
