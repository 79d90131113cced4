import type { AdvisoryLookup, AdvisoryQuery } from "../../domain/advisory-source.js";
import type { Finding } from "../../domain/finding.js";
import type { Detector } from "../detector.js";
import { VERSION_READERS } from "../../ecosystems/index.js";
import { pinnedDependencies, type UnreadLockfile } from "../../ecosystems/pinned-dependencies.js";
import { securityFinding } from "./security-finding.js";
import { deniedBy, deniedFinding, vulnerableFinding } from "./vulnerable-finding.js";

const queryKey = (q: AdvisoryQuery) => `${q.ecosystem}:${q.name}@${q.version}`;

function unreadFinding(u: UnreadLockfile): Finding {
  return securityFinding({
    policy: "SEC-07",
    detector: "vulnerable-dependencies",
    severity: "high",
    blocking: true,
    file: u.file,
    message: `${u.file} changed, but the gate could not read it whole (${u.why}), so the versions it resolves were not checked for known vulnerabilities; a person checks them.`,
  });
}

/**
 * SEC-07: every dependency the pull request adds or changes, at its exact version (lockfiles;
 * manifests' pins, in pom.xml, Gradle, NuGet and composer.json too; the lowest version a
 * package.json or requirements range admits), asked about in one batch of the advisory source; a
 * finding per affected dependency, and per advisory OSV names that the gate cannot confirm. A lookup that fails gives no finding here: the review's source
 * recorded it, and the review goes to a person (`lookup_failed`). A dependency on
 * `vulnerabilities.deny_packages` blocks whatever the advisory data says, with or without it.
 *
 * @example await vulnerableDependenciesDetector.detect(ctx) // [{ policy: "SEC-07", file: "package.json", line: 12, ... }]
 */
export const vulnerableDependenciesDetector: Detector = {
  id: "vulnerable-dependencies",
  policies: ["SEC-07"],
  // Not every manifest the licence detector owns has a version reader (Gemfile, .gemspec, Cargo.toml,
  // pyproject.toml, setup.py, setup.cfg, Pipfile): their lockfiles give the versions.
  covers: [],
  reads: (file) => VERSION_READERS.some((r) => r.matches(file.filename)),
  async detect(ctx) {
    const deny = ctx.vulnerabilityRules?.deny ?? [];
    if (!ctx.advisories && deny.length === 0) return [];
    const { pinned, unread } = await pinnedDependencies(ctx.pr.files, ctx.head, ctx.dependencies);
    const findings = unread.map(unreadFinding);
    for (const dep of pinned) {
      const entry = deniedBy(dep, deny);
      if (entry) findings.push(deniedFinding(dep, entry));
    }
    if (pinned.length === 0 || !ctx.advisories) return findings;
    const queries = new Map<string, AdvisoryQuery>();
    for (const p of pinned) queries.set(queryKey(p), { ecosystem: p.ecosystem, name: p.name, version: p.version });
    const asked = [...queries.values()];
    const answers = await ctx.advisories.lookup(asked);
    const byKey = new Map<string, AdvisoryLookup | undefined>(asked.map((q, i) => [queryKey(q), answers[i]]));
    for (const dep of pinned) {
      const answer = byKey.get(queryKey(dep));
      if (answer?.status !== "found" || answer.advisories.length === 0) continue;
      findings.push(vulnerableFinding(dep, answer.advisories, ctx.vulnerabilityRules));
    }
    return findings;
  },
};
