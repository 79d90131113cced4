import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parse as parseYaml } from "yaml";
import { addedFilesPullRequest } from "../../scripts/precheck-differential/added-file-pr.js";
import { compareWithoutPrechecks } from "../../scripts/precheck-differential/compare.js";
import { folderHead } from "../../scripts/precheck-differential/folder-head.js";
import { codeLanguage } from "../../src/detectors/code-lines.js";
import { parsePatch } from "../../src/domain/patch.js";
import { parsePullRequest } from "../../src/domain/pull-request.js";
import { loadFixturePullRequest } from "../../src/fixture/fixture.js";
import { createFixtureResolver } from "../../src/licenses/offline-resolver.js";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { combinedVariants, VARIANTS } from "./precheck-variants.js";

// Every pre-check and shortcut of the detectors (src/detectors/precheck.ts) only spares work that
// could find nothing: with them all off, every detector must find exactly the same, over every
// bundled and evaluation fixture and over the generated spellings of precheck-cases.yaml.

const FIXTURE_ROOTS = [path.join(PACKAGE_ROOT, "fixtures"), path.join(PACKAGE_ROOT, "fixtures", "eval")];

interface Fixture {
  name: string;
  root: string;
  dir: string;
}

function fixtures(): Fixture[] {
  return FIXTURE_ROOTS.flatMap((root) =>
    readdirSync(root)
      .filter((n) => existsSync(path.join(root, n, "files.json")))
      .sort()
      .map((n) => ({ name: path.relative(PACKAGE_ROOT, path.join(root, n)), root, dir: path.join(root, n) })),
  );
}

/** A fixture as the gate reviews it: its pull request, its `repo/` as the head, its registry.json. */
function fixtureSetting(f: Fixture) {
  return {
    build: () => loadFixturePullRequest(f.root, path.basename(f.dir)),
    setting: {
      head: folderHead(path.join(f.dir, "repo")),
      licenses: createFixtureResolver(path.join(f.dir, "registry.json")),
    },
  };
}

/** The fixture's files, each as a new file of the lines its head side shows (context and added). */
function headSides(f: Fixture): Array<{ path: string; text: string }> {
  const pr = loadFixturePullRequest(f.root, path.basename(f.dir));
  return pr.files
    .filter((file) => file.patch !== undefined && file.status !== "removed")
    .map((file) => ({
      path: file.filename,
      text: parsePatch(file.patch)
        .filter((l) => l.kind !== "del")
        .map((l) => l.text)
        .join("\n"),
    }));
}

/** The same PR cut up: every added line of every file as a one-line file of the same language. */
function lineByLine(f: Fixture) {
  const prJson: unknown = JSON.parse(readFileSync(path.join(f.dir, "pr.json"), "utf8"));
  const files = (JSON.parse(readFileSync(path.join(f.dir, "files.json"), "utf8")) as unknown[]).flatMap((item, i) => {
    const file = item as { filename: string; patch?: string };
    const dot = file.filename.lastIndexOf(".");
    const [stem, ext] = dot > 0 ? [file.filename.slice(0, dot), file.filename.slice(dot)] : [file.filename, ""];
    return (file.patch ?? "")
      .split("\n")
      .filter((l) => l.startsWith("+"))
      .map((line, j) => ({
        ...file,
        filename: `${stem}-${i}-${j}${ext}`,
        status: "added",
        additions: 1,
        deletions: 0,
        changes: 1,
        patch: `@@ -0,0 +1,1 @@\n${line}`,
      }));
  });
  return () => parsePullRequest(prJson, files);
}

/** The added files with every code file rewritten by `variant`. */
function rewritten(files: ReadonlyArray<{ path: string; text: string }>, variant: (t: string, ext: string) => string) {
  return files.map((f) =>
    codeLanguage(f.path) ? { path: f.path, text: variant(f.text, f.path.slice(f.path.lastIndexOf(".") + 1)) } : f,
  );
}

async function expectSame(build: Parameters<typeof compareWithoutPrechecks>[0], label: string, setting = {}) {
  const { differences } = await compareWithoutPrechecks(build, setting);
  expect(differences, label).toEqual([]);
}

const CASES = z
  .array(z.object({ file: z.string(), finds: z.array(z.string()), code: z.string() }))
  .parse(parseYaml(readFileSync(path.join(PACKAGE_ROOT, "test", "detectors", "precheck-cases.yaml"), "utf8")));

const SINGLE_VARIANTS = Object.entries(VARIANTS);

/**
 * The spellings a fixture is read in: `PER_FIXTURE` of them, taken in turn, so that every spelling
 * is read on a share of the corpus (each comparison parses every file twice; all of them on every
 * fixture would cost minutes).
 */
const PER_FIXTURE = 5;
function variantsFor(index: number) {
  const respellings = SINGLE_VARIANTS.filter(([name]) => name !== "asWritten");
  return Array.from(
    { length: PER_FIXTURE },
    (_, k) => respellings[(index * PER_FIXTURE + k) % respellings.length],
  ).filter((v): v is (typeof respellings)[number] => v !== undefined);
}

describe("the pre-check differential over every bundled and evaluation fixture", () => {
  const all = fixtures();

  it("reads the whole corpus", () => {
    expect(all.length).toBeGreaterThan(90);
  });

  it.each(all.map((f, i) => [f.name, f, i] as const))(
    "%s: the same findings with pre-checks and without, as reviewed, line by line, and respelled",
    async (_name, f, index) => {
      const { build, setting } = fixtureSetting(f);
      await expectSame(build, "as reviewed", setting);
      await expectSame(lineByLine(f), "line by line");
      const files = headSides(f);
      if (!files.some((file) => codeLanguage(file.path))) return;
      for (const [name, variant] of variantsFor(index)) {
        await expectSame(() => addedFilesPullRequest(rewritten(files, variant)), name, setting);
      }
    },
    120_000,
  );
});

describe("the pre-check differential over precheck-cases.yaml in every spelling", () => {
  it("has cases of every family the pre-checks guard", () => {
    const found = new Set(CASES.flatMap((c) => c.finds));
    for (const policy of ["SEC-01", "SEC-02", "SEC-03", "SEC-05", "LIC-03", "DATA-01", "DATA-02", "DATA-03"])
      expect(found, policy).toContain(policy);
  });

  it.each(CASES.map((c, i) => [c.file, c, i] as const))(
    "%s: finds what it finds as written, and the same with pre-checks and without in every spelling",
    async (_file, c, i) => {
      const files = [{ path: c.file, text: c.code }];
      const { withChecks } = await compareWithoutPrechecks(() => addedFilesPullRequest(files));
      expect([...new Set(withChecks.map((f) => f.policy))]).toEqual(expect.arrayContaining(c.finds));
      for (const [name, variant] of SINGLE_VARIANTS) {
        await expectSame(() => addedFilesPullRequest(rewritten(files, variant)), name);
      }
      // Two or three spellings at once, a different draw for each case.
      for (const { name, apply } of combinedVariants(1000 + i, 3)) {
        await expectSame(() => addedFilesPullRequest(rewritten(files, apply)), name);
      }
    },
    120_000,
  );
});
