import type { lintSource } from "@secretlint/core";
import { escapeRegExp } from "../../domain/reg-exp.js";
import { precheck } from "../precheck.js";

// Types come from @secretlint/core's own signature (@secretlint/types is not a direct dependency).
type SecretLintCoreConfig = Parameters<typeof lintSource>[0]["options"]["config"];
type SecretLintCoreResultMessage = Awaited<ReturnType<typeof lintSource>>["messages"][number];

/** A secret secretlint found, with the exact substring and a readable kind. */
export interface SecretlintHit {
  /** The exact secret substring of the scanned text. */
  value: string;
  /** 1-based line of the text where the secret starts. */
  line: number;
  /** `<rule>:<messageId>`, e.g. "aws:AWSAccessKeyID". */
  rule: string;
  /** What kind of secret it is, without the value, e.g. "AWS Access Key ID". */
  label: string;
}

const AWS_RULE = "@secretlint/secretlint-rule-aws";
/** Lets an author silence the scan with a `secretlint-disable` comment: never in a gate. */
const FILTER_COMMENTS_RULE = "@secretlint/secretlint-rule-filter-comments";

/** secretlint, and the configuration the gate lints with. */
interface Linter {
  lintSource: typeof lintSource;
  config: SecretLintCoreConfig;
}

let linter: Promise<Linter> | undefined;

/**
 * secretlint and its preset, loaded by the first text that may hold a secret (a PR whose added
 * lines name none of the rules' tokens never loads them). The preset's rules are registered one
 * by one: secretlint ignores `disabled` on rules inside a preset (13.0.7), and the gate must drop
 * the comment filter and turn on AWS key-id scanning.
 */
function loadLinter(): Promise<Linter> {
  linter ??= (async () => {
    const [core, { secretLintProfiler }, { rules }] = await Promise.all([
      import("@secretlint/core"),
      import("@secretlint/profiler"),
      import("@secretlint/secretlint-rule-preset-recommend"),
    ]);
    // secretlint's profiler is on by default: it adds `performance.mark`/`measure` entries to Node's
    // global timeline on every lint call and never clears them, a leak in a long-running server.
    secretLintProfiler.setEnabled(false);
    const config: SecretLintCoreConfig = {
      rules: rules
        .filter((rule) => rule.meta.id !== FILTER_COMMENTS_RULE)
        .map((rule) => ({
          id: rule.meta.id,
          rule,
          // Off by default; a gate wants bare access key ids (AKIA...) too.
          ...(rule.meta.id === AWS_RULE ? { options: { enableIDScanRule: true } } : {}),
        })),
    };
    return { lintSource: core.lintSource, config };
  })();
  return linter;
}

/** Message ids the gate ignores: an AWS account id is an identifier, not a credential. */
const IGNORED_MESSAGE_IDS = new Set(["AWSAccountID"]);

/**
 * The literal piece every pattern of each rule in the preset (13.0.7) needs, read from its source,
 * for text scanned as `/added-lines.txt` (the GCP rule reads only `.json` and `.p12` files; the
 * AWS account-id pattern is ignored above). Matched without case, which only widens it. The
 * rule ids are listed so that a preset with a rule this list does not know fails its test.
 */
export const SECRETLINT_RULE_TOKENS: Readonly<Record<string, readonly string[]>> = {
  "@secretlint/secretlint-rule-aws": ["A3T", "AKIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ASIA", "secret"],
  "@secretlint/secretlint-rule-gcp": ["private_key"],
  "@secretlint/secretlint-rule-npm": ["x-oauth-basic", "_authToken", "npm_"],
  "@secretlint/secretlint-rule-slack": ["xox", "xapp", "hooks.slack.com"],
  "@secretlint/secretlint-rule-basicauth": ["://"],
  "@secretlint/secretlint-rule-openai": ["T3BlbkFJ"],
  "@secretlint/secretlint-rule-anthropic": ["sk-ant-api0"],
  "@secretlint/secretlint-rule-groq": ["gsk_"],
  "@secretlint/secretlint-rule-huggingface": ["hf_"],
  "@secretlint/secretlint-rule-linear": ["lin_api_"],
  "@secretlint/secretlint-rule-notion": ["ntn_"],
  "@secretlint/secretlint-rule-privatekey": ["PRIVATE KEY"],
  "@secretlint/secretlint-rule-sendgrid": ["SG."],
  "@secretlint/secretlint-rule-shopify": ["shppa_", "shpca_", "shpat_", "shpss_"],
  "@secretlint/secretlint-rule-stripe": ["sk_live_", "sk_test_", "rk_live_", "rk_test_"],
  "@secretlint/secretlint-rule-github": ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
  "@secretlint/secretlint-rule-gitlab": ["glpat-"],
  "@secretlint/secretlint-rule-grafana": ["glc_", "glsa_"],
  "@secretlint/secretlint-rule-1password": ["ops_"],
  "@secretlint/secretlint-rule-database-connection-string": ["mongodb", "mysql", "postgres"],
  "@secretlint/secretlint-rule-hashicorp-vault": ["hvs.", "hvb.", "hvr."],
  "@secretlint/secretlint-rule-vercel": ["vcp_", "vci_", "vca_", "vcr_", "vck_"],
  "@secretlint/secretlint-rule-databricks": ["dapi"],
  "@secretlint/secretlint-rule-docker": ["dckr_pat_"],
  "@secretlint/secretlint-rule-figma": ["figd_"],
  "@secretlint/secretlint-rule-cloudflare": ["cfk_", "cfut_", "cfat_"],
  "@secretlint/secretlint-rule-tailscale": ["tskey-"],
};

const ANY_TOKEN = new RegExp(Object.values(SECRETLINT_RULE_TOKENS).flat().map(escapeRegExp).join("|"), "i");

/**
 * False only when no rule of the preset can report anything in the text: none of the pieces
 * its patterns need appears. Linting costs tens of microseconds a call even on text with
 * nothing in it; most files of a large PR are such text.
 *
 * @example maySecretlintFind("const total = order.total * rate;") // false
 */
export function maySecretlintFind(text: string): boolean {
  return ANY_TOKEN.test(text);
}

/**
 * Runs secretlint's recommended preset over plain text (e.g. a file's added lines).
 *
 * @example (await scanWithSecretlint("key = AKIAFAKEFIXTURE00001"))[0]?.label // "AWS Access Key ID"
 */
export async function scanWithSecretlint(text: string): Promise<SecretlintHit[]> {
  if (text.trim() === "" || !precheck(maySecretlintFind(text))) return [];
  const { lintSource, config } = await loadLinter();
  const result = await lintSource({
    source: { content: text, filePath: "/added-lines.txt", contentType: "text" },
    options: { config, maskSecrets: false, noPhysicFilePath: true },
  });
  const hits: SecretlintHit[] = [];
  for (const message of result.messages) {
    if (message.type !== "message" || IGNORED_MESSAGE_IDS.has(message.messageId)) continue;
    const value = secretValue(message, text);
    if (!value) continue;
    hits.push({
      value,
      line: lineOfIndex(text, text.indexOf(value, Math.max(0, message.range[0]))),
      rule: `${message.ruleId.replace(/^@secretlint\/secretlint-rule-/, "")}:${message.messageId}`,
      label: labelOf(message, value),
    });
  }
  return hits;
}

/**
 * The exact secret. Rules put it in `data`; `range` is not always exact (the AWS secret-key
 * rule's range starts at the key name), so prefer the longest `data` string found in the text.
 */
function secretValue(message: SecretLintCoreResultMessage, text: string): string | undefined {
  const data: Record<string, unknown> = message.data ?? {};
  const candidates = Object.values(data)
    .filter((v): v is string => typeof v === "string" && v.length >= 8 && text.includes(v))
    .sort((a, b) => b.length - a.length);
  if (candidates[0]) return candidates[0];
  const slice = text.slice(message.range[0], message.range[1]);
  return slice.length > 0 ? slice : undefined;
}

/** "found AWS Access Key ID: AKIA..." → "AWS Access Key ID"; never returns the value. */
function labelOf(message: SecretLintCoreResultMessage, value: string): string {
  const label = message.message
    .replace(value, "")
    .replace(/^found\s+/i, "")
    .replace(/[\s:\uff1a]+$/, "")
    .trim();
  return label.length > 0 && label.length < 120 && !label.includes(value) ? label : message.messageId;
}

function lineOfIndex(text: string, index: number): number {
  if (index < 0) return 1;
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
