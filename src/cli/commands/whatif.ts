import type { Logger } from "pino";
import { policyRuleDetectors } from "../../detectors/policy-rules.js";
import { systemClock, type Clock } from "../../domain/clock.js";
import { GateError } from "../../domain/errors.js";
import { loadServerConfigFile } from "../../gate-file/corpus-check.js";
import { effectiveConfig } from "../../gate-file/effective.js";
import { loadPolicies } from "../../policy/load-policies.js";
import type { ReplayCorpus } from "../../replay/replay-graph.js";
import { whatIf, type WhatIfReport } from "../../replay/whatif.js";
import type { Settings } from "../../settings/index.js";
import { openStoredReviews } from "../../store/replay-reader.js";

const USAGE = "usage: gate config whatif <config-file> [--repo owner/name] [--since 30d] [--policies <dir>] [--json]";

/** `30d`, `12h`: the ISO time that long before now. */
export function sinceOf(text: string, now: Date): string {
  const m = /^(\d{1,5})([dh])$/.exec(text.trim());
  if (!m) throw new GateError("CONFIG_INVALID", `--since ${text}: give a number of days or hours, like 30d or 12h`);
  const hours = Number(m[1]) * (m[2] === "d" ? 24 : 1);
  return new Date(now.getTime() - hours * 3_600_000).toISOString();
}

/** A corpus and a configuration file checked as the server checks its own at start (an error refuses it). */
function corpusOf(policiesDir: string, configFile: string, settings: Settings, today: string): ReplayCorpus {
  const policies = loadPolicies(policiesDir);
  policyRuleDetectors(policies);
  const { file } = loadServerConfigFile(
    configFile,
    policies.map((p) => p.id),
    today,
  );
  const config = effectiveConfig(file, policies, {
    riskThreshold: settings.review.riskThreshold,
    sources: [configFile],
  });
  return { policies, server: { file, config } };
}

function printText(report: WhatIfReport, out: (t: string) => void): void {
  for (const c of report.changes) {
    // The three routes side by side: as stored, replayed with today's configuration, with the proposal.
    out(
      `${c.pr} (${c.review_id}): route then ${c.route_then ?? "unsettled"}, now ${c.route_now}, with the proposal ${c.route_would}`,
    );
    for (const f of c.appeared) out(`  + ${f}`);
    for (const f of c.disappeared) out(`  - ${f}`);
  }
  for (const s of report.skipped) out(`skipped ${s.pr} (${s.review_id}): ${s.why}`);
  const { newly_waiting, no_longer_waiting, unchanged } = report.summary;
  out(
    `${report.replayed} review(s) replayed in rules mode (no model calls), ${report.changes.length} change: ` +
      `${newly_waiting} would newly wait for a person, ${no_longer_waiting} would no longer, ${unchanged} unchanged`,
  );
}

/**
 * `gate config whatif <config-file> [--repo owner/name] [--since 30d] [--policies <dir>] [--json]`:
 * replays the stored reviews' pull requests with today's configuration and with the proposed one
 * (and the proposed policy folder), in rules mode, and prints each review whose route or findings
 * would change, and a summary. Opens the database read-only; writes nothing.
 *
 * @example await whatifCommand(["gate.yml"], { json: false, since: "30d" }, settings, log, io) // 0
 */
export async function whatifCommand(
  args: string[],
  opts: { json: boolean; repo?: string; since?: string; policies?: string },
  settings: Settings,
  log: Logger,
  io: { out: (t: string) => void; err: (t: string) => void },
  clock: Clock = systemClock,
): Promise<number> {
  const [file, ...extra] = args;
  if (!file || extra.length > 0) {
    io.err(USAGE);
    return 2;
  }
  const now = clock();
  const since = opts.since ? sinceOf(opts.since, now) : undefined;
  const today = now.toISOString().slice(0, 10);
  const current = corpusOf(settings.policiesDir, settings.configFile, settings, today);
  const proposed = corpusOf(opts.policies ?? settings.policiesDir, file, settings, today);
  const stored = await openStoredReviews(settings.database);
  let report: WhatIfReport;
  try {
    const reviews = await stored.list({ ...(opts.repo ? { repo: opts.repo } : {}), ...(since ? { since } : {}) });
    report = await whatIf(reviews, { current, proposed }, settings, log, clock);
  } finally {
    await stored.close();
  }
  if (opts.json) io.out(JSON.stringify(report, null, 2));
  else printText(report, io.out);
  return 0;
}
