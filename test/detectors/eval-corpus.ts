import { expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ALL_DETECTORS } from "../../src/detectors/index.js";
import type { Finding } from "../../src/domain/finding.js";
import { parsePullRequest } from "../../src/domain/pull-request.js";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { detectContext, headFiles, offlineLicenses } from "./pr-builder.js";

/** The evaluation corpus the detector tests read. */
export const EVAL_DIR = path.join(PACKAGE_ROOT, "fixtures", "eval");

/** What a fixture's expected.json asks of the policies. */
export interface Expectation {
  route: string;
  must_cite: string[];
  must_not_cite: string[];
}

/**
 * Names of the corpus fixtures whose name starts with one of `prefixes`.
 *
 * @example evalFixtures(["data-"]) // ["data-log-reqbody-ts", ...]
 */
export function evalFixtures(prefixes: readonly string[]): string[] {
  return readdirSync(EVAL_DIR)
    .filter((n) => prefixes.some((p) => n.startsWith(p)) && existsSync(path.join(EVAL_DIR, n, "expected.json")))
    .sort();
}

function readJson(name: string, file: string): unknown {
  return JSON.parse(readFileSync(path.join(EVAL_DIR, name, file), "utf8"));
}

function snapshot(dir: string, prefix = ""): Record<string, string> {
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, snapshot(path.join(dir, entry.name), rel));
    else out[rel] = readFileSync(path.join(dir, entry.name), "utf8");
  }
  return out;
}

/**
 * Every deterministic detector's findings on one corpus fixture (its registry.json answers
 * licence lookups, its repo/ is the head snapshot), with its expectation.
 *
 * @example const { findings, expected } = await detectFixture("data-log-user-go");
 */
export async function detectFixture(name: string): Promise<{ findings: Finding[]; expected: Expectation }> {
  const pr = parsePullRequest(readJson(name, "pr.json"), readJson(name, "files.json"));
  const registryPath = path.join(EVAL_DIR, name, "registry.json");
  const registry = existsSync(registryPath)
    ? (readJson(name, "registry.json") as Record<string, { license?: string }>)
    : {};
  const ctx = detectContext(pr, {
    head: headFiles(snapshot(path.join(EVAL_DIR, name, "repo"))),
    licenses: offlineLicenses(registry),
  });
  const findings = (await Promise.all(ALL_DETECTORS.map((d) => d.detect(ctx)))).flat();
  return { findings, expected: readJson(name, "expected.json") as Expectation };
}

/**
 * The two checks every family of detectors owes the corpus: each risky fixture cites the family's
 * policies it must cite, blocking; each clean look-alike cites none it must not.
 *
 * @example corpusChecks({ family: "data", policies: /^DATA-/, risky, clean });
 */
export function corpusChecks(opts: {
  family: string;
  policies: RegExp;
  risky: string[];
  clean: string[];
  /** What else a clean fixture's findings must hold, beyond citing none of the forbidden policies. */
  alsoClean?: (findings: Finding[]) => void;
}): void {
  it.each(opts.risky)(`%s: cites its ${opts.family} policy with a blocking finding`, async (name) => {
    const { findings, expected } = await detectFixture(name);
    const wanted = expected.must_cite.filter((p) => opts.policies.test(p));
    expect(wanted.length).toBeGreaterThan(0);
    for (const id of wanted)
      expect(
        findings.some((f) => f.policy === id && f.blocking),
        id,
      ).toBe(true);
  });

  it.each(opts.clean)(`%s: raises none of the ${opts.family} policies it must not cite`, async (name) => {
    const { findings, expected } = await detectFixture(name);
    const cited = new Set(findings.map((f) => f.policy));
    for (const id of expected.must_not_cite.filter((p) => opts.policies.test(p))) expect(cited, id).not.toContain(id);
    opts.alsoClean?.(findings);
  });
}
