import type { Policy } from "../domain/policy.js";
import type { ResultFinding, ReviewResult } from "../domain/review-result.js";
import { CHECK_NAME } from "./check-run.js";

/**
 * SARIF 2.1.0 for GitHub code scanning (https://docs.oasis-open.org/sarif/sarif/v2.1.0/): only
 * the objects and properties the gate writes. Each interface names its object in the schema.
 */
export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

/** `level` of a result and of a rule's `defaultConfiguration` (the schema's enum). */
export type SarifLevel = "none" | "note" | "warning" | "error";

/** multiformatMessageString: `text` required. */
export interface SarifText {
  text: string;
  markdown?: string;
}

/** reportingDescriptor: one policy as a rule. */
export interface SarifRule {
  id: string;
  name: string;
  shortDescription: SarifText;
  fullDescription: SarifText;
  help: SarifText;
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[]; "security-severity"?: string; precision: "high" };
}

/** physicalLocation within a location. */
export interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string };
    region: { startLine: number };
  };
}

/** result: one finding. */
export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: SarifLocation[];
  partialFingerprints?: Record<string, string>;
  suppressions?: Array<{ kind: "external"; status: "accepted"; justification: string }>;
  properties: { specialty: string; severity: string; blocking: boolean; needs_more_context: boolean };
}

/** sarifLog with its one run. */
export interface SarifLog {
  $schema: typeof SARIF_SCHEMA;
  version: "2.1.0";
  runs: Array<{
    tool: { driver: { name: string; version: string; semanticVersion: string; rules: SarifRule[] } };
    results: SarifResult[];
    properties: {
      pr: string;
      review_id: string;
      route: ReviewResult["route"];
      status: ReviewResult["status"];
      /** Findings that point at no file: GitHub refuses a whole upload holding a result without a location. */
      findings_without_location: Array<Pick<ResultFinding, "policy" | "severity" | "blocking" | "message">>;
    };
  }>;
}

/** What a rule is made of: a policy of the corpus (or of the repository's own policies). */
export type SarifPolicy = Pick<Policy, "id" | "title" | "specialty" | "severity" | "blocking" | "text">;

/**
 * The key of the gate's own fingerprint in `partialFingerprints` (a versioned hierarchical
 * string, SARIF §3.27.17). GitHub code scanning matches results only by `primaryLocationLineHash`,
 * so the same fingerprint goes there too: GitHub then follows a finding across line shifts and
 * unrelated edits exactly as the gate does (docs/fingerprints.md).
 */
export const FINGERPRINT_KEY = "complianceGateFingerprint/v1";

/** GitHub limits a rule's descriptions to 1,024 characters. */
const DESCRIPTION_LIMIT = 1024;

/** GitHub's security-severity scores (over 9.0 critical, 7.0 to 8.9 high, 4.0 to 6.9 medium, below low). */
const SECURITY_SEVERITY: Record<Policy["severity"], string> = {
  critical: "9.5",
  high: "8.0",
  medium: "5.5",
  low: "3.0",
};

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The policy's first paragraph of prose (below its `# ID: title` heading). */
function firstParagraph(text: string): string | undefined {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim().replace(/\s+/g, " "))
    .find((p) => p !== "" && !p.startsWith("#"));
}

function levelOf(f: Pick<ResultFinding, "blocking">): SarifLevel {
  return f.blocking ? "error" : "warning";
}

function ruleOf(p: SarifPolicy): SarifRule {
  const body = p.text.trim();
  return {
    id: p.id,
    name: clip(p.title, 255),
    shortDescription: { text: clip(p.title, DESCRIPTION_LIMIT) },
    fullDescription: { text: clip(firstParagraph(body) ?? p.title, DESCRIPTION_LIMIT) },
    help: body === "" ? { text: p.title } : { text: body, markdown: body },
    defaultConfiguration: { level: levelOf(p) },
    properties: {
      tags: ["compliance", p.specialty],
      ...(p.specialty === "security" ? { "security-severity": SECURITY_SEVERITY[p.severity] } : {}),
      precision: "high",
    },
  };
}

/** A rule for an id no policy file describes (a finding's policy that is no longer in the corpus). */
function bareRule(f: ResultFinding): SarifRule {
  return ruleOf({
    id: f.policy,
    title: f.policy,
    specialty: f.specialty,
    severity: f.severity,
    blocking: f.blocking,
    text: "",
  });
}

function resultOf(f: ResultFinding & { file: string }, ruleIndex: number): SarifResult {
  const exception = f.exception?.status === "applied" ? f.exception : undefined;
  return {
    ruleId: f.policy,
    ruleIndex,
    level: levelOf(f),
    message: { text: f.message },
    // A finding without a line is about its file: line 1, as the check run's annotations say it.
    locations: [{ physicalLocation: { artifactLocation: { uri: f.file }, region: { startLine: f.line ?? 1 } } }],
    ...(f.fingerprint
      ? { partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint, primaryLocationLineHash: f.fingerprint } }
      : {}),
    ...(exception
      ? {
          suppressions: [
            {
              kind: "external",
              status: "accepted",
              justification: `${exception.reason} (exception granted by ${exception.granted_by}, until ${exception.expires})`,
            },
          ],
        }
      : {}),
    properties: {
      specialty: f.specialty,
      severity: f.severity,
      blocking: f.blocking,
      needs_more_context: f.needs_more_context,
    },
  };
}

/**
 * A review result as a SARIF 2.1.0 log (pure): one rule per policy (`policies`, then any id a
 * finding cites that they lack), one result per finding with a file, its fingerprint in
 * `partialFingerprints`. Findings without a file are listed in the run's properties instead.
 *
 * @example buildSarif(result, gate.policies, { version: "0.3.0" }).runs[0].results[0].ruleId // "LIC-02"
 */
export function buildSarif(
  result: ReviewResult,
  policies: readonly SarifPolicy[],
  tool: { version: string },
): SarifLog {
  const rules: SarifRule[] = [];
  const index = new Map<string, number>();
  const add = (rule: SarifRule) => {
    if (index.has(rule.id)) return;
    index.set(rule.id, rules.length);
    rules.push(rule);
  };
  for (const p of policies) add(ruleOf(p));
  for (const f of result.findings) add(bareRule(f));
  const located = result.findings.filter((f): f is ResultFinding & { file: string } => !!f.file);
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: CHECK_NAME, version: tool.version, semanticVersion: tool.version, rules } },
        results: located.map((f) => resultOf(f, index.get(f.policy) ?? 0)),
        properties: {
          pr: result.pr,
          review_id: result.review_id,
          route: result.route,
          status: result.status,
          findings_without_location: result.findings
            .filter((f) => !f.file)
            .map((f) => ({ policy: f.policy, severity: f.severity, blocking: f.blocking, message: f.message })),
        },
      },
    ],
  };
}
