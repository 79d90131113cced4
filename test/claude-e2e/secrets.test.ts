import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { textMessage, toolUseMessage } from "../fakes/anthropic-api.js";
import { CONFIG_SECRET_CASES, formsOf } from "../detectors/security/config-secret-cases.js";
import { reviewFixture, tempDir } from "../helpers/gate.js";
import { fixturePatches, modelGate, requestsOf, routeByCaller, useFakeAnthropic } from "./helpers.js";

/** The credentials a fixture's added lines carry, read from its files.json. */
function secretsOf(fixture: string): string[] {
  const added = fixturePatches(fixture)
    .split("\n")
    .filter((l) => l.startsWith("+"))
    .join("\n");
  const patterns = [/AKIA[0-9A-Z]{16}/g, /secret_access_key:\s*(\S+)/g, /ghp_[A-Za-z0-9]{20,}/g];
  return patterns.flatMap((re) => [...added.matchAll(re)].map((m) => m[1] ?? m[0]));
}

const fake = useFakeAnthropic();
const gates = fake.gates;

describe("what reaches the Messages API", () => {
  it("the secret strings of fixtures 004 and 005 never appear in any request body, though their files are reviewed", async () => {
    const secrets = [...secretsOf("004_hardcoded_aws_key"), ...secretsOf("005_readme_typo_with_secret")];
    // The fixtures' three credentials: an AWS key id, its secret key, a GitHub token.
    expect(secrets).toHaveLength(3);
    expect(secrets.every((s) => s.length >= 20)).toBe(true);

    routeByCaller(fake.api, {});
    const gate = await modelGate(fake.api);
    gates.push(gate);
    const r4 = await reviewFixture(gate, "004_hardcoded_aws_key");
    const r5 = await reviewFixture(gate, "005_readme_typo_with_secret");

    expect(r4.budget.model_calls + r5.budget.model_calls).toBe(fake.api.requests.length);
    expect(fake.api.requests.length).toBeGreaterThanOrEqual(2);
    const all = fake.api.requests.map((q) => q.raw).join("\n");
    for (const secret of secrets) expect(all).not.toContain(secret);
    // The files were still sent, with markers where the credentials were.
    expect(all).toContain("config/storage.production.yml");
    expect(all).toContain("README.md");
    expect(all).toContain("[REDACTED:");
    // Neither do the results carry them.
    const printed = JSON.stringify([r4, r5]);
    for (const secret of secrets) expect(printed).not.toContain(secret);
  });
});

describe("what reaches the Messages API from configuration files", () => {
  it("no credential of the configuration cases (connection strings, Secrets, Terraform defaults...) is in any request body", async () => {
    routeByCaller(fake.api, {});
    const gate = await modelGate(fake.api);
    gates.push(gate);
    for (const c of CONFIG_SECRET_CASES) await reviewFixture(gate, c.fixture, path.join(BUNDLED_FIXTURES_DIR, "eval"));
    expect(fake.api.requests.length).toBeGreaterThanOrEqual(CONFIG_SECRET_CASES.length);
    const all = fake.api.requests.map((q) => q.raw).join("\n");
    for (const c of CONFIG_SECRET_CASES) {
      // The file was sent, with its credential masked.
      expect(all, c.fixture).toContain(c.file);
      for (const form of formsOf(c)) expect(all, c.fixture).not.toContain(form);
    }
  });
});

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
/** A well-formed HS256 JWT (header, claims, 32-byte signature). */
const JWT = `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub: "svc-deploy", iat: 1764460800 })}.${randomBytes(32).toString("base64url")}`;
/** Low-entropy passwords: no entropy test would flag them. */
const ENV_PASSWORD = "hunter2x";
const CODE_PASSWORD = "changeme1";
const DB_PASSWORD = "tiger77";
/** A Kubernetes Secret's base64 data under a key that names nothing ("Jx8vN3qR7tL2wK9m"). */
const SECRET_DATA = Buffer.from("Jx8vN3qR7tL2wK9m").toString("base64");

/**
 * Fixture 003 (an auth refactor that sends the investigator to read the code) with secrets in the
 * title, the body and the head snapshot the investigator's tools read, and, with `inDiff`, in the
 * diff too (a credential in the diff is a blocking SEC-01, so the review then goes to a person
 * without an investigation).
 */
function fixtureWithSecrets(opts: { inDiff: boolean }): { fixturesDir: string; name: string } {
  const fixturesDir = tempDir("gate-secrets-");
  const name = "003_auth_change_with_secrets";
  const dir = path.join(fixturesDir, name);
  fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, "003_auth_change"), dir, { recursive: true });
  const pr = JSON.parse(fs.readFileSync(path.join(dir, "pr.json"), "utf8")) as Record<string, unknown>;
  pr.title = `Extract validateSession (tested with ${JWT})`;
  pr.body = `${String(pr.body)}\n\nTo try it locally put this in .env:\n\n    PASSWORD=${ENV_PASSWORD}\n    SESSION=${JWT}\n`;
  fs.writeFileSync(path.join(dir, "pr.json"), JSON.stringify(pr));
  const files = JSON.parse(fs.readFileSync(path.join(dir, "files.json"), "utf8")) as Array<Record<string, unknown>>;
  if (opts.inDiff)
    files.push(
      {
        filename: "src/auth/dev-login.ts",
        status: "added",
        additions: 2,
        deletions: 0,
        changes: 2,
        patch: `@@ -0,0 +1,2 @@\n+const password = "${CODE_PASSWORD}";\n+export const devToken = "${JWT}";`,
      },
      {
        filename: ".env.development",
        status: "added",
        additions: 2,
        deletions: 0,
        changes: 2,
        patch: `@@ -0,0 +1,2 @@\n+DB_PASSWORD=${DB_PASSWORD}\n+DATABASE_URL=postgres://app:${DB_PASSWORD}@localhost/app`,
      },
    );
  fs.writeFileSync(path.join(dir, "files.json"), JSON.stringify(files));
  fs.writeFileSync(
    path.join(dir, "repo", ".env.development"),
    `DB_PASSWORD=${DB_PASSWORD}\nPASSWORD=${ENV_PASSWORD}\nSESSION_JWT=${JWT}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "repo", "src", "auth", "dev-login.ts"),
    `const password = "${CODE_PASSWORD}";\nexport const devToken = "${JWT}";\n`,
  );
  // A Secret whose data's key names no secret: only reading the file as a Secret masks it.
  fs.mkdirSync(path.join(dir, "repo", "deploy"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "repo", "deploy", "db-secret.yaml"),
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  upstream: ${SECRET_DATA}\n`,
  );
  return { fixturesDir, name };
}

/** Every request body the fake received, as sent. */
const allSent = () => fake.api.requests.map((q) => q.raw).join("\n");

function expectNoSecret(sent: string): void {
  for (const secret of [JWT, ENV_PASSWORD, CODE_PASSWORD, DB_PASSWORD, JWT.split(".")[2] ?? JWT])
    expect(sent).not.toContain(secret);
}

describe("low-entropy secrets, JWTs and .env files", () => {
  it("never reach the Messages API from the title, the body or the diff", async () => {
    const { fixturesDir, name } = fixtureWithSecrets({ inDiff: true });
    try {
      routeByCaller(fake.api, {});
      const gate = await modelGate(fake.api);
      gates.push(gate);
      const result = await reviewFixture(gate, name, fixturesDir);
      expect(fake.api.requests.length).toBeGreaterThanOrEqual(1);
      expect(result.budget.model_calls).toBe(fake.api.requests.length);
      const sent = allSent();
      expectNoSecret(sent);
      // What was around them still went: the title, the body and the files, with markers.
      expect(sent).toContain("Extract validateSession (tested with [REDACTED:jwt])");
      expect(sent).toMatch(/PASSWORD=\[REDACTED:(secret|env)-assignment\]/);
      expect(sent).toContain("src/auth/dev-login.ts");
      expect(sent).toContain('const password = \\"[REDACTED:secret-assignment]\\"');
      expect(sent).toContain("DB_PASSWORD=[REDACTED:");
    } finally {
      fs.rmSync(fixturesDir, { recursive: true, force: true });
    }
  });

  it("never reach it from the investigator's tool results, nor from its first turn", async () => {
    const { fixturesDir, name } = fixtureWithSecrets({ inDiff: false });
    try {
      routeByCaller(fake.api, {
        investigator: [
          toolUseMessage([
            { id: "toolu_env", name: "read_file", input: { path: ".env.development" } },
            { id: "toolu_grep", name: "grep_repo", input: { pattern: "/password|jwt|token/i" } },
            { id: "toolu_code", name: "read_file", input: { path: "src/auth/dev-login.ts" } },
            { id: "toolu_k8s", name: "read_file", input: { path: "deploy/db-secret.yaml" } },
          ]),
          textMessage({ answers: ["Nothing else reads the session."], evidence: [], concerns: [], conclusive: true }),
        ],
      });
      const gate = await modelGate(fake.api);
      gates.push(gate);
      const result = await reviewFixture(gate, name, fixturesDir);

      // The investigator ran its three tools and their results went back to the model.
      const investigator = requestsOf(fake.api, "investigator");
      expect(investigator.length).toBeGreaterThanOrEqual(2);
      const toolResults = JSON.stringify(investigator[1]?.body?.messages.at(-1)?.content);
      for (const id of ["toolu_env", "toolu_grep", "toolu_code", "toolu_k8s"]) expect(toolResults).toContain(id);
      expect(toolResults).toContain("upstream: [REDACTED:config:yaml:kubernetes-secret]");
      expect(allSent()).not.toContain(SECRET_DATA);
      expect(toolResults).toMatch(/DB_PASSWORD=\[REDACTED:(secret|env)-assignment\]/);
      expect(toolResults).toMatch(/\bPASSWORD=\[REDACTED:(secret|env)-assignment\]/);
      expect(toolResults).toContain("SESSION_JWT=[REDACTED:");
      expect(toolResults).toContain('const password = \\"[REDACTED:secret-assignment]\\"');
      expect(toolResults).toContain(".env.development:1:DB_PASSWORD=[REDACTED:");
      expect(result.budget.model_calls).toBe(fake.api.requests.length);
      expectNoSecret(allSent());
    } finally {
      fs.rmSync(fixturesDir, { recursive: true, force: true });
    }
  });
});
