import type { Policy } from "../../domain/policy.js";
import type { Finding } from "../../domain/finding.js";
import type { ReadGap } from "../../coverage/ledger.js";
import { describeError } from "../../domain/errors.js";
import { GRAMMARS } from "../../detectors/code/grammars.js";
import type { DetectContext, Detector } from "../../detectors/detector.js";
import type { RulesRunner } from "../../detectors/offload/rules-runner.js";
import type { PolicyText } from "../../detectors/offload/rules-protocol.js";
import { RULES_BUDGET_MS } from "../../detectors/policy-rules.js";

/** What the teams' rules gave off the answering thread: findings, failures (each naming its rule), gaps, and who read what. */
export interface TeamsRulesOutcome {
  findings: Finding[];
  errors: string[];
  gaps: ReadGap[];
  /** Stand-ins for the rule detectors that ran there, for the coverage ledger (what each read). */
  readers: Detector[];
}

/** Whether a file is in a language some teams' rule could search. */
const searchable = (file: string) => Object.values(GRAMMARS).some((g) => g.files.test(file));

/**
 * Runs the teams' ast-grep rules of a review in the rules process (rules-runner.ts): the server's rule policies
 * (`serverRules`, their detectors' ids `rules:ID`) and the repository's own policy files, parsed
 * there. Nothing of them is parsed or searched on this thread. A rule that runs past `budgetMs`
 * fails the rules, naming it (id, policy file, the file searched): the process is killed, every
 * file a rule could search is listed unread, and the review goes to a person. A process that
 * cannot take them fails them too; they never run here instead, where they could stall the server.
 *
 * @example const out = await teamsRulesOffThread(runner, ctx, serverRulePolicies, config.repoPolicies ?? [], 5_000);
 */
export async function teamsRulesOffThread(
  runner: RulesRunner,
  ctx: DetectContext,
  serverRules: readonly Policy[],
  texts: readonly PolicyText[],
  budgetMs = RULES_BUDGET_MS,
): Promise<TeamsRulesOutcome> {
  const out: TeamsRulesOutcome = { findings: [], errors: [], gaps: [], readers: [] };
  if (serverRules.length === 0 && texts.length === 0) return out;
  let marked = false;
  const unread = (why: string) => {
    if (marked) return;
    marked = true;
    for (const f of ctx.pr.files)
      if (f.status !== "removed" && searchable(f.filename))
        out.gaps.push({ file: f.filename, reason: "cap", detail: `teams' rules did not finish: ${why}` });
  };
  let ran: Awaited<ReturnType<RulesRunner["rules"]>>;
  try {
    ran = await runner.rules(ctx.pr, serverRules, texts, budgetMs);
  } catch (error) {
    const why = describeError(error);
    out.errors.push(`teams' rules (${why})`);
    unread(why);
    return out;
  }
  for (const o of ran.outcomes) {
    if ("error" in o) {
      out.errors.push(`${o.detector} (${o.error})`);
      // The rule that ran out names the gap (the policies after it were not run at all).
      if (o.error.includes("budget")) unread(o.error);
    } else out.findings.push(...o.findings);
  }
  for (const [id, files] of ran.readBy) {
    const reads = new Set(files);
    out.readers.push({
      id,
      policies: [id.replace(/^rules:/, "")],
      covers: [],
      reads: (file) => reads.has(file.filename),
      detect: async () => [],
    });
  }
  return out;
}
