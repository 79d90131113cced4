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

/** The base commit of `legacyFixture`'s pull request. */
export const LEGACY_BASE_SHA = "a".repeat(40);

/**
 * A fixture (in its own fixtures folder) whose PR adds a TypeScript file that calls legacyAuth
 * (line 4) and a Python one that calls legacy_auth (line 5), outside a test; `extraFiles` are
 * added to the PR's files. Returns the fixture's folder.
 */
export function legacyFixture(extraFiles: unknown[] = []): string {
  const dir = path.join(tempDir("gate-rules-fixture-"), "legacy_auth_call");
  fs.mkdirSync(dir, { recursive: true });
  const pr = {
    number: 41,
    title: "Session check for the admin page",
    body: "",
    html_url: "https://github.com/acme/portal/pull/41",
    user: { login: "dev" },
    base: { ref: "main", sha: LEGACY_BASE_SHA, repo: { full_name: "acme/portal" } },
    head: { ref: "admin-session", sha: "b".repeat(40) },
  };
  const ts = [
    "import { legacyAuth } from './legacy';",
    "",
    "export function admin(req: Request) {",
    "  return legacyAuth(req);",
    "}",
  ];
  const py = ["from app.legacy import legacy_auth", "", "", "def admin(request):", "    return legacy_auth(request)"];
  const added = (filename: string, lines: string[]) => ({
    filename,
    status: "added",
    additions: lines.length,
    deletions: 0,
    changes: lines.length,
    patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join("\n"),
  });
  const files = [added("src/admin/session.ts", ts), added("app/session.py", py), ...extraFiles];
  fs.writeFileSync(path.join(dir, "pr.json"), JSON.stringify(pr));
  fs.writeFileSync(path.join(dir, "files.json"), JSON.stringify(files));
  fs.mkdirSync(path.join(dir, "repo", "src", "admin"), { recursive: true });
  fs.mkdirSync(path.join(dir, "repo", "app"), { recursive: true });
  fs.writeFileSync(path.join(dir, "repo", "src", "admin", "session.ts"), `${ts.join("\n")}\n`);
  fs.writeFileSync(path.join(dir, "repo", "app", "session.py"), `${py.join("\n")}\n`);
  return dir;
}

/** A policy file's text as a PR adds it: one `files.json` entry with its whole patch. */
export function addedFileEntry(filename: string, text: string): Record<string, unknown> {
  const lines = text.trimEnd().split("\n");
  return {
    filename,
    status: "added",
    additions: lines.length,
    deletions: 0,
    changes: lines.length,
    patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join("\n"),
  };
}
