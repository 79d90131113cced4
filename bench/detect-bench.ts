import { defaultLicenseRules } from "../src/gate-file/effective.js";
import { ALL_DETECTORS } from "../src/detectors/index.js";
import type { PullRequest } from "../src/domain/pull-request.js";
import { assessRisk } from "../src/risk/assess-risk.js";
import { type Figure, paired, pairedFigure } from "./stats.js";
import { syntheticPr } from "./synthetic.js";

const NO_HEAD = { read: async () => undefined };
const NO_LICENCES = { lookup: async () => ({ status: "unknown" as const }) };

/**
 * Every detector and the risk gate over one PR, as the detect and assess-risk nodes run them: the
 * CPU time, in µs, which a shared machine's load does not stretch as it stretches wall time. The
 * PR is built fresh for each run, as every review builds its own: the parse of a file is kept per
 * file object, so a reused PR would be parsed only in its first run.
 */
async function detectAndRisk(build: () => PullRequest): Promise<number> {
  const pr = build();
  const started = process.cpuUsage();
  const ctx = {
    pr,
    head: NO_HEAD,
    licenses: NO_LICENCES,
    licenseRules: defaultLicenseRules(),
    notRead: () => undefined,
  };
  const findings = (await Promise.all(ALL_DETECTORS.map((d) => d.detect(ctx)))).flat();
  assessRisk(pr, findings, []);
  const used = process.cpuUsage(started);
  return used.user + used.system;
}

/**
 * Cost per added line of one 32k-line file against one 1k-line file: linear detectors give a
 * ratio near 1; a detector that rescans the file per match grows with the file.
 */
export async function detectLinearity(): Promise<Figure> {
  const small = () => syntheticPr({ files: 1, linesPerFile: 1_000 });
  const large = () => syntheticPr({ files: 1, linesPerFile: 32_000 });
  const m = await paired(
    async () => (await detectAndRisk(large)) / 32_000,
    async () => (await detectAndRisk(small)) / 1_000,
    { runs: 5 },
  );
  return pairedFigure(
    "detect_per_line",
    "detect + risk, CPU µs per added line: one file of 32k lines against one of 1k",
    { label: "32k-line file", unit: "µs CPU/line" },
    { label: "1k-line file", unit: "µs CPU/line" },
    m,
    { max: 1.5 },
  );
}
