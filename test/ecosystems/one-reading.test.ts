import { describe, expect, it, vi } from "vitest";
import type { AdvisoryQuery, AdvisorySource } from "../../src/domain/advisory-source.js";
import { dependencyLicensesDetector } from "../../src/detectors/licensing/dependency-licenses.js";
import { vulnerableDependenciesDetector } from "../../src/detectors/security/vulnerable-dependencies.js";
import { DependencyReading } from "../../src/ecosystems/dependency-reading.js";
import { goModParser } from "../../src/ecosystems/go/go-mod.js";
import { addedFilePatch, buildPr, detectContext, headFiles } from "../detectors/pr-builder.js";

const PACKAGE_JSON = JSON.stringify(
  { name: "app", dependencies: { lodash: "4.17.20", "left-pad": "^1.3.0" } },
  null,
  2,
);
const PACKAGE_LOCK = JSON.stringify(
  {
    name: "app",
    lockfileVersion: 3,
    packages: {
      "": { name: "app", dependencies: { lodash: "4.17.20", "left-pad": "^1.3.0" } },
      "node_modules/lodash": { version: "4.17.20" },
      "node_modules/left-pad": { version: "1.3.0" },
    },
  },
  null,
  2,
);
const GO_MOD = "module example.com/app\n\ngo 1.22\n\nrequire github.com/pkg/errors v0.9.1\n";

/** An advisory source that knows no advisories and keeps what it was asked (SEC-07 then reads the change). */
function quietAdvisories(asked: AdvisoryQuery[]): AdvisorySource {
  return {
    lookup: async (queries) => {
      asked.push(...queries);
      return queries.map(() => ({ status: "found" as const, advisories: [] }));
    },
  };
}

/** Runs the licence checks and SEC-07 over one pull request with the same context, as the detect node does. */
async function bothChecks(files: Record<string, string>, reading?: DependencyReading): Promise<AdvisoryQuery[]> {
  const pr = buildPr({
    files: Object.entries(files).map(([filename, text]) => ({
      filename,
      status: "added" as const,
      patch: addedFilePatch(text.split("\n")),
    })),
  });
  const asked: AdvisoryQuery[] = [];
  const ctx = {
    ...detectContext(pr, { head: headFiles(files) }),
    advisories: quietAdvisories(asked),
    ...(reading ? { dependencies: reading } : {}),
  };
  await dependencyLicensesDetector.detect(ctx);
  await vulnerableDependenciesDetector.detect(ctx);
  return asked;
}

describe("one reading of a review's dependency files", () => {
  it("a PR changing package.json and package-lock.json parses each once, and SEC-07 still asks about the locked versions", async () => {
    const reading = new DependencyReading();
    // JSON.parse itself counted too (the licence checks read the lockfile for pinned versions, SEC-07 for its changes).
    const parse = vi.spyOn(JSON, "parse");
    const asked = await bothChecks(
      { "package.json": PACKAGE_JSON, "package-lock.json": PACKAGE_LOCK },
      reading,
    ).finally(() => undefined);
    const lockParses = parse.mock.calls.filter(([text]) => text === PACKAGE_LOCK).length;
    parse.mockRestore();
    expect(Object.fromEntries(reading.parses)).toEqual({ "package.json": 1, "package-lock.json": 1 });
    expect(lockParses).toBe(1);
    expect(asked.map((q) => `${q.name}@${q.version}`).sort()).toEqual(["left-pad@1.3.0", "lodash@4.17.20"]);
  });

  it("a manifest both checks read (package.json with no lockfile, go.mod) is parsed once, not once per check", async () => {
    const reading = new DependencyReading();
    const asked = await bothChecks({ "package.json": PACKAGE_JSON, "go.mod": GO_MOD }, reading);
    expect(Object.fromEntries(reading.parses)).toEqual({ "package.json": 1, "go.mod": 1 });
    // SEC-07 judged them from the licence check's reading: a range by its lowest version.
    expect(asked.map((q) => `${q.name}@${q.version}`).sort()).toEqual([
      "github.com/pkg/errors@v0.9.1",
      "left-pad@1.3.0",
      "lodash@4.17.20",
    ]);
  });

  it("two readings (each check reading for itself) parse the shared manifests twice: the count can tell", async () => {
    const licence = new DependencyReading();
    const pr = buildPr({
      files: [{ filename: "go.mod", status: "added", patch: addedFilePatch(GO_MOD.split("\n")) }],
    });
    const base = { ...detectContext(pr, { head: headFiles({ "go.mod": GO_MOD }) }), advisories: quietAdvisories([]) };
    await dependencyLicensesDetector.detect({ ...base, dependencies: licence });
    const security = new DependencyReading();
    await vulnerableDependenciesDetector.detect({ ...base, dependencies: security });
    expect(licence.parses.get("go.mod")).toBe(1);
    expect(security.parses.get("go.mod")).toBe(1);
  });

  it("a file whose diff or head text differs is read anew, not served from the memo", () => {
    const reading = new DependencyReading();
    const pr = buildPr({ files: [{ filename: "go.mod", status: "added", patch: addedFilePatch(GO_MOD.split("\n")) }] });
    const file = pr.files[0] as (typeof pr.files)[number];
    const first = reading.changes(goModParser, file, GO_MOD);
    expect(reading.changes(goModParser, file, GO_MOD)).toBe(first);
    const other = GO_MOD.replace("v0.9.1", "v0.9.2");
    expect(reading.changes(goModParser, file, other)).not.toBe(first);
    expect(reading.parses.get("go.mod")).toBe(2);
  });
});
