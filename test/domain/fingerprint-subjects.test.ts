import YAML from "yaml";
import { describe, expect, it } from "vitest";
import type { Detector } from "../../src/detectors/detector.js";
import { copyleftSourceDetector } from "../../src/detectors/licensing/copyleft-source.js";
import { dependencyLicensesDetector } from "../../src/detectors/licensing/dependency-licenses.js";
import { gateConfigChangeDetector } from "../../src/detectors/security/gate-config-change.js";
import { workflowRiskDetector } from "../../src/detectors/security/workflow-risk.js";
import { fingerprint, withFingerprints } from "../../src/domain/fingerprint.js";
import type { Finding } from "../../src/domain/finding.js";
import { addedFilePatch, buildPr, detectContext, headFiles, offlineLicenses } from "../detectors/pr-builder.js";

/** The findings, fingerprinted, a detector gives for one added file (its head text the same lines). */
async function detected(
  detector: Detector,
  filename: string,
  text: string,
  registry: Record<string, { license: string }> = {},
): Promise<Finding[]> {
  const lines = text.split("\n");
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const ctx = detectContext(pr, { head: headFiles({ [filename]: text }), licenses: offlineLicenses(registry) });
  return withFingerprints(await detector.detect(ctx), pr.files);
}

/** A small seeded generator (mulberry32): the same variants on every run, many of them. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const word = () => Array.from({ length: 3 + int(6) }, () => pick("abcdefghijklmnopqrstuvwxyz".split(""))).join("");
  return { int, pick, word };
}
type Random = ReturnType<typeof random>;

/**
 * The same YAML laid out another way: another indentation, blank lines, trailing spaces, and
 * comment lines on top (which move every line of it down).
 */
function reformatted(value: unknown, r: Random): string {
  const text = YAML.stringify(value, { indent: 2 + r.int(3) * 2 }).trimEnd();
  const lines = text.split("\n").flatMap((l) => {
    const out = [`${l}${" ".repeat(r.int(3))}`];
    if (r.int(4) === 0) out.push("");
    return out;
  });
  const comments = Array.from({ length: 1 + r.int(40) }, (_, i) => `# note ${i} ${r.word()}`);
  return [...comments, ...lines].join("\n");
}

const VARIANTS = 60;

/** Fifty comment lines more on top: every line of the file moves down. */
const moved = (text: string) => `${"# moved down\n".repeat(50)}${text}`;

/** A repository's gate configuration with a few random settings. */
function gateConfig(r: Random): Record<string, unknown> {
  return {
    version: 1,
    approvers: Array.from({ length: 1 + r.int(3) }, () => `U${r.word().toUpperCase()}`),
    policies: Object.fromEntries(
      ["SEC-01", "SEC-02", "SEC-04", "LIC-02"].map((p) => [
        p,
        { enabled: true, severity: r.pick(["high", "critical"]) },
      ]),
    ),
    paths: { ignore: Array.from({ length: r.int(3) }, () => `${r.word()}/**`) },
  };
}

/** One change to a gate configuration's settings: a policy switched off, an approver added, a path ignored. */
function changeSettings(config: Record<string, unknown>, r: Random): Record<string, unknown> {
  const next = structuredClone(config) as {
    approvers: string[];
    policies: Record<string, { enabled: boolean; severity: string }>;
    paths: { ignore: string[] };
  };
  const policy = r.pick(Object.keys(next.policies));
  const change = r.int(4);
  if (change === 0 && next.policies[policy]) next.policies[policy].enabled = false;
  else if (change === 1 && next.policies[policy])
    next.policies[policy].severity = next.policies[policy].severity === "high" ? "low" : "high";
  else if (change === 2) next.approvers.push(`UEVIL${r.word().toUpperCase()}`);
  else next.paths.ignore.push(`${r.word()}-${r.int(1000)}/**`);
  return next;
}

/** A `pull_request_target` workflow whose job checks out the PR's head and uses a secret. */
function workflow(r: Random): Record<string, unknown> {
  return {
    name: `PR ${r.word()}`,
    on: { pull_request_target: { types: ["opened", "synchronize"] } },
    jobs: {
      test: {
        "runs-on": "ubuntu-latest",
        steps: [
          { uses: "actions/checkout@v4", with: { ref: "${{ github.event.pull_request.head.sha }}" } },
          { run: `npm ci --${r.word()}`, env: { NPM_TOKEN: "${{ secrets.NPM_TOKEN }}" } },
          ...Array.from({ length: r.int(3) }, () => ({ run: `npm run ${r.word()}` })),
        ],
      },
    },
  };
}

/** One change to the job or its triggers: a step added (a deploy with another secret), edited, a trigger added. */
function changeJob(value: Record<string, unknown>, r: Random): Record<string, unknown> {
  const next = structuredClone(value) as {
    on: Record<string, unknown>;
    jobs: { test: { steps: Array<Record<string, unknown>> } };
  };
  const steps = next.jobs.test.steps;
  const change = r.int(4);
  if (change === 0)
    steps.push({ run: `./deploy.sh ${r.word()}`, env: { KEY: `\${{ secrets.PROD_${r.word().toUpperCase()} }}` } });
  else if (change === 1) steps[1] = { ...steps[1], run: `npm ci && curl ${r.word()}.example` };
  else if (change === 2) next.on = { ...next.on, workflow_run: { workflows: [r.word()] } };
  else steps.splice(1, 0, { run: `echo ${r.word()}` });
  return next;
}

const printsOf = (fs: Finding[], policy: string) =>
  fs
    .filter((f) => f.policy === policy)
    .map((f) => f.fingerprint)
    .sort();

describe("fingerprints hold what makes a finding dangerous (property)", () => {
  it("SEC-06: any change to the configuration's settings is a new fingerprint; moving or reformatting it is not", async () => {
    for (let seed = 1; seed <= VARIANTS; seed++) {
      const r = random(seed);
      const config = gateConfig(r);
      const original = printsOf(
        await detected(gateConfigChangeDetector, ".github/gate.yml", reformatted(config, r)),
        "SEC-06",
      );
      expect(original).toHaveLength(1);
      const laidOut = await detected(gateConfigChangeDetector, ".github/gate.yml", moved(reformatted(config, r)));
      expect(printsOf(laidOut, "SEC-06"), `seed ${seed}: reformatted`).toEqual(original);
      const changed = changeSettings(config, r);
      const edited = await detected(gateConfigChangeDetector, ".github/gate.yml", reformatted(changed, r));
      expect(printsOf(edited, "SEC-06"), `seed ${seed}: changed`).not.toEqual(original);
    }
  });

  it("SEC-04: any change to a privileged job's steps, triggers or secrets is a new fingerprint; moving or reformatting it is not", async () => {
    const file = ".github/workflows/pr.yml";
    for (let seed = 1; seed <= VARIANTS; seed++) {
      const r = random(1000 + seed);
      const value = workflow(r);
      const original = await detected(workflowRiskDetector, file, reformatted(value, r));
      const critical = (fs: Finding[]) => fs.find((f) => f.severity === "critical")?.fingerprint;
      const secrets = (fs: Finding[]) => fs.find((f) => f.message.startsWith("Secrets"))?.fingerprint;
      expect(critical(original)).toBeDefined();
      expect(secrets(original)).toBeDefined();
      const laidOut = await detected(workflowRiskDetector, file, moved(reformatted(value, r)));
      expect(
        laidOut.map((f) => f.line),
        `seed ${seed}: the lines moved`,
      ).not.toEqual(original.map((f) => f.line));
      expect(printsOf(laidOut, "SEC-04"), `seed ${seed}: reformatted`).toEqual(printsOf(original, "SEC-04"));
      const edited = await detected(workflowRiskDetector, file, reformatted(changeJob(value, r), r));
      expect(critical(edited), `seed ${seed}: changed`).not.toBe(critical(original));
      expect(secrets(edited), `seed ${seed}: changed`).not.toBe(secrets(original));
    }
  });

  it("a cited line: any change to its code is a new fingerprint; another line number or other spacing is not", () => {
    const base: Finding = {
      specialty: "security",
      policy: "SEC-03",
      severity: "high",
      blocking: true,
      needs_more_context: false,
      file: "src/db.ts",
      line: 10,
      message: "m",
      source: "detector",
    };
    for (let seed = 1; seed <= VARIANTS * 5; seed++) {
      const r = random(2000 + seed);
      const tokens = Array.from({ length: 2 + r.int(6) }, () => r.word());
      const code = tokens.join(" ");
      const spaced = `${" ".repeat(r.int(8))}${tokens.join(" ".repeat(1 + r.int(4)))}${"\t".repeat(r.int(2))}`;
      const print = fingerprint(base, code);
      expect(fingerprint({ ...base, line: 1 + r.int(5000) }, spaced), `seed ${seed}`).toBe(print);
      const i = r.int(tokens.length);
      const changed = tokens.map((t, j) => (j === i ? `${t}${r.pick(["x", "(", ".", "1"])}` : t)).join(" ");
      expect(fingerprint(base, changed), `seed ${seed}`).not.toBe(print);
    }
  });

  it("a subject (a private key's digest): another subject is a new fingerprint; the cited line and its number are not part of it", () => {
    const key: Finding = {
      specialty: "security",
      policy: "SEC-01",
      severity: "critical",
      blocking: true,
      needs_more_context: false,
      file: "deploy/id_rsa",
      line: 1,
      message: "A private key is committed",
      source: "detector",
      subject: "pem:0a1b2c3d4e5f6071",
    };
    const begin = "-----BEGIN RSA PRIVATE KEY-----";
    const print = fingerprint(key, begin);
    // Another key with the same BEGIN line: a new fingerprint (it used to be the line's).
    expect(fingerprint({ ...key, subject: "pem:ffeeddccbbaa9988" }, begin)).not.toBe(print);
    expect(fingerprint({ ...key, line: 40 }, `   ${begin}`)).toBe(print);
    for (let seed = 1; seed <= VARIANTS; seed++) {
      const r = random(3000 + seed);
      const subject = `pem:${r.word()}${r.int(1e6)}`;
      expect(fingerprint({ ...key, subject, line: 1 + r.int(99) }, r.word())).toBe(
        fingerprint({ ...key, subject }, begin),
      );
      expect(fingerprint({ ...key, subject }, begin)).not.toBe(fingerprint({ ...key, subject: `${subject}0` }, begin));
    }
    // Without a subject the cited line stands for it, as before.
    const { subject: _none, ...lineOnly } = key;
    expect(fingerprint(lineOnly, begin)).not.toBe(print);
  });
});

describe("attacks on carried decisions (issue 43): the fingerprint changes", () => {
  it("SEC-06: after a harmless edit, disabling SEC-01/02/04 and adding an approver is a new fingerprint", async () => {
    const harmless = ["version: 1", "decisions:", "  carry_forward: unchanged_findings", "approvers: [UAPPROVER]"];
    const evil = [
      ...harmless.slice(0, 3),
      "approvers: [UAPPROVER, UEVIL]",
      "policies:",
      "  SEC-01: { enabled: false }",
      "  SEC-02: { enabled: false }",
      "  SEC-04: { enabled: false }",
    ];
    const [before] = await detected(gateConfigChangeDetector, ".github/gate.yml", harmless.join("\n"));
    const [after] = await detected(gateConfigChangeDetector, ".github/gate.yml", evil.join("\n"));
    // The first added line is the same; the settings are not.
    expect(before?.line).toBe(after?.line);
    expect(after?.fingerprint).not.toBe(before?.fingerprint);
  });

  it("SEC-04: a pull_request_target job that gains a deploy step using PROD_DEPLOY_KEY is a new fingerprint", async () => {
    const job = [
      "on: pull_request_target",
      "jobs:",
      "  test:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "        with:",
      "          ref: ${{ github.event.pull_request.head.sha }}",
      "      - run: npm ci",
      "        env:",
      "          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    ];
    const deploy = [
      ...job,
      "      - run: ./deploy.sh",
      "        env:",
      "          KEY: ${{ secrets.PROD_DEPLOY_KEY }}",
    ];
    const before = await detected(workflowRiskDetector, ".github/workflows/pr.yml", job.join("\n"));
    const after = await detected(workflowRiskDetector, ".github/workflows/pr.yml", deploy.join("\n"));
    expect(before.map((f) => f.line)).toEqual(after.map((f) => f.line));
    expect(before).toHaveLength(2);
    for (const [i, f] of after.entries()) expect(f.fingerprint).not.toBe(before[i]?.fingerprint);
  });

  it("LIC-02 and LIC-01: the same dependency under GPL-2.0, AGPL-3.0 or SSPL has three fingerprints", async () => {
    const manifest = ["{", '  "dependencies": {', '    "chart-lib": "^2.1.0"', "  }", "}"].join("\n");
    const prints = async (license: string, policy: string) =>
      printsOf(
        await detected(dependencyLicensesDetector, "package.json", manifest, { "npm:chart-lib": { license } }),
        policy,
      );
    const copyleft = await Promise.all(["GPL-2.0-only", "AGPL-3.0-only", "SSPL-1.0"].map((l) => prints(l, "LIC-02")));
    expect(copyleft.every((p) => p.length === 1)).toBe(true);
    expect(new Set(copyleft.map((p) => p[0])).size).toBe(3);
    // LIC-01 (not on the allow-list): one licence or another is another fingerprint too.
    const other = await Promise.all(["Artistic-2.0", "CC-BY-4.0"].map((l) => prints(l, "LIC-01")));
    expect(other.every((p) => p.length === 1)).toBe(true);
    expect(other[0]?.[0]).not.toBe(other[1]?.[0]);
  });

  it("LIC-03: a vendored file beside a GPL-2.0 licence text, then beside an AGPL-3.0 one, has two fingerprints", async () => {
    const run = async (title: string, version: string) => {
      const source = "vendor/chart/draw.c";
      const pr = buildPr({ files: [{ filename: source, patch: addedFilePatch(["int draw(void) { return 0; }"]) }] });
      const ctx = detectContext(pr, {
        head: headFiles({ "vendor/chart/COPYING": `${title}\n${version}\n\nThe licence's text.` }),
      });
      return printsOf(withFingerprints(await copyleftSourceDetector.detect(ctx), pr.files), "LIC-03");
    };
    const gpl2 = await run("GNU GENERAL PUBLIC LICENSE", "Version 2, June 1991");
    const gpl3 = await run("GNU GENERAL PUBLIC LICENSE", "Version 3, 29 June 2007");
    const agpl = await run("GNU AFFERO GENERAL PUBLIC LICENSE", "Version 3, 19 November 2007");
    expect(gpl2).toHaveLength(1);
    expect(new Set([gpl2[0], gpl3[0], agpl[0]]).size).toBe(3);
  });
});
