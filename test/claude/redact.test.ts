import { describe, expect, it } from "vitest";
import { redact, redactAll } from "../../src/claude/redact.js";
import { AWS_KEY_ID, GITHUB_TOKEN } from "./builders.js";

describe("redact", () => {
  it("masks an AWS key id and a GitHub token everywhere they occur, naming the rule", async () => {
    const text = `aws = "${AWS_KEY_ID}"\ngh = "${GITHUB_TOKEN}"\n// again: ${AWS_KEY_ID}`;
    const out = await redact(text);
    expect(out.text).not.toContain(AWS_KEY_ID);
    expect(out.text).not.toContain(GITHUB_TOKEN);
    expect(out.count).toBe(3);
    expect(out.text).toMatch(/aws = "\[REDACTED:[^\]]+\]"/);
  });

  it("masks a PEM private key block inside a diff, and one with no END line", async () => {
    const body = "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi";
    const diff = `@@ -0,0 +1,3 @@\n+-----BEGIN RSA PRIVATE KEY-----\n+${body}\n+-----END RSA PRIVATE KEY-----\n+const after = 1;`;
    const out = await redact(diff);
    expect(out.text).not.toContain(body);
    expect(out.text).toContain("const after = 1;");
    const open = await redact(`+-----BEGIN PRIVATE KEY-----\n+${body}`);
    expect(open.text).not.toContain(body);
  });

  it("masks Slack and Stripe keys", async () => {
    const slack = "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
    const stripe = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc";
    const out = await redact(`SLACK=${slack}\nSTRIPE=${stripe}`);
    expect(out.text).not.toContain(slack);
    expect(out.text).not.toContain(stripe);
    expect(out.count).toBe(2);
  });

  it("masks a high-entropy secret assignment the detector reports", async () => {
    const value = "p9Xq2Lm7Rt4Vz8Kw3Nb6Hs1Jd5Fg0Ya";
    const out = await redact(`const dbPassword = "${value}";`);
    expect(out.text).not.toContain(value);
    expect(out.count).toBeGreaterThanOrEqual(1);
  });

  it("leaves text without secrets alone", async () => {
    const text = "export function add(a: number, b: number) { return a + b; }";
    expect(await redact(text)).toEqual({ text, count: 0 });
  });

  it("redacts several texts and sums the counts", async () => {
    const out = await redactAll([`t ${AWS_KEY_ID}`, "clean", `b ${GITHUB_TOKEN}`]);
    expect(out.count).toBe(2);
    expect(out.texts[1]).toBe("clean");
    expect(out.texts.join()).not.toContain(AWS_KEY_ID);
  });

  it.each([
    ["a .env password", "PASSWORD=hunter2", "PASSWORD=[REDACTED:env-assignment]"],
    ["an exported .env token in a diff", "+export API_TOKEN=abc123", "+export API_TOKEN=[REDACTED:secret-assignment]"],
    [
      "a .env line in read_file output",
      "3\tDB_PASSWORD=tiger # local only",
      "3\tDB_PASSWORD=[REDACTED:env-assignment] # local only",
    ],
    [
      "a low-entropy password in code",
      'const password = "changeme1";',
      'const password = "[REDACTED:secret-assignment]";',
    ],
    ["a quoted JSON key", '{ "client_secret": "abc" }', '{ "client_secret": "[REDACTED:secret-assignment]" }'],
    ["a YAML password", "  password: hunter2", "  password: [REDACTED:secret-assignment]"],
    ["a comparison with a literal", 'if (pwd === "letmein") {', 'if (pwd === "[REDACTED:secret-assignment]") {'],
    [
      "a bearer credential",
      "Authorization: Bearer abcdefgh12345",
      "Authorization: Bearer [REDACTED:authorization-header]",
    ],
  ])("masks %s whatever its entropy", async (_name, text, expected) => {
    expect((await redact(text)).text).toBe(expected);
  });

  it("masks a JWT anywhere, and the password of a connection string", async () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    const out = await redact(`fix login (token ${jwt})\nurl: amqp://guest:guestpw@rabbit:5672/`);
    expect(out.text).not.toContain(jwt.split(".")[2]);
    expect(out.text).toContain("fix login (token [REDACTED:jwt])");
    expect(out.text).not.toContain("guestpw");
  });

  it.each([
    ["a reference", "const password = req.body.password;"],
    ["a type", "  password: string;"],
    ["an environment lookup", "PASSWORD=${DB_PASSWORD}"],
    ["a name that only contains a word", 'max_tokens = "100"'],
    ["an empty value", 'secret_key = ""'],
  ])("keeps %s", async (_name, text) => {
    expect(await redact(text)).toEqual({ text, count: 0 });
  });

  it("finishes on hostile text built to make a pattern backtrack", async () => {
    for (const text of [
      "x:".repeat(100_000),
      `password${"=x".repeat(50_000)}`,
      "eyJ".repeat(60_000),
      `a='${"b".repeat(100_000)}`,
      "a://".repeat(40_000),
    ]) {
      const out = await redact(text);
      expect(out.text.length).toBeGreaterThan(0);
    }
  });
});
