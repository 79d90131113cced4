import path from "node:path";
import { describe, expect, it } from "vitest";
import { redact } from "../../../src/claude/redact.js";
import { credentialsDetector } from "../../../src/detectors/security/credentials.js";
import { loadFixturePullRequest } from "../../../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR } from "../../../src/package-paths.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";
import { CONFIG_LOOKALIKES, CONFIG_SECRET_CASES, formsOf } from "./config-secret-cases.js";

const EVAL = path.join(BUNDLED_FIXTURES_DIR, "eval");

async function findingsOf(fixture: string) {
  return credentialsDetector.detect(detectContext(loadFixturePullRequest(EVAL, fixture)));
}

async function detect(filename: string, lines: string[]) {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  return credentialsDetector.detect(detectContext(pr));
}

describe("SEC-01 in configuration, infrastructure and test files", () => {
  it.each(CONFIG_SECRET_CASES.map((c) => [c.fixture, c] as const))(
    "%s: SEC-01 at its file and line, the value masked",
    async (_name, c) => {
      const findings = await findingsOf(c.fixture);
      expect(findings).toContainEqual(
        expect.objectContaining({ policy: "SEC-01", file: c.file, line: c.line, blocking: true }),
      );
      for (const form of formsOf(c)) expect(JSON.stringify(findings)).not.toContain(form);
    },
  );

  it.each(CONFIG_LOOKALIKES)("%s: a look-alike raises no SEC-01", async (fixture) => {
    expect(await findingsOf(fixture)).toEqual([]);
  });

  it("a finding names the rule that decided it, and whether the line was commented out", async () => {
    const [finding] = await findingsOf("sec01-cfg-yaml-commented-account-key");
    expect(finding?.message).toMatch(/storage\.account_key \(commented out\).*rule config:yaml:secret-key/);
  });

  it("a test resource is no exemption, but an obvious dummy there is no secret", async () => {
    const live = await detect("src/test/resources/application-test.yml", ["broker:", "  token: Qm7xW2e9RtY7uI3oP1aS"]);
    expect(live.map((f) => f.line)).toEqual([2]);
    const dummy = await detect("src/test/resources/application-test.yml", [
      "broker:",
      "  token: dummy",
      "  password: test",
    ]);
    expect(dummy).toEqual([]);
  });

  it("a Kubernetes Secret is read whole from the head snapshot when the patch shows only its data", async () => {
    const head = [
      "apiVersion: v1",
      "kind: Secret",
      "metadata:",
      "  name: db",
      "data:",
      "  dsn: cG9zdGdyZXM6Ly9hcHA6UjdxIXhMMnZAZGI6NTQzMi9hcHA=",
    ];
    const patch = "@@ -5,1 +5,2 @@\n data:\n+  dsn: cG9zdGdyZXM6Ly9hcHA6UjdxIXhMMnZAZGI6NTQzMi9hcHA=";
    const pr = buildPr({ files: [{ filename: "k8s/db.yaml", patch }] });
    const ctx = {
      ...detectContext(pr),
      head: { read: async (p: string) => (p === "k8s/db.yaml" ? head.join("\n") : undefined) },
    };
    const findings = await credentialsDetector.detect(ctx);
    // The value decodes to a URL with a password: found only knowing the document is a Secret.
    expect(findings.map((f) => [f.line, /url-credentials/.test(f.message)])).toEqual([[6, true]]);
  });

  it("the model layer redacts each case's credential from the patch it is sent", async () => {
    for (const c of CONFIG_SECRET_CASES) {
      const file = loadFixturePullRequest(EVAL, c.fixture).files.find((f) => f.filename === c.file);
      const redacted = (await redact(file?.patch ?? "", c.file, { patch: true })).text;
      expect(redacted, c.fixture).toContain("[REDACTED:");
      for (const form of formsOf(c)) expect(redacted, c.fixture).not.toContain(form);
    }
  });
});
