import { describe, expect, it } from "vitest";
import { repositoryPolicies } from "../../../src/detectors/repo-policies.js";
import { BUNDLED_POLICIES_DIR } from "../../../src/package-paths.js";
import { loadPolicies } from "../../../src/policy/load-policies.js";
import { ACME_01 } from "./rule-policies.js";

const server = loadPolicies(BUNDLED_POLICIES_DIR);
const at = (name: string) => `acme/web:.github/gate/policies/${name}@0123456789ab`;

describe("a repository's own policies", () => {
  it("are read and kept when every file parses and every id is new", () => {
    const own = repositoryPolicies([{ source: at("ACME-01.md"), text: ACME_01 }], server);
    expect(own.problem).toBeUndefined();
    expect(own.policies.map((p) => [p.id, p.source])).toEqual([["ACME-01", at("ACME-01.md")]]);
  });

  it("none is used when one is refused: a rule's field names its line and id; two files with one id name both", () => {
    const missingMessage = ACME_01.replace("    message: legacy_auth is retired; call verify_session\n", "");
    const broken = repositoryPolicies(
      [
        { source: at("ACME-01.md"), text: missingMessage },
        { source: at("ACME-02.md"), text: ACME_01.replace("id: ACME-01", "id: ACME-02") },
      ],
      server,
    );
    expect(broken.policies).toEqual([]);
    expect(broken.problem).toContain(
      `${at("ACME-01.md")}:13: rule no-legacy-auth-py of ACME-01: field 'rules.1.message'`,
    );
    expect(broken.problem).toMatch(/a person decides$/);

    const twice = repositoryPolicies(
      [
        { source: at("a.md"), text: ACME_01 },
        { source: at("b.md"), text: ACME_01 },
      ],
      server,
    );
    expect(twice.policies).toEqual([]);
    expect(twice.problem).toContain(`${at("b.md")}: policy id ACME-01 is already ${at("a.md")}`);
  });
});
