import { performance } from "node:perf_hooks";
import type { NapiConfig, SgNode } from "@ast-grep/napi";
import picomatch from "picomatch";
import { GateError } from "../domain/errors.js";
import type { Finding, Severity } from "../domain/finding.js";
import type { Policy, PolicyRule } from "../domain/policy.js";
import type { ChangedFile } from "../domain/pull-request.js";
import { GRAMMARS, type SyntaxLanguage } from "./code/grammars.js";
import { parseSource, syntaxOfPatch } from "./code/syntax-tree.js";
import type { Detector } from "./detector.js";

/** ast-grep's language names (and the aliases its rule files accept), as the grammars here are named. */
const LANGUAGE_NAMES: Record<string, SyntaxLanguage> = {
  typescript: "typescript",
  ts: "typescript",
  tsx: "tsx",
  javascript: "javascript",
  js: "javascript",
  jsx: "javascript",
  python: "python",
  py: "python",
  go: "go",
  golang: "go",
  java: "java",
  kotlin: "kotlin",
  kt: "kotlin",
  csharp: "csharp",
  cs: "csharp",
  "c#": "csharp",
  php: "php",
  ruby: "ruby",
  rb: "ruby",
  rust: "rust",
  rs: "rust",
};

/** How long every rule of one policy may take on one review (ast-grep's search cannot be stopped mid-way). */
export const RULES_BUDGET_MS = 5_000;

/** A rule ready to run: its grammar, its ast-grep configuration and its file globs. */
interface CompiledRule {
  rule: PolicyRule;
  lang: SyntaxLanguage;
  config: NapiConfig;
  wants(path: string): boolean;
}

function invalid(policy: Policy, index: number, rule: { id?: string }, why: string): GateError {
  const line = policy.ruleLines?.[index];
  return new GateError(
    "POLICY_INVALID",
    `${policy.source}${line ? `:${line}` : ""}: rule ${rule.id ?? `#${index + 1}`} of ${policy.id}: ${why}`,
  );
}

function compile(policy: Policy, rule: PolicyRule, index: number): CompiledRule | undefined {
  if (rule.severity === "off") return undefined;
  const lang = LANGUAGE_NAMES[rule.language.toLowerCase()];
  if (!lang) {
    throw invalid(
      policy,
      index,
      rule,
      `language ${rule.language} is not one the gate parses (${Object.values(GRAMMARS)
        .map((g) => g.astGrepName)
        .join(", ")})`,
    );
  }
  const config = {
    rule: rule.rule,
    ...(rule.constraints ? { constraints: rule.constraints } : {}),
    ...(rule.utils ? { utils: rule.utils } : {}),
  } as NapiConfig;
  try {
    // ast-grep checks a rule when it first searches with it: an empty file of the language tells.
    parseSource(lang, "").findAll(config);
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*\|->/g, ": ");
    throw invalid(policy, index, rule, `ast-grep refuses it: ${why}`);
  }
  const include = rule.files?.length ? picomatch(rule.files, { dot: true, noextglob: true }) : () => true;
  const exclude = rule.ignores?.length ? picomatch(rule.ignores, { dot: true, noextglob: true }) : () => false;
  return { rule, lang, config, wants: (path) => include(path) && !exclude(path) };
}

/** The rule's message with each `$NAME` / `$$$NAME` it names replaced by what that metavariable matched. */
function messageFor(rule: PolicyRule, match: SgNode): string {
  return rule.message.replace(/\${1,3}([A-Z_][A-Z0-9_]*)/g, (whole, name: string) => {
    if (whole.startsWith("$$$")) {
      const many = match.getMultipleMatches(name);
      const first = many[0];
      const last = many.at(-1);
      if (!first || !last) return whole;
      // The source between the first and the last node matched, spacing and separators as written.
      const offset = match.range().start.index;
      return match.text().slice(first.range().start.index - offset, last.range().end.index - offset);
    }
    return match.getMatch(name)?.text() ?? whole;
  });
}

function graded(policy: Policy, rule: PolicyRule): { severity: Severity; blocking: boolean } {
  if (rule.severity === "warning") return { severity: "medium", blocking: false };
  if (rule.severity === "info" || rule.severity === "hint") return { severity: "low", blocking: false };
  return { severity: policy.severity, blocking: policy.blocking };
}

/** How teams' rules are run: their budget, and who is told which rule is about to search which file. */
export interface RuleRunOptions {
  /** When the rules must have finished (`performance.now()` time); default: `RULES_BUDGET_MS` from each detect call. */
  deadline?: number;
  /** The budget the error names (its setting); default `RULES_BUDGET_MS`. */
  budgetMs?: number;
  /** Told before each search: the policy's id and file, the rule's id, the file searched (a worker watches this). */
  onRule?(policy: Policy, rule: PolicyRule, file: string): void;
}

function detectorFor(policy: Policy, rules: CompiledRule[], options: RuleRunOptions): Detector {
  const budget = options.budgetMs ?? RULES_BUDGET_MS;
  return {
    id: `rules:${policy.id}`,
    policies: [policy.id],
    // Teams' rules add findings; whether a file is read at all is the built-in detectors' to say.
    covers: [],
    reads: (file) => rules.some((r) => GRAMMARS[r.lang].files.test(file.filename)),
    async detect(ctx) {
      const started = performance.now();
      const deadline = options.deadline ?? started + budget;
      const findings: Finding[] = [];
      for (const file of ctx.pr.files) {
        if (file.status === "removed" || !file.patch) continue;
        for (const r of rules) {
          if (!GRAMMARS[r.lang].files.test(file.filename) || !r.wants(file.filename)) continue;
          options.onRule?.(policy, r.rule, file.filename);
          findings.push(...matchesIn(policy, r, file));
          const now = performance.now();
          if (now > deadline) {
            throw new GateError(
              "POLICY_RULE_TIMEOUT",
              `rule ${r.rule.id} of ${policy.id} (${policy.source}) on ${file.filename} ran past the rules' budget (${Math.round(now - started)} ms, ${budget} allowed, GATE_RULES_BUDGET_MS): the rules not run count as not read`,
            );
          }
        }
      }
      return findings;
    },
  };
}

function matchesIn(policy: Policy, r: CompiledRule, file: ChangedFile): Finding[] {
  const syntax = syntaxOfPatch(file);
  if (!syntax || syntax.lang !== r.lang) return [];
  const out: Finding[] = [];
  const seen = new Set<number>();
  for (const match of syntax.root.findAll(r.config)) {
    const row = match.range().start.line;
    // Only what the pull request adds or changes: a rule never flags code it leaves alone.
    if (!syntax.isAdded(row)) continue;
    const line = syntax.lineAt(row);
    if (line === undefined || seen.has(line)) continue;
    seen.add(line);
    out.push({
      specialty: policy.specialty,
      policy: policy.id,
      ...graded(policy, r.rule),
      needs_more_context: false,
      file: file.filename,
      line,
      message: `${messageFor(r.rule, match)} (rule ${r.rule.id})`,
      source: "detector",
      detector: `rules:${policy.id}`,
    });
  }
  return out;
}

/**
 * One detector per policy that carries ast-grep rules (`rules:` in its front matter), each rule
 * checked now: a rule ast-grep refuses, or in a language the gate does not parse, is an error
 * naming the policy file, the rule's line and its id (the server and the CLI stop at start). A rule
 * runs only on the lines a pull request adds or changes, in files of its language; one that runs
 * past `RULES_BUDGET_MS` fails its detector, and the review goes to a person.
 *
 * @example policyRuleDetectors(loadPolicies(dir)).map((d) => d.id) // ["rules:ACME-01"]
 */
export function policyRuleDetectors(policies: readonly Policy[], options: RuleRunOptions = {}): Detector[] {
  const out: Detector[] = [];
  for (const policy of policies) {
    const compiled = policy.rules
      .map((rule, i) => compile(policy, rule, i))
      .filter((r): r is CompiledRule => r !== undefined);
    if (compiled.length > 0) out.push(detectorFor(policy, compiled, options));
  }
  return out;
}
