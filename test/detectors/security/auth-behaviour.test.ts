import { describe, expect, it } from "vitest";
import { authChangeDetector } from "../../../src/detectors/security/auth-change.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** SEC-03 findings (file, line) for added files outside any auth-named folder. */
async function found(files: Record<string, string[]>): Promise<Array<[string | undefined, number | undefined]>> {
  const pr = buildPr({
    files: Object.entries(files).map(([filename, lines]) => ({ filename, patch: addedFilePatch(lines) })),
  });
  const findings = await authChangeDetector.detect(detectContext(pr));
  for (const f of findings) expect(f).toMatchObject({ policy: "SEC-03", blocking: true, needs_more_context: true });
  return findings.map((f) => [f.file, f.line]);
}

describe("authChangeDetector reads authentication by behaviour, wherever the file lives", () => {
  it("JS/TS: HMAC webhook verification, JWT verify, scrypt password hashing", async () => {
    expect(
      await found({
        "src/routes/billing-hooks.ts": [
          'import { createHmac, timingSafeEqual } from "node:crypto";',
          "export function fromStripe(body: Buffer, header: string, secret: string): boolean {",
          '  const expected = createHmac("sha256", secret).update(body).digest();',
          "  return timingSafeEqual(expected, Buffer.from(header, 'hex'));",
          "}",
        ],
        "src/api/me.ts": ["const claims = jwt.verify(bearer, publicKey);"],
        "lib/accounts/store.ts": ["const derived = await scrypt(plain, salt, 64);"],
      }),
    ).toEqual([
      ["src/routes/billing-hooks.ts", 3],
      ["src/api/me.ts", 1],
      ["lib/accounts/store.ts", 1],
    ]);
  });

  it("Python: hmac.compare_digest, PyJWT decode, pbkdf2_hmac and werkzeug hashing", async () => {
    expect(
      await found({
        "app/integrations/github_events.py": [
          "import hmac, hashlib",
          "def valid(body, sig, key):",
          "    mac = hmac.new(key, body, hashlib.sha256).hexdigest()",
          "    return hmac.compare_digest(mac, sig)",
        ],
        "app/api/profile.py": ["    claims = jwt.decode(raw, key, algorithms=['RS256'])"],
        "app/models/member.py": ["    digest = hashlib.pbkdf2_hmac('sha256', pw.encode(), salt, 100_000)"],
        "app/models/staff.py": ["    self.pw_hash = generate_password_hash(pw)"],
      }),
    ).toEqual([
      ["app/integrations/github_events.py", 3],
      ["app/api/profile.py", 1],
      ["app/models/member.py", 1],
      ["app/models/staff.py", 1],
    ]);
  });

  it("Go: hmac.Equal, jwt.ParseWithClaims, bcrypt", async () => {
    expect(
      await found({
        "internal/hooks/verify.go": [
          "package hooks",
          "func valid(body []byte, sig []byte, key []byte) bool {",
          "\tmac := hmac.New(sha256.New, key)",
          "\tmac.Write(body)",
          "\treturn hmac.Equal(mac.Sum(nil), sig)",
          "}",
        ],
        "internal/api/claims.go": ["\ttok, err := jwt.ParseWithClaims(raw, &Claims{}, keyFunc)"],
        "internal/members/store.go": ["\thash, err := bcrypt.GenerateFromPassword([]byte(pw), 12)"],
      }),
    ).toEqual([
      ["internal/hooks/verify.go", 3],
      ["internal/api/claims.go", 1],
      ["internal/members/store.go", 1],
    ]);
  });

  it("clean look-alikes: content hashes, database sessions, tokenizers, mentions in comments and strings", async () => {
    expect(
      await found({
        "src/cache/etag.ts": [
          'const etag = createHash("sha256").update(body).digest("base64url");',
          "// later: jwt.verify(token) here",
        ],
        "app/catalog/importer.py": [
          "def save(rows):",
          "    db.session.add_all(rows)",
          "    db.session.commit()",
          '    log.info("hmac.new is not used here")',
          "    key = hashlib.sha256(path.read_bytes()).hexdigest()",
        ],
        "internal/lexer/scan.go": ["\ttokens := tokenize(src)", "\tsum := sha256.Sum256(data)"],
      }),
    ).toEqual([]);
  });
  it("Ruby and Java: a constant-time compare and an HMAC read as calls, not as words", async () => {
    expect(
      await found({
        "app/controllers/hooks_controller.rb": [
          "class HooksController < ApplicationController",
          "  def verify(body, sig)",
          "    ActiveSupport::SecurityUtils.secure_compare(OpenSSL::HMAC.hexdigest('SHA256', KEY, body), sig)",
          "  end",
          "end",
        ],
        "src/main/java/com/acme/Tokens.java": ["boolean ok = MessageDigest.isEqual(expected, actual);"],
        "app/models/thumbnail.rb": ["def scryptic_name; 'x'; end"],
      }),
    ).toEqual([
      ["app/controllers/hooks_controller.rb", 3],
      ["src/main/java/com/acme/Tokens.java", 1],
    ]);
  });
});
