import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultLicenseRules } from "../../src/gate-file/effective.js";
import { copyleftSourceDetector } from "../../src/detectors/licensing/copyleft-source.js";
import { dependencyLicensesDetector } from "../../src/detectors/licensing/dependency-licenses.js";
import type { HeadFiles } from "../../src/domain/head-files.js";
import { parsePullRequest } from "../../src/domain/pull-request.js";
import { createOfflineResolver, loadRegistryFile } from "../../src/licenses/offline-resolver.js";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures");

/** The licensing fixtures, with what the two licensing detectors alone must conclude. */
const CASES = [
  { name: "002_new_dependency", blocking: true },
  { name: "009_gpl_dev_dependency", blocking: false },
  { name: "010_mit_or_gpl_dependency", blocking: false },
  { name: "011_unknown_license", blocking: true },
  { name: "012_vendored_gpl_source", blocking: true },
  { name: "017_version_bump", blocking: false },
] as const;

const ExpectedSchema = z.object({
  route: z.enum(["auto_approved", "approved", "human"]),
  must_cite: z.array(z.string()),
  must_not_cite: z.array(z.string()),
  max_model_calls: z.number().int().nonnegative(),
});

async function json(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, "utf8"));
}

/** Head files from the fixture's `repo/` folder (absent when the fixture has none). */
function repoFiles(dir: string): HeadFiles {
  const root = path.join(dir, "repo");
  return {
    async read(p) {
      const full = path.resolve(root, p);
      if (!full.startsWith(root + path.sep)) return undefined;
      return readFile(full, "utf8").catch(() => undefined);
    },
  };
}

describe("the licensing fixtures", () => {
  it.each(CASES)("$name: the licensing detectors cite what expected.json demands", async ({ name, blocking }) => {
    const dir = path.join(FIXTURES, name);
    const pr = parsePullRequest(await json(path.join(dir, "pr.json")), await json(path.join(dir, "files.json")));
    const expected = ExpectedSchema.parse(await json(path.join(dir, "expected.json")));
    const ctx = {
      pr,
      head: repoFiles(dir),
      licenses: createOfflineResolver(await loadRegistryFile(path.join(dir, "registry.json"))),
      licenseRules: defaultLicenseRules(),
      notRead: (file: string, detail: string) => expect.fail(`${file} not read: ${detail}`),
    };
    const findings = [...(await dependencyLicensesDetector.detect(ctx)), ...(await copyleftSourceDetector.detect(ctx))];
    const cited = new Set(findings.map((f) => f.policy));

    for (const id of expected.must_cite.filter((p) => p.startsWith("LIC-")))
      expect(cited, `${name} must cite ${id}`).toContain(id);
    for (const id of expected.must_not_cite) expect(cited.has(id), `${name} must not cite ${id}`).toBe(false);
    expect(findings.some((f) => f.blocking)).toBe(blocking);
    expect(expected.route === "human").toBe(blocking);
    for (const f of findings) {
      expect(f.file && pr.files.some((c) => c.filename === f.file), `${f.policy} names a changed file`).toBe(true);
      expect(f.line).toBeGreaterThan(0);
    }
  });

  it("cite the vendored C file and its COPYING once each in 012", async () => {
    const dir = path.join(FIXTURES, "012_vendored_gpl_source");
    const pr = parsePullRequest(await json(path.join(dir, "pr.json")), await json(path.join(dir, "files.json")));
    const findings = await copyleftSourceDetector.detect({
      pr,
      head: repoFiles(dir),
      licenses: createOfflineResolver({}),
      licenseRules: defaultLicenseRules(),
      notRead: (file, detail) => expect.fail(`${file} not read: ${detail}`),
    });
    expect(findings.map((f) => [f.file, f.line])).toEqual([
      ["vendor/fastjson/COPYING", 1],
      ["vendor/fastjson/parse.c", 6],
    ]);
  });
});
