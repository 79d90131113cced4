import type { EffectiveConfig } from "../../gate-file/effective.js";
import { resolveReviewConfig } from "../../gate-file/resolve.js";
import { GateError } from "../../domain/errors.js";
import { isFullRepoName } from "../../domain/github-names.js";
import { readRepoConfig } from "../../github/repo-config.js";
import { LOCKED_POLICIES } from "../../gate-file/schema.js";
import { ALL_DETECTORS } from "../../detectors/index.js";
import type { CliContext } from "../context.js";

/** Policies the detectors can raise or the configuration names that have no policy file: not enforced. */
function notEnforced(config: EffectiveConfig): { id: string; why: string }[] {
  const raised = new Set(ALL_DETECTORS.flatMap((d) => d.policies));
  const out = new Map<string, string>();
  for (const id of [...raised].sort()) {
    if (!config.policies[id] && !LOCKED_POLICIES.has(id))
      out.set(id, "no policy file in the corpus, so its detectors' findings are dropped");
  }
  for (const id of config.unknownPolicies) if (!out.has(id)) out.set(id, "named by the configuration, no policy file");
  for (const p of Object.values(config.policies)) if (!p.enabled) out.set(p.id, "disabled by the configuration");
  return [...out].map(([id, why]) => ({ id, why })).sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The effective configuration as JSON: where it came from, each policy as enforced, what is not
 * enforced and why, the licence rules, exceptions, risk, approvers and channel.
 *
 * @example effectiveConfigJson(gate.config).policies[0].id // "DATA-01"
 */
export function effectiveConfigJson(config: EffectiveConfig) {
  return {
    sources: config.sources,
    policies: Object.values(config.policies)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map(({ configured: _c, ...p }) => p),
    not_enforced: notEnforced(config),
    licenses: config.licenses,
    exceptions: config.exceptions,
    risk: config.risk,
    approvers: config.approvers,
    ...(config.slackChannel ? { slack_channel: config.slackChannel } : {}),
  };
}

/**
 * The configuration a repository's pull requests get: its default branch's `.github/gate.yml`
 * over the server-wide file. A file with a problem is an error naming its line.
 */
async function repositoryConfig(ctx: CliContext, repo: string): Promise<EffectiveConfig> {
  if (!isFullRepoName(repo)) throw new GateError("PR_REF_INVALID", `"${repo}" is not owner/name`);
  if (!ctx.github) {
    throw new GateError(
      "GITHUB_INTAKE",
      `--repo ${repo} reads its .github/gate.yml from GitHub: set GitHub credentials`,
    );
  }
  const [owner = "", name = ""] = repo.split("/");
  const text = await readRepoConfig(await ctx.github.forRepo(owner, name), { owner, repo: name });
  const gate = await ctx.gate();
  const { config, problem } = await resolveReviewConfig(
    { file: gate.configFile, config: gate.config },
    text,
    gate.policies,
  );
  if (problem) throw new GateError("CONFIG_FILE_INVALID", problem);
  return config;
}

/**
 * `gate policies [--repo owner/name]`: the policies and configuration in force (for one
 * repository's pull requests), one line per policy, then the rest.
 */
export async function policiesCommand(ctx: CliContext, json: boolean, repo?: string): Promise<number> {
  const config = repo ? await repositoryConfig(ctx, repo) : (await ctx.gate()).config;
  const view = effectiveConfigJson(config);
  if (json) {
    ctx.out(JSON.stringify(view, null, 2));
    return 0;
  }
  ctx.out(`configuration: ${view.sources.join(", then ")}`);
  for (const p of view.policies) {
    const state = !p.enabled ? "disabled" : p.blocking ? "blocking" : "advisory";
    ctx.out(`${p.id.padEnd(8)} ${p.specialty.padEnd(9)} ${p.severity.padEnd(8)} ${state.padEnd(8)}  ${p.title}`);
  }
  for (const n of view.not_enforced) ctx.out(`not enforced: ${n.id}: ${n.why}`);
  const l = view.licenses;
  ctx.out(`licences allowed: ${l.runtime.allow.join(", ") || "none"}`);
  if (l.runtime.deny.length > 0 || l.development.deny.length > 0) {
    ctx.out(
      `licences denied: runtime ${l.runtime.deny.join(", ") || "none"}; development ${l.development.deny.join(", ") || "none"}`,
    );
  }
  ctx.out(
    `unknown licence: runtime ${l.runtime.unknown}, development ${l.development.unknown}; ` +
      `not allowed: runtime ${l.runtime.not_allowed}, development ${l.development.not_allowed}`,
  );
  if (l.own_packages.length > 0) ctx.out(`own packages (no licence check): ${l.own_packages.join(", ")}`);
  for (const e of view.exceptions) {
    ctx.out(
      `exception: ${e.policy} for ${e.package ?? e.path}, until ${e.expires}, granted by ${e.granted_by}: ${e.reason}`,
    );
  }
  ctx.out(`risk threshold: ${view.risk.threshold}`);
  if (view.slack_channel) ctx.out(`slack channel: ${view.slack_channel}`);
  return 0;
}
