import fs from "node:fs";
import path from "node:path";
import { BUNDLED_POLICIES_DIR } from "../../../src/package-paths.js";
import { tempDir } from "../../helpers/gate.js";

/** A team's policy with its own ast-grep rules: no calls to the retired legacyAuth helper, in TypeScript and Python. */
export const ACME_01 = `---
id: ACME-01
title: No calls to the retired legacyAuth helper
specialty: security
severity: high
blocking: true
version: 1
rules:
  - id: no-legacy-auth
    language: TypeScript
    rule: { pattern: "legacyAuth($$$ARGS)" }
    message: legacyAuth is retired; call verifySession instead of legacyAuth($$$ARGS)
  - id: no-legacy-auth-py
    language: Python
    rule:
      pattern: legacy_auth($$$ARGS)
      not: { inside: { kind: function_definition, has: { field: name, regex: ^test_ } , stopBy: end } }
    message: legacy_auth is retired; call verify_session
    ignores: ["tests/**"]
---
# ACME-01: No calls to the retired legacyAuth helper

legacyAuth accepted unsigned session cookies; verifySession replaced it.
`;

/** A policy corpus folder: the bundled policies and the given extra files. */
export function corpusWith(files: Record<string, string>): string {
  const dir = tempDir("gate-policies-");
  for (const name of fs.readdirSync(BUNDLED_POLICIES_DIR)) {
    fs.copyFileSync(path.join(BUNDLED_POLICIES_DIR, name), path.join(dir, name));
  }
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}
