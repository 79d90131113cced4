import picomatch from "picomatch";
import type { Finding } from "../domain/finding.js";
import type { ChangedFile, PullRequest } from "../domain/pull-request.js";
import { classifyFile, type ChangeKind } from "./classify-file.js";
import type { Risk } from "../domain/risk.js";

/** Base score of each kind of change; the PR takes its riskiest file's. */
const BASE: Record<ChangeKind, number> = {
  rename: 0,
  docs: 5,
  tests: 10,
  deps_version: 15,
  config: 35,
  code: 40,
  deps: 55,
  ci: 65,
  auth: 70,
};

const CLASS: Record<ChangeKind, string> = {
  rename: "rename",
  docs: "docs",
  tests: "tests",
  deps_version: "deps",
  config: "config",
  code: "code",
  deps: "deps",
  ci: "ci",
  auth: "auth",
};

const REASON: Record<ChangeKind, string> = {
  rename: "pure renames",
  docs: "documentation only",
  tests: "tests only",
  deps_version: "dependency versions changed",
  config: "configuration changed",
  code: "application code changed",
  deps: "dependencies added or changed",
  ci: "CI/CD workflow changed",
  auth: "authentication or security-sensitive code changed",
};

/** The configuration's globs of files that count as docs, tests or generated code (risk.docs, tests, generated). */
export interface RiskPaths {
  docs: string[];
  tests: string[];
  generated: string[];
}

/**
 * What kind of change a file is for the risk gate: the configuration's globs first (docs and
 * generated code count as docs, tests as tests), then `classifyFile`.
 *
 * @example fileKinds({ docs: [], tests: [], generated: ["gen/**"] })(genFile) // "docs"
 */
export function fileKinds(paths: RiskPaths): (file: ChangedFile) => ChangeKind {
  const glob = (g: string[]) => (g.length > 0 ? picomatch(g, { dot: true, noextglob: true }) : () => false);
  const [isDocs, isTests, isGenerated] = [glob(paths.docs), glob(paths.tests), glob(paths.generated)];
  return (f) =>
    isDocs(f.filename) || isGenerated(f.filename) ? "docs" : isTests(f.filename) ? "tests" : classifyFile(f);
}

/**
 * Cost gate one: a pure function of what changed and what the detectors found. Below the threshold
 * with no detector finding, the review ends `auto_approved` with no model call. `kindOfEach`, when
 * given, is each file's `fileKinds(paths)`, in order (worked out beforehand, a few at a time).
 *
 * @example assessRisk(prFixingATypo, []).score // 5
 */
export function assessRisk(
  pr: PullRequest,
  detections: Finding[],
  detectorErrors: string[] = [],
  paths: RiskPaths = { docs: [], tests: [], generated: [] },
  kindOfEach?: readonly ChangeKind[],
): Risk {
  const reasons: string[] = [];
  if (pr.files.length === 0) return { score: 0, class: "empty", reasons: ["no changed files"] };

  // The globs compiled only when a file's kind was not given.
  let kindOf: ((file: ChangedFile) => ChangeKind) | undefined;
  const classify = (file: ChangedFile): ChangeKind => {
    kindOf ??= fileKinds(paths);
    return kindOf(file);
  };
  const kinds = new Map<ChangeKind, number>();
  pr.files.forEach((f, i) => {
    const k = kindOfEach?.[i] ?? classify(f);
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  });
  const ranked = [...kinds.keys()].sort((a, b) => BASE[b] - BASE[a]);
  const top = ranked[0] ?? "code";
  let score = BASE[top];
  for (const k of ranked) reasons.push(`${REASON[k]} (${kinds.get(k)} file${kinds.get(k) === 1 ? "" : "s"})`);

  const lines = pr.files.reduce((n, f) => n + f.additions + f.deletions, 0);
  if (lines > 2000) {
    score += 25;
    reasons.push(`very large change (${lines} lines)`);
  } else if (lines > 500) {
    score += 10;
    reasons.push(`large change (${lines} lines)`);
  }
  if (pr.files.length > 100) {
    score += 20;
    reasons.push(`${pr.files.length} files changed`);
  }
  const unreadable = pr.files.filter((f) => f.patch === undefined && f.status !== "removed" && f.changes > 0);
  if (unreadable.length > 0 && top !== "rename") {
    score += 10;
    reasons.push(`${unreadable.length} file(s) without a readable diff`);
  }

  if (detections.length > 0) {
    const blocking = detections.some((d) => d.blocking);
    score = Math.max(score, blocking ? 90 : 60);
    const ids = [...new Set(detections.map((d) => d.policy))].sort();
    reasons.unshift(`detectors found ${ids.join(", ")}`);
  }
  if (detectorErrors.length > 0) {
    score = Math.max(score, 90);
    reasons.unshift(`detectors failed: ${detectorErrors.join(", ")}`);
  }
  return { score: Math.min(100, score), class: detections.length > 0 && top === "docs" ? "docs" : CLASS[top], reasons };
}
