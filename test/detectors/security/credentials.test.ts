import { describe, expect, it } from "vitest";
import { credentialsDetector, findSecrets, joinLiterals } from "../../../src/detectors/security/credentials.js";
import { maskSecret } from "../../../src/detectors/security/mask-secret.js";
import { withFingerprints } from "../../../src/domain/fingerprint.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

// Fake credentials in real formats (never valid anywhere).
const AWS_ID = "AKIAFAKEFIXTURE00001";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEKEY001";
const GITHUB_TOKEN = "ghp_FAKE0fixture0token0for0tests00000001";
const SLACK_TOKEN = "xoxb-1234567890-1234567890123-FAKEfakeFAKEfake1234abcd";

async function detect(filename: string, lines: string[]) {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  return credentialsDetector.detect(detectContext(pr));
}

describe("findSecrets", () => {
  it("returns the exact AWS key pair substrings with 1-based lines", async () => {
    const text = `region: eu-west-1\naccess_key_id: ${AWS_ID}\naws_secret_access_key: "${AWS_SECRET}"\n`;
    const secrets = await findSecrets(text);
    expect(secrets.map((s) => [s.value, s.line])).toEqual([
      [AWS_ID, 2],
      [AWS_SECRET, 3],
    ]);
    expect(secrets[0]?.rule).toBe("aws:AWSAccessKeyID");
  });

  it("finds GitHub and Slack tokens and a private key block", async () => {
    const key =
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\naNg5Zc0VnM4rTPn0xuRGcDZp8ZkYZBWZ8c/HPFzR3KqHCGAKDbUdr+5pCY8hZt6k\n-----END RSA PRIVATE KEY-----";
    const secrets = await findSecrets(`token ${GITHUB_TOKEN}\nslack ${SLACK_TOKEN}\n${key}`);
    const values = secrets.map((s) => s.value);
    expect(values).toContain(GITHUB_TOKEN);
    expect(values).toContain(SLACK_TOKEN);
    expect(values).toContain(key);
  });

  it("finds high-entropy literals assigned to secret-like names", async () => {
    const secrets = await findSecrets(
      'const dbPassword = "p9X!vR2#qL7mZ";\nJWT_SECRET=Zk93hQ0pLmX2vB7nR4tY\napi_key: "sk-4f9a8b7c6d5e4f3a2b1c"',
    );
    expect(secrets.map((s) => s.value)).toEqual(["p9X!vR2#qL7mZ", "Zk93hQ0pLmX2vB7nR4tY", "sk-4f9a8b7c6d5e4f3a2b1c"]);
    // A `KEY=value` line is an assignment a command or an env file makes; the others are code's.
    expect(secrets.map((s) => s.rule)).toEqual(["secret-assignment", "env-assignment", "secret-assignment"]);
  });

  it("skips placeholders, environment reads and non-secret names", async () => {
    const text = [
      'password = "changeme"',
      "password: ${DB_PASSWORD}",
      "const token = process.env.API_TOKEN;",
      'api_key = "<your-api-key>"',
      'secret: "xxxxxxxxxxxx"',
      'const tokenUrl = "https://auth.example.com/oauth/t0ken"',
      'if (token === "abc123XYZ!") return;',
      'const passwordLabel = "Enter password";',
      'SECRET_KEY = "your_secret_key_1234"',
    ].join("\n");
    expect(await findSecrets(text)).toEqual([]);
  });

  it("ignores the AWS documentation example key and empty or binary text", async () => {
    expect(await findSecrets("aws_access_key_id = AKIAIOSFODNN7EXAMPLE")).toEqual([]);
    expect(await findSecrets("")).toEqual([]);
    expect(await findSecrets("\u0000\u0001ghp_FAKE0fixture0token0for0tests00000001")).toEqual([]);
  });
});

describe("credentialsDetector", () => {
  it("raises one critical blocking SEC-01 finding per secret, on the head line, value masked", async () => {
    const findings = await detect("config/aws.yml", ["aws:", `  access_key_id: ${AWS_ID}`]);
    expect(findings).toHaveLength(1);
    const f = findings[0];
    expect(f).toMatchObject({
      policy: "SEC-01",
      specialty: "security",
      severity: "critical",
      blocking: true,
      source: "detector",
      detector: "credentials",
      file: "config/aws.yml",
      line: 2,
    });
    expect(f?.message).toContain(`${maskSecret(AWS_ID)} masked`);
    expect(f?.message).not.toContain(AWS_ID);
  });

  it("numbers lines in the head file and ignores removed lines", async () => {
    const patch = [
      "@@ -10,3 +10,3 @@ Usage",
      " Some text.",
      `-Old: ${SLACK_TOKEN}`,
      "+Run `make` to build.",
      ` Trailing text with ${GITHUB_TOKEN.slice(0, 10)}`,
      "@@ -40,2 +40,3 @@",
      " More",
      `+Example token: ${GITHUB_TOKEN}`,
      " End",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: "README.md", patch }] });
    const findings = await credentialsDetector.detect(detectContext(pr));
    expect(findings.map((f) => [f.file, f.line])).toEqual([["README.md", 41]]);
    expect(findings[0]?.message).not.toContain(GITHUB_TOKEN);
  });

  it("is not silenced by a secretlint-disable comment in the change", async () => {
    const findings = await detect("src/slack.ts", ["// secretlint-disable", `const token = "${SLACK_TOKEN}";`]);
    expect(findings.map((f) => f.line)).toEqual([2]);
  });

  it("returns nothing for clean code, missing patches, removed files and an empty PR", async () => {
    expect(await detect("src/sum.ts", ["export const sum = (a: number, b: number) => a + b;"])).toEqual([]);
    const pr = buildPr({
      files: [
        { filename: "logo.png", status: "added" },
        { filename: "old.env", status: "removed", patch: `@@ -1 +0,0 @@\n-TOKEN=${GITHUB_TOKEN}` },
      ],
    });
    expect(await credentialsDetector.detect(detectContext(pr))).toEqual([]);
    expect(await credentialsDetector.detect(detectContext(buildPr()))).toEqual([]);
  });
});

describe("SEC-01 fingerprints hold the key material", () => {
  const pem = (body: string) => [
    "-----BEGIN RSA PRIVATE KEY-----",
    body,
    "aNg5Zc0VnM4rTPn0xuRGcDZp8ZkYZBWZ8c/HPFzR3KqHCGAKDbUdr+5pCY8hZt6k",
    "-----END RSA PRIVATE KEY-----",
  ];
  const KEY_A = "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB";
  const KEY_B = "MIIEpAIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun";

  async function fingerprintsOf(lines: string[], filename = "deploy/key.pem") {
    const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
    return withFingerprints(await credentialsDetector.detect(detectContext(pr)), pr.files).map((f) => f.fingerprint);
  }

  it("a different key is a different finding, though its BEGIN line is the same; the same key moved down is not", async () => {
    const a = await fingerprintsOf(pem(KEY_A));
    expect(a).toHaveLength(1);
    expect(await fingerprintsOf(pem(KEY_B))).not.toEqual(a);
    expect(await fingerprintsOf(["# the deploy key", "", ...pem(KEY_A)])).toEqual(a);
  });

  it("a password changed in a configuration file makes a new fingerprint", async () => {
    const first = await fingerprintsOf(["[client]", "password = B4ck!Up9Qz"], "my.cnf");
    expect(first).toHaveLength(1);
    expect(await fingerprintsOf(["[client]", "password = Zz8!Up9Qk"], "my.cnf")).not.toEqual(first);
  });
});

describe("string literals joined by +", () => {
  it("a credential split over joined literals is read whole, and found in the line as written", async () => {
    expect(joinLiterals('dsn := "root_use" + ":Abc123456#" + "@tcp(localhost:3306)/"')).toBe(
      'dsn := "root_use:Abc123456#@tcp(localhost:3306)/"',
    );
    const found = await findSecrets('\tdsn := "root_use" + ":Abc123456#" + "@tcp(localhost:3306)/"', "storage/db.go");
    expect(found.map((s) => [s.line, s.value])).toEqual([[1, "Abc123456#"]]);
    expect(joinLiterals("const total = a + b;")).toBe("const total = a + b;");
  });
});
