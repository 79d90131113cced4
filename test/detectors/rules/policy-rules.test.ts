import { describe, expect, it } from "vitest";
import { policyRuleDetectors } from "../../../src/detectors/policy-rules.js";
import { GateError } from "../../../src/domain/errors.js";
import { parsePolicyFile } from "../../../src/policy/load-policies.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";
import { ACME_01 } from "./rule-policies.js";

const acme = () => parsePolicyFile("policies/ACME-01.md", ACME_01);

async function findings(files: { filename: string; patch: string }[]) {
  const [detector] = policyRuleDetectors([acme()]);
  if (!detector) throw new Error("no detector built");
  return detector.detect(detectContext(buildPr({ files })));
}

describe("a policy's own ast-grep rules", () => {
  it("raise the policy on the added call, with the metavariables in the message, in TypeScript and Python", async () => {
    const found = await findings([
      {
        filename: "src/auth/session.ts",
        patch: addedFilePatch([
          "import { legacyAuth } from './legacy';",
          "",
          "export const ok = legacyAuth(req, { strict: false });",
        ]),
      },
      {
        filename: "app/views.py",
        patch: addedFilePatch([
          "from legacy import legacy_auth",
          "def view(request):",
          "    return legacy_auth(request)",
        ]),
      },
    ]);
    expect(found.map((f) => [f.policy, f.file, f.line, f.blocking, f.severity, f.specialty])).toEqual([
      ["ACME-01", "src/auth/session.ts", 3, true, "high", "security"],
      ["ACME-01", "app/views.py", 3, true, "high", "security"],
    ]);
    expect(found[0]?.message).toBe(
      "legacyAuth is retired; call verifySession instead of legacyAuth(req, { strict: false }) (rule no-legacy-auth)",
    );
  });

  it("never flags code the PR leaves alone, a mention in a string or comment, ignored files, or other languages", async () => {
    const found = await findings([
      {
        filename: "src/auth/session.ts",
        patch:
          "@@ -1,2 +1,3 @@\n legacyAuth(oldCaller);\n+const note = 'legacyAuth(x) is retired'; // legacyAuth(y)\n context();",
      },
      { filename: "tests/test_views.py", patch: addedFilePatch(["legacy_auth(request)"]) },
      { filename: "app/test_helpers.py", patch: addedFilePatch(["def test_login():", "    legacy_auth(fake)"]) },
      { filename: "cmd/main.go", patch: addedFilePatch(["legacyAuth(req)"]) },
    ]);
    expect(found).toEqual([]);
  });

  it("a rule ast-grep refuses, or in a language the gate does not parse, stops the start naming the file, the rule's line and its id", () => {
    const broken = ACME_01.replace('rule: { pattern: "legacyAuth($$$ARGS)" }', "rule: { kind: no_such_kind }");
    let error: unknown;
    try {
      policyRuleDetectors([parsePolicyFile("policies/ACME-01.md", broken)]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GateError);
    expect((error as GateError).code).toBe("POLICY_INVALID");
    expect((error as Error).message).toMatch(
      /^policies\/ACME-01\.md:9: rule no-legacy-auth of ACME-01: ast-grep refuses it: .*no_such_kind/,
    );
    const cobol = ACME_01.replace("language: Python", "language: COBOL");
    expect(() => policyRuleDetectors([parsePolicyFile("policies/ACME-01.md", cobol)])).toThrow(
      /^policies\/ACME-01\.md:13: rule no-legacy-auth-py of ACME-01: language COBOL is not one the gate parses/,
    );
  });

  it("an unknown key in a rule is refused when the policy file is read, naming the rule's line and id", () => {
    expect(() =>
      parsePolicyFile(
        "policies/ACME-01.md",
        ACME_01.replace("    message: legacy_auth", "    mesage: x\n    message: legacy_auth"),
      ),
    ).toThrow(/ACME-01\.md:13: rule no-legacy-auth-py of ACME-01: field 'rules\.1': .*mesage/);
  });

  it("severity warning is a non-blocking note; off turns the rule off", async () => {
    const warning = parsePolicyFile(
      "p.md",
      ACME_01.replace(
        "    message: legacyAuth is retired",
        "    severity: warning\n    message: legacyAuth is retired",
      ),
    );
    const [detector] = policyRuleDetectors([warning]);
    const [f] =
      (await detector?.detect(
        detectContext(buildPr({ files: [{ filename: "a.ts", patch: addedFilePatch(["legacyAuth(x)"]) }] })),
      )) ?? [];
    expect(f).toMatchObject({ policy: "ACME-01", blocking: false, severity: "medium" });
    const off = parsePolicyFile(
      "p.md",
      ACME_01.replace(
        "    message: legacyAuth is retired",
        "    severity: off\n    message: legacyAuth is retired",
      ).replace("    message: legacy_auth", "    severity: off\n    message: legacy_auth"),
    );
    expect(policyRuleDetectors([off])).toEqual([]);
  });
});
