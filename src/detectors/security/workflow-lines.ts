import type { WorkflowIssue } from "./workflow-issue.js";

/** Owners whose actions may be referenced by tag: GitHub maintains them (policies/SEC-04.md). */
const TAG_TRUSTED_OWNERS = new Set(["actions", "github"]);

const USES = /^\s*(?:-\s+)?uses\s*:\s*["']?([^"'\s#]+)/;
const CURL_PIPE_SHELL =
  /\b(curl|wget)\b[^|#\n]*\|\s*(sudo\s+)?(-\w+\s+)*(ba|z|da|k)?sh\b|\b(ba)?sh\s+(-c\s+["']?\$\(|<\()\s*(curl|wget)\b/;
const UNTRUSTED_EXPRESSION =
  /\$\{\{\s*(github\.event\.(pull_request\.(title|body|head\.ref|head\.label)|issue\.(title|body)|comment\.body|review\.body|review_comment\.body|head_commit\.(message|author\.\w+)|workflow_run\.(head_branch|display_title|head_commit\.message)|discussion\.(title|body)|pages\.\S*page_name)|github\.head_ref)\s*\}\}/;
const YAML_KEY_LINE = /^\s*(-\s+)?[\w.-]+\s*:(\s|$)/;
const RUN_KEY_LINE = /^\s*(-\s+)?run\s*:/;

/**
 * Line checks that need no YAML structure: unpinned third-party actions, `curl | sh`, and
 * untrusted event text expanded into a `run:` script.
 *
 * @example workflowLineIssues("      - uses: acme/deploy@v2")[0]?.severity // "high"
 */
export function workflowLineIssues(text: string): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    const uses = USES.exec(raw)?.[1];
    if (uses) {
      const unpinned = unpinnedAction(uses);
      if (unpinned) issues.push({ line, involved: [], severity: "high", message: unpinned });
    }
    if (CURL_PIPE_SHELL.test(raw)) {
      issues.push({
        line,
        involved: [],
        severity: "high",
        message:
          "Downloads a script and pipes it straight into a shell (curl | sh): whatever the server returns " +
          "runs in CI with this job's token and secrets. Download a pinned version, check its checksum, then run it.",
      });
    }
    const expression = UNTRUSTED_EXPRESSION.exec(raw)?.[1];
    if (expression && (RUN_KEY_LINE.test(raw) || !YAML_KEY_LINE.test(raw))) {
      issues.push({
        line,
        involved: [],
        severity: "high",
        message:
          `Untrusted event text (${expression}) is expanded directly into a run script: a crafted title, ` +
          'body or branch name becomes shell commands. Pass it through env: and use "$VAR" instead.',
      });
    }
  });
  return issues;
}

/** Why a `uses:` reference is unpinned, or undefined when it is fine. */
function unpinnedAction(uses: string): string | undefined {
  if (uses.startsWith("./") || uses.startsWith("docker://") || uses.includes("${{")) return undefined;
  const at = uses.lastIndexOf("@");
  const name = at >= 0 ? uses.slice(0, at) : uses;
  const ref = at >= 0 ? uses.slice(at + 1) : "";
  const owner = (name.split("/")[0] ?? "").toLowerCase();
  if (/^[0-9a-f]{40}$/.test(ref)) return undefined;
  if (TAG_TRUSTED_OWNERS.has(owner) && ref !== "") return undefined;
  return (
    `Third-party action ${name}${ref ? `@${ref}` : ""} is not pinned to a full commit SHA: whoever controls ` +
    `the tag or branch can change the code this workflow runs. Pin it as ${name}@<40-hex commit sha> ` +
    "(with the tag in a comment). Actions owned by actions/ and github/ may use tags."
  );
}
