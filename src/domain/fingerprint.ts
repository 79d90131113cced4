import { createHash } from "node:crypto";
import type { Finding } from "./finding.js";
import { parsePatch } from "./patch.js";
import type { ChangedFile } from "./pull-request.js";

/** Hex digits of the sha256 a fingerprint keeps (64 bits: unique enough within one pull request). */
const DIGEST_CHARS = 16;

/** Whitespace collapsed and trimmed: indentation and spacing never change what a line says. */
export function normaliseCode(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A finding's `subject` made of several parts: 16 hex digits of their sha256, so that what it
 * covers (a key, a job's steps, a configuration) is never kept in the finding itself.
 *
 * @example subjectDigest("checkout", "pull_request_target", '{"steps":[…]}') // "5d41402abc4b2a76"
 */
export function subjectDigest(...parts: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, DIGEST_CHARS);
}

/**
 * A value as JSON with every object's keys sorted: two parses of the same settings written in
 * another order or layout give the same text.
 *
 * @example canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }) // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * What a finding's fingerprint is made of besides its policy and file (docs/fingerprints.md):
 * - a dependency finding: `name@version`, the advisories (SEC-07) it is about, and its `subject`
 *   when it has one (the licence a LIC-01/LIC-02 finding is about);
 * - a finding with a `subject` (what makes it dangerous: a key's digest, a job's steps and
 *   secrets, the whole changed configuration): that subject, in place of the cited line;
 * - a finding on a line: the cited line's text, whitespace collapsed (never the line number);
 * - otherwise its message with digits masked (a message may name a line number).
 */
export function fingerprintSubject(f: Finding, lineText: string | undefined): string {
  if (f.package) {
    const advisories = (f.advisories ?? []).map((a) => a.id).sort();
    const subject = f.subject !== undefined ? [`subject=${f.subject}`] : [];
    return ["pkg", `${f.package.name}@${f.package.version ?? ""}`, ...advisories, ...subject].join("|");
  }
  if (f.subject !== undefined) return `subject|${f.subject}`;
  if (lineText !== undefined) return `line|${normaliseCode(lineText)}`;
  return `msg|${normaliseCode(f.message).replace(/\d+/g, "#")}`;
}

/**
 * A finding's stable fingerprint: its policy id, then 16 hex digits of the sha256 of policy, file
 * and subject. It survives the finding moving lines and edits elsewhere in the file; it changes
 * when the offending code or the dependency's version changes.
 *
 * @example fingerprint({ ...finding, policy: "LIC-02", package: { name: "gpl-chart-lib", version: "^2.1.0" } }, undefined) // "LIC-02:9b1f…"
 */
export function fingerprint(f: Finding, lineText: string | undefined): string {
  const digest = createHash("sha256")
    .update([f.policy, f.file ?? "", fingerprintSubject(f, lineText)].join("\n"))
    .digest("hex")
    .slice(0, DIGEST_CHARS);
  return `${f.policy}:${digest}`;
}

/** The head-side text of each line a patch shows (added and context lines), by line number. */
function headLines(file: ChangedFile | undefined): Map<number, string> {
  const lines = new Map<number, string>();
  for (const l of parsePatch(file?.patch)) if (l.kind !== "del") lines.set(l.line, l.text);
  return lines;
}

/**
 * The findings with their fingerprints (those that have one keep it). The cited line's text is
 * read from the pull request's patch, or from `readLine` (a head file) when the patch does not show it.
 *
 * @example withFingerprints(detections, pr.files)[0]?.fingerprint // "SEC-01:3c0ffee1d00d5eed"
 */
export function withFingerprints(
  findings: readonly Finding[],
  files: readonly ChangedFile[],
  readLine?: (file: string, line: number) => string | undefined,
): Finding[] {
  const byName = new Map(files.map((f) => [f.filename, f]));
  const cache = new Map<string, Map<number, string>>();
  const lineOf = (file: string, line: number): string | undefined => {
    let lines = cache.get(file);
    if (!lines) {
      lines = headLines(byName.get(file));
      cache.set(file, lines);
    }
    return lines.get(line) ?? readLine?.(file, line);
  };
  return findings.map((f) =>
    f.fingerprint ? f : { ...f, fingerprint: fingerprint(f, f.file && f.line ? lineOf(f.file, f.line) : undefined) },
  );
}
