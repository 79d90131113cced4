import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/domain/finding.js";
import type { Policy } from "../../src/domain/policy.js";
import { retrievePolicies } from "../../src/policy/retrieve.js";
import { policy as basePolicy } from "../claude/builders.js";
import { addedFilePatch, buildPr } from "../detectors/pr-builder.js";

/** A policy of `specialty` (data unless named) with these triggers and path globs. */
function policy(id: string, triggers: string[], paths: string[] = [], specialty: Policy["specialty"] = "data"): Policy {
  return basePolicy(id, specialty, { triggers, paths });
}

function prAdding(lines: string[], filename = "src/a.ts") {
  return buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
}

describe("retrievePolicies", async () => {
  it("takes a policy whose trigger appears in an added line, in any case, and leaves the others", async () => {
    const policies = [policy("DATA-01", ["Email"]), policy("DATA-02", ["ADD COLUMN"]), policy("DATA-03", ["track"])];
    const pr = prAdding(["const userEMAIL = x;", "alter table t add column y int"]);
    expect(await retrievePolicies(policies, pr, [], "data")).toEqual(["DATA-01", "DATA-02"]);
  });

  it("finds a trigger inside, or at the start of, a longer trigger's match, and one overlapping it", async () => {
    // "phone_number" starts where "phone" does; "ssn" starts inside "address"'s match.
    const policies = [policy("DATA-01", ["phone"]), policy("DATA-02", ["ssn"]), policy("DATA-03", ["number"])];
    const pr = prAdding(["phone_number addressn"]);
    const withLonger = [...policies, policy("DATA-04", ["phone_number", "address"])];
    expect(await retrievePolicies(withLonger, pr, [], "data")).toEqual(["DATA-01", "DATA-02", "DATA-03", "DATA-04"]);
  });

  it("never matches across two lines, nor on removed lines", async () => {
    const policies = [policy("DATA-01", ["req.body"]), policy("DATA-02", ["token"])];
    const pr = buildPr({ files: [{ filename: "a.ts", patch: "@@ -1,2 +1,2 @@\n-token\n+req.\n+body" }] });
    expect(await retrievePolicies(policies, pr, [], "data")).toEqual([]);
  });

  it("keeps cited policies of its specialty, and path-limited ones only when a path matches", async () => {
    const policies = [
      policy("DATA-01", ["never-there"]),
      policy("LIC-01", [], ["**/package.json"], "licensing"),
      policy("LIC-02", ["left-pad"], ["**/package.json"], "licensing"),
    ];
    const cited = [
      { specialty: "data", policy: "DATA-01" } as Finding,
      { specialty: "data", policy: "LIC-02" } as Finding,
    ];
    const pr = prAdding(['"left-pad": "1.0.0"'], "web/package.json");
    expect(await retrievePolicies(policies, pr, cited, "data")).toEqual(["DATA-01"]);
    expect(await retrievePolicies(policies, pr, [], "licensing")).toEqual(["LIC-01", "LIC-02"]);
    expect(await retrievePolicies(policies, prAdding(['"left-pad": "1.0.0"']), [], "licensing")).toEqual([]);
  });

  it("answers the same when asked again for the same PR (each trigger is read once)", async () => {
    const policies = [policy("DATA-01", ["email"]), policy("DATA-02", ["phone"])];
    const pr = prAdding(["email"]);
    expect(await retrievePolicies(policies, pr, [], "data")).toEqual(["DATA-01"]);
    expect(await retrievePolicies(policies, pr, [], "data")).toEqual(["DATA-01"]);
    expect(await retrievePolicies([policy("DATA-03", ["mail"])], pr, [], "data")).toEqual(["DATA-03"]);
  });

  it("reads a PR of many lines a slice at a time and still finds a trigger in its last line, or in a later file", async () => {
    const lines = Array.from({ length: 4_999 }, (_, i) => `const v${i} = ${i};`);
    const policies = [policy("DATA-01", ["ssn"]), policy("DATA-02", ["v0 "]), policy("DATA-03", ["never-there"])];
    const pr = buildPr({
      files: [
        { filename: "src/a.ts", patch: addedFilePatch(lines) },
        { filename: "src/b.ts", patch: addedFilePatch(["const SSN = 1;"]) },
      ],
    });
    // Two asking at once get the same answer.
    const [data, again] = await Promise.all([
      retrievePolicies(policies, pr, [], "data"),
      retrievePolicies(policies, pr, [], "data"),
    ]);
    expect(data).toEqual(["DATA-01", "DATA-02"]);
    expect(again).toEqual(data);
  });

  it("matches the path globs of a PR of many files a slice at a time: a match in its last file counts, each specialty asking", async () => {
    const files = Array.from({ length: 1_203 }, (_, i) => ({ filename: `src/f${i}.ts`, patch: addedFilePatch(["x"]) }));
    const pr = buildPr({ files: [...files, { filename: "deploy/Dockerfile", patch: addedFilePatch(["FROM node"]) }] });
    const policies = [
      policy("SEC-01", [], ["**/Dockerfile"], "security"),
      policy("DATA-01", [], ["**/Dockerfile"]),
      policy("DATA-02", [], ["**/*.sql"]),
      policy("LIC-01", [], ["**/*.sql", "**/package.json"], "licensing"),
    ];
    const [security, data, licensing] = await Promise.all([
      retrievePolicies(policies, pr, [], "security"),
      retrievePolicies(policies, pr, [], "data"),
      retrievePolicies(policies, pr, [], "licensing"),
    ]);
    expect(security).toEqual(["SEC-01"]);
    expect(data).toEqual(["DATA-01"]);
    expect(licensing).toEqual([]);
    // Globs first asked later are matched against the same files.
    expect(await retrievePolicies([policy("DATA-03", [], ["src/f1202.ts"])], pr, [], "data")).toEqual(["DATA-03"]);
  });
});
