import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { BUNDLED_POLICIES_DIR } from "../../src/package-paths.js";
import { loadPolicies, parsePolicyFile } from "../../src/policy/load-policies.js";
import { tempDir } from "../helpers/gate.js";

const good = `---
id: ACME-01
title: No FTP
specialty: security
severity: high
blocking: true
version: 1
---
# ACME-01 No FTP
Plain FTP sends credentials in clear text.`;

describe("the policy corpus", () => {
  it("ships all thirteen policies of the catalogue with the contract's specialty and blocking flag", () => {
    const policies = loadPolicies(BUNDLED_POLICIES_DIR);
    const table = Object.fromEntries(policies.map((p) => [p.id, `${p.specialty}:${p.blocking}`]));
    expect(table).toEqual({
      "SEC-01": "security:true",
      "SEC-02": "security:true",
      "SEC-03": "security:true",
      "SEC-04": "security:true",
      "SEC-05": "security:false",
      "SEC-06": "security:true",
      "SEC-07": "security:true",
      "LIC-01": "licensing:false",
      "LIC-02": "licensing:true",
      "LIC-03": "licensing:true",
      "DATA-01": "data:true",
      "DATA-02": "data:false",
      "DATA-03": "data:true",
    });
    for (const p of policies) expect(p.text.length).toBeGreaterThan(200);
  });

  it("reads a team's own corpus", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "ACME-01.md"), good);
    const [p] = loadPolicies(dir);
    expect(p).toMatchObject({ id: "ACME-01", specialty: "security", blocking: true, paths: [], triggers: [] });
  });

  it.each([
    ["no front matter", "# just prose", /no YAML front matter/],
    ["a bad field", good.replace("severity: high", "severity: scary"), /field 'severity'/],
    ["a missing field", good.replace("blocking: true\n", ""), /field 'blocking'/],
    ["an unknown field", good.replace("version: 1", "version: 1\nowner: bob"), /front matter|owner/],
    ["a bad id", good.replace("id: ACME-01", "id: acme"), /field 'id'/],
    ["no prose", good.split("# ACME")[0] ?? "", /no prose/],
    ["broken YAML", good.replace("title: No FTP", "title: [unclosed"), /not YAML/],
  ])("refuses %s, naming the file and the field", (_name, text, pattern) => {
    const error = (() => {
      try {
        parsePolicyFile("/corpus/ACME-01.md", text);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(GateError);
    expect((error as GateError).code).toBe("POLICY_INVALID");
    expect((error as Error).message).toMatch(/^\/corpus\/ACME-01\.md: /);
    expect((error as Error).message).toMatch(pattern);
  });

  it("refuses a duplicate id and an empty directory", () => {
    const dir = tempDir();
    expect(() => loadPolicies(dir)).toThrow(/no policy files/);
    fs.writeFileSync(path.join(dir, "a.md"), good);
    fs.writeFileSync(path.join(dir, "b.md"), good);
    expect(() => loadPolicies(dir)).toThrow(/ACME-01 is also used by/);
  });

  it("names a file it would not read (X.MD, a sub-folder) and stops; a symbolic link in the operator's folder is followed", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "ACME-01.md"), good);
    fs.writeFileSync(path.join(dir, "target.txt"), good.replaceAll("ACME-01", "ACME-02"));
    fs.symlinkSync(path.join(dir, "target.txt"), path.join(dir, "ACME-02.md"));
    expect(loadPolicies(dir).map((p) => p.id)).toEqual(["ACME-01", "ACME-02"]);
    fs.writeFileSync(path.join(dir, "ACME-03.MD"), good.replaceAll("ACME-01", "ACME-03"));
    expect(() => loadPolicies(dir)).toThrow(
      `${path.join(dir, "ACME-03.MD")} is not read: a policy file's extension is .md`,
    );
    fs.rmSync(path.join(dir, "ACME-03.MD"));
    fs.mkdirSync(path.join(dir, "team"));
    expect(() => loadPolicies(dir)).toThrow(`${path.join(dir, "team")} is a sub-folder`);
  });
});
