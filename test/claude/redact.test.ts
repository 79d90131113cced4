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
});
