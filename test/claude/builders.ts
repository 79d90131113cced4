import pino from "pino";
import type { Finding, Specialty } from "../../src/domain/finding.js";
import type { SpecialistInput } from "../../src/domain/specialist.js";
import type { ChangedFile, PullRequest } from "../../src/domain/pull-request.js";
import { createModelClient, type ModelClient } from "../../src/claude/client.js";
import type { ModelSettings } from "../../src/claude/settings.js";
import { loadSettings } from "../../src/settings/index.js";
import type { Policy } from "../../src/domain/policy.js";

/** A secret the credential detector surely catches: an AWS access key id (AKIA + 16). */
export const AWS_KEY_ID = "AKIAQ3EGRT7XK2M4NP5Z";
/** A GitHub personal access token (ghp_ + 36). */
export const GITHUB_TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A";

export const silentLog = pino({ level: "silent" });

/** A patch adding the given lines at the top of a new file. */
export function addedPatch(lines: string[]): string {
  return `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`;
}

export function file(filename: string, patch: string | undefined, extra: Partial<ChangedFile> = {}): ChangedFile {
  const lines = (patch ?? "").split("\n");
  return {
    filename,
    status: "modified",
    additions: lines.filter((l) => l.startsWith("+")).length,
    deletions: lines.filter((l) => l.startsWith("-")).length,
    changes: lines.length,
    ...(patch !== undefined ? { patch } : {}),
    ...extra,
  };
}

export function pr(files: ChangedFile[], extra: Partial<PullRequest> = {}): PullRequest {
  return {
    repo: "acme/web",
    number: 7,
    title: "Refactor the session check",
    body: "Small refactor.",
    author: "octocat",
    draft: false,
    labels: [],
    baseRef: "main",
    baseSha: "a".repeat(40),
    headRef: "feature",
    headSha: "b".repeat(40),
    url: "https://github.com/acme/web/pull/7",
    files,
    ...extra,
  };
}

export function policy(id: string, specialty: Specialty, extra: Partial<Policy> = {}): Policy {
  return {
    id,
    title: `Policy ${id}`,
    specialty,
    severity: "high",
    blocking: true,
    version: 1,
    paths: [],
    triggers: [],
    detectors: [],
    rules: [],
    text: `The prose of ${id}.`,
    source: `policies/${id}.md`,
    ...extra,
  };
}

export const SECURITY_POLICIES: Policy[] = [
  policy("SEC-01", "security", { severity: "critical", title: "No credentials in the change" }),
  policy("SEC-02", "security", { title: "No injection", triggers: ["query(", "exec("] }),
  policy("SEC-03", "security", { title: "Auth changes need care", paths: ["src/auth/**"] }),
  policy("SEC-05", "security", { severity: "medium", blocking: false, title: "No weak crypto" }),
];

export function detectorFinding(extra: Partial<Finding> = {}): Finding {
  return {
    specialty: "security",
    policy: "SEC-01",
    severity: "critical",
    blocking: true,
    needs_more_context: false,
    file: "src/config.ts",
    line: 2,
    message: "AWS Access Key ID (AKIA…NP5Z masked) added in src/config.ts",
    source: "detector",
    detector: "credentials",
    ...extra,
  };
}

export function specialistInput(over: Partial<SpecialistInput> = {}): SpecialistInput {
  return {
    specialty: "security",
    pr: pr([file("src/db.ts", addedPatch(["export const q = (id) => db.query(`SELECT * FROM t WHERE id=${id}`);"]))]),
    policies: SECURITY_POLICIES,
    detections: [],
    investigations: [],
    signal: new AbortController().signal,
    ...over,
  };
}

/** The real SDK client pointed at a loopback fake: few retries, short timeout. */
export function fakeClient(url: string, maxRetries = 2): ModelClient {
  return createModelClient({ apiKey: "sk-ant-test-key-0000000000000000", baseURL: url, maxRetries, timeoutMs: 10_000 });
}

export function settings(env: Record<string, string> = {}): ModelSettings {
  return loadSettings(env).claude.model;
}
