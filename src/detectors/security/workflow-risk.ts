import type { ChangedFile } from "../../domain/pull-request.js";
import type { Detector } from "../detector.js";
import type { HeadFiles } from "../../domain/head-files.js";
import type { Finding } from "../../domain/finding.js";
import { addedText } from "./added-text.js";
import { looksBinary } from "./file-kind.js";
import { securityFinding } from "./security-finding.js";
import type { WorkflowIssue } from "./workflow-issue.js";
import { workflowLineIssues } from "./workflow-lines.js";
import { workflowFallbackIssues, workflowStructureIssues } from "./workflow-structure.js";

const WORKFLOW_PATH = /^\.github\/workflows\/[^/]+\.ya?ml$/;

/** The text to scan, how its lines map to the head file, and which head lines this PR added. */
interface WorkflowSource {
  text: string;
  headLine(textLine: number): number | undefined;
  isNew(headLine: number): boolean;
}

async function sourceOf(file: ChangedFile, head: HeadFiles): Promise<WorkflowSource | undefined> {
  const added = addedText(file.patch);
  let headText: string | undefined;
  try {
    headText = await head.read(file.filename);
  } catch {
    headText = undefined; // no snapshot: fall back to the added lines
  }
  if (headText !== undefined) {
    // Without a patch (GitHub omits very large diffs) every line counts as new.
    const isNew = file.patch ? (l: number) => added.lines.has(l) : () => true;
    return { text: headText, headLine: (l) => l, isNew };
  }
  if (added.text.trim() === "") return undefined;
  return { text: added.text, headLine: added.headLine, isNew: () => true };
}

/**
 * SEC-04: risky GitHub Actions workflows. Privileged triggers (`pull_request_target`,
 * `workflow_run`) that check out the PR head (critical) or expose secrets to it, third-party
 * actions not pinned to a commit SHA, `curl | sh`, and untrusted event text in `run:` (high).
 * Only risks on lines this PR added (or whose job/trigger it changed) count. Blocking. A
 * privileged job's findings carry a `subject` (its triggers, steps and secrets): a fingerprint
 * that changes when the job gains a step or a secret.
 *
 * @example await workflowRiskDetector.detect(ctx) // [{ policy: "SEC-04", severity: "critical", ... }]
 */
export const workflowRiskDetector: Detector = {
  id: "workflow-risk",
  policies: ["SEC-04"],
  covers: ["workflow"],
  reads: (file) => WORKFLOW_PATH.test(file.filename),
  async detect(ctx) {
    const findings: Finding[] = [];
    for (const file of ctx.pr.files) {
      if (file.status === "removed" || !WORKFLOW_PATH.test(file.filename)) continue;
      const source = await sourceOf(file, ctx.head);
      if (!source || looksBinary(source.text)) continue;
      const structural = workflowStructureIssues(source.text) ?? workflowFallbackIssues(source.text);
      const issues: WorkflowIssue[] = [...structural, ...workflowLineIssues(source.text)];
      const seen = new Set<string>();
      for (const issue of issues) {
        const line = source.headLine(issue.line);
        const touched = [issue.line, ...issue.involved]
          .map((l) => source.headLine(l))
          .some((l) => l !== undefined && source.isNew(l));
        const key = `${line}\u0000${issue.message}`;
        if (!touched || seen.has(key)) continue;
        seen.add(key);
        const finding = securityFinding({
          policy: "SEC-04",
          detector: "workflow-risk",
          severity: issue.severity,
          blocking: true,
          file: file.filename,
          ...(line !== undefined ? { line } : {}),
          message: issue.message,
        });
        findings.push(issue.subject !== undefined ? { ...finding, subject: issue.subject } : finding);
      }
    }
    return findings;
  },
};
