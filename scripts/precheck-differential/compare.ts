import { defaultLicenseRules } from "../../src/gate-file/effective.js";
import type { DetectContext } from "../../src/detectors/detector.js";
import { ALL_DETECTORS } from "../../src/detectors/index.js";
import { withoutPrechecks } from "../../src/detectors/precheck.js";
import type { Finding } from "../../src/domain/finding.js";
import type { HeadFiles } from "../../src/domain/head-files.js";
import type { LicenseResolver } from "../../src/domain/license-resolver.js";
import type { PullRequest } from "../../src/domain/pull-request.js";

/** What the head snapshot and the registry answer, the same for both runs. */
export interface CompareSetting {
  head?: HeadFiles;
  licenses?: LicenseResolver;
}

/** The findings of every detector with the pre-checks on and off, and the CPU time of each run. */
export interface Comparison {
  withChecks: Finding[];
  without: Finding[];
  /** Findings of one run that the other lacks, as one-line descriptions (empty when identical). */
  differences: string[];
  /** CPU µs of the run with pre-checks, and of the run without. */
  cpuWith: number;
  cpuWithout: number;
}

const NO_HEAD: HeadFiles = { read: async () => undefined };
const NO_LICENCES: LicenseResolver = { lookup: async () => ({ status: "unknown" }) };

/** Every detector over one PR, with what their caps left unread and the CPU it took. */
export async function detectAll(
  build: () => PullRequest,
  setting: CompareSetting,
): Promise<{ findings: Finding[]; gaps: string[]; cpu: number }> {
  // A fresh PR value per run: a file's parse and head text are cached per file object.
  const pr = build();
  // What a detector's cap left unread must not depend on the pre-checks either.
  const gaps: string[] = [];
  const ctx: DetectContext = {
    pr,
    head: setting.head ?? NO_HEAD,
    licenses: setting.licenses ?? NO_LICENCES,
    licenseRules: defaultLicenseRules(),
    notRead: (file, detail) => gaps.push(`${file}: ${detail}`),
  };
  const started = process.cpuUsage();
  const findings = (await Promise.all(ALL_DETECTORS.map((d) => d.detect(ctx)))).flat();
  const used = process.cpuUsage(started);
  return { findings, gaps, cpu: used.user + used.system };
}

function describe(f: Finding): string {
  return `${f.policy} ${f.file ?? "-"}:${f.line ?? "-"} [${f.detector ?? f.source}] ${f.message.slice(0, 100)}`;
}

/** Each finding of `a` (counted with repeats) that `b` lacks. */
function missingFrom(a: readonly Finding[], b: readonly Finding[]): Finding[] {
  const left = new Map<string, number>();
  for (const f of b) left.set(JSON.stringify(f), (left.get(JSON.stringify(f)) ?? 0) + 1);
  return a.filter((f) => {
    const key = JSON.stringify(f);
    const n = left.get(key) ?? 0;
    if (n === 0) return true;
    left.set(key, n - 1);
    return false;
  });
}

/**
 * Runs every detector over the PR with its pre-checks, then with them all off, and says where the
 * findings differ. Order counts too: the same findings in another order is a difference. `build`
 * makes the PR afresh for each run, as every review builds its own (a file's parse is kept per
 * file object, so a shared one would be parsed only in the first run).
 *
 * @example (await compareWithoutPrechecks(() => parsePullRequest(pr, files))).differences // []
 */
export async function compareWithoutPrechecks(
  build: () => PullRequest,
  setting: CompareSetting = {},
): Promise<Comparison> {
  const a = await detectAll(build, setting);
  const b = await withoutPrechecks(() => detectAll(build, setting));
  const differences = [
    ...missingFrom(b.findings, a.findings).map((f) => `only without pre-checks: ${describe(f)}`),
    ...missingFrom(a.findings, b.findings).map((f) => `only with pre-checks: ${describe(f)}`),
  ];
  if (a.gaps.join("\n") !== b.gaps.join("\n"))
    differences.push(`unread with: ${a.gaps.join("; ")}; without: ${b.gaps.join("; ")}`);
  if (differences.length === 0 && JSON.stringify(a.findings) !== JSON.stringify(b.findings))
    differences.push("the same findings in another order");
  return { withChecks: a.findings, without: b.findings, differences, cpuWith: a.cpu, cpuWithout: b.cpu };
}
