import { describe, expect, it } from "vitest";
import { weakCryptoDetector } from "../../../src/detectors/security/weak-crypto.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

async function flaggedLines(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await weakCryptoDetector.detect(detectContext(pr));
  for (const f of findings) {
    expect(f).toMatchObject({ policy: "SEC-05", severity: "medium", blocking: false, needs_more_context: false });
  }
  return findings.map((f) => f.line ?? 0);
}

describe("weakCryptoDetector", () => {
  it("flags a cookie whose Secure or HttpOnly flag is turned off (Java, JS, Python settings), not other objects' flags", async () => {
    expect(
      await flaggedLines("src/main/java/org/acme/Session.java", [
        'Cookie c = new Cookie("remember", token);',
        "c.setSecure(false);",
        "c.setHttpOnly(true);",
        "c.setHttpOnly(false);",
      ]),
    ).toEqual([2, 4]);
    expect(
      await flaggedLines("src/session.ts", [
        "res.cookie('sid', sid, {",
        "  secure: false,",
        "  httpOnly: true,",
        "});",
        "const client = new Client({ host, secure: false });",
      ]),
    ).toEqual([2]);
    expect(await flaggedLines("app/settings.py", ["SESSION_COOKIE_SECURE = False", "DEBUG = False"])).toEqual([1]);
  });

  it("flags MD5 and SHA-1 in Node, Python and Java", async () => {
    expect(
      await flaggedLines("src/hash.ts", [
        'const h = crypto.createHash("md5").update(code).digest("hex");',
        "const s = createHash('sha1');",
        "const ok = createHash('sha256');",
      ]),
    ).toEqual([1, 2]);
    expect(
      await flaggedLines("app/hash.py", [
        "digest = hashlib.md5(data).hexdigest()",
        "etag = hashlib.md5(body, usedforsecurity=False).hexdigest()",
        "digest = hashlib.sha256(data).hexdigest()",
      ]),
    ).toEqual([1]);
    expect(await flaggedLines("src/Hash.java", ['MessageDigest md = MessageDigest.getInstance("MD5");'])).toEqual([1]);
  });

  it("flags ECB mode and hard-coded IVs and salts", async () => {
    expect(
      await flaggedLines("src/cipher.ts", [
        "const c = crypto.createCipheriv('aes-128-ecb', key, null);",
        'const iv = Buffer.from("0000000000000000");',
        'const SALT = "static-salt-value";',
        "const c2 = crypto.createCipheriv('aes-256-gcm', key, crypto.randomBytes(12));",
        'const div = "<div>";',
      ]),
    ).toEqual([1, 2, 3]);
    expect(await flaggedLines("app/c.py", ["cipher = AES.new(key, AES.MODE_ECB)"])).toEqual([1]);
  });

  it("flags Math.random for tokens and codes, not for jitter", async () => {
    expect(
      await flaggedLines("src/util/id.ts", [
        "const inviteCode = Math.random().toString(36).slice(2);",
        "const resetToken = Math.random().toString(16).substring(2);",
        "const delayMs = 100 + Math.random() * 50;",
        "export function createInviteCode(): string {",
        "  return Math.random().toString(36).slice(2, 10);",
        "}",
        "function jitter(): number {",
        "  return Math.random() * 10;",
        "}",
        "const paid = Math.random() > 0.5;",
      ]),
    ).toEqual([1, 2, 5]);
    expect(await flaggedLines("app/otp.py", ["otp = random.randint(100000, 999999)"])).toEqual([1]);
  });

  it("flags disabled TLS verification", async () => {
    expect(
      await flaggedLines("src/http.ts", [
        "const agent = new https.Agent({ rejectUnauthorized: false });",
        'process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";',
        "const ok = new https.Agent({ rejectUnauthorized: true });",
      ]),
    ).toEqual([1, 2]);
    expect(await flaggedLines("app/client.py", ["r = requests.get(url, verify=False)"])).toEqual([1]);
  });

  it("ignores docs, comments and files without a patch", async () => {
    expect(await flaggedLines("docs/crypto.md", ['Never write createHash("md5") for passwords.'])).toEqual([]);
    expect(await flaggedLines("src/a.ts", ['// createHash("md5") was used here before'])).toEqual([]);
    const pr = buildPr({ files: [{ filename: "img.png", status: "added" }] });
    expect(await weakCryptoDetector.detect(detectContext(pr))).toEqual([]);
  });
});
