import { describe, expect, it } from "vitest";
import { authChangeDetector } from "../../../src/detectors/security/auth-change.js";
import { weakCryptoDetector } from "../../../src/detectors/security/weak-crypto.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

async function weak(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await weakCryptoDetector.detect(detectContext(pr));
  for (const f of findings) expect(f).toMatchObject({ policy: "SEC-05", blocking: false, severity: "medium" });
  return findings.map((f) => f.line ?? 0);
}

describe("SEC-05 from the syntax tree: predictable randomness for secrets, fast password hashes", () => {
  it("JS: Math.random inside a function named for a token, several lines below its name; not for jitter", async () => {
    expect(
      await weak("src/accounts/links.ts", [
        "export function newResetToken(): string {",
        "  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';",
        "  let out = '';",
        "  for (let i = 0; i < 32; i++) {",
        "    out += alphabet[Math.floor(Math.random() * alphabet.length)];",
        "  }",
        "  return out;",
        "}",
        "export const backoffMs = (attempt: number) => 2 ** attempt * 100 + Math.random() * 50;",
        "export const ids = { requestId: Math.random().toString(16).slice(2) };",
      ]),
    ).toEqual([5, 10]);
  });

  it("Python: random.choice / random.randint for tokens and passwords; secrets and a shuffled quiz are clean", async () => {
    expect(
      await weak("app/services/invites.py", [
        "import random, secrets, string",
        "def issue_api_key():",
        "    chars = string.ascii_letters + string.digits",
        '    return "".join(random.choice(chars) for _ in range(40))',
        "def temp_password():",
        "    pin = random.randint(100000, 999999)",
        "    return str(pin)",
        "def safe_key():",
        "    return secrets.token_hex(32)",
        "def quiz_order(questions):",
        "    random.shuffle(questions)",
        "    return questions",
      ]),
    ).toEqual([4, 6]);
  });

  it("Go: math/rand for a session id is flagged, crypto/rand is not", async () => {
    expect(
      await weak("internal/web/sid.go", [
        "package web",
        'import "math/rand"',
        "func newSessionID() string {",
        "\tb := make([]byte, 16)",
        "\tfor i := range b {",
        "\t\tb[i] = letters[rand.Intn(len(letters))]",
        "\t}",
        "\treturn string(b)",
        "}",
      ]),
    ).toEqual([6]);
    expect(
      await weak("internal/web/sid.go", [
        "package web",
        'import "crypto/rand"',
        "func newSessionID() (string, error) {",
        "\tb := make([]byte, 16)",
        "\tif _, err := rand.Read(b); err != nil {",
        '\t\treturn "", err',
        "\t}",
        "\treturn hex.EncodeToString(b), nil",
        "}",
      ]),
    ).toEqual([]);
  });

  it("fast hashes of passwords in three languages are SEC-05 and SEC-03 (password hashing); a content hash is neither", async () => {
    const files = {
      "src/members/register.ts": [
        'const stored = createHash("sha256").update(password).digest("hex");',
        'const etag = createHash("sha256").update(body).digest("hex");',
      ],
      "app/members/register.py": [
        "    stored = hashlib.sha256(password.encode()).hexdigest()",
        "    digest = hashlib.sha256(payload).hexdigest()",
      ],
      "internal/members/register.go": ["\tsum := sha256.Sum256([]byte(password))", "\tetag := sha256.Sum256(body)"],
    };
    expect(await weak("src/members/register.ts", files["src/members/register.ts"])).toEqual([1]);
    expect(await weak("app/members/register.py", files["app/members/register.py"])).toEqual([1]);
    expect(await weak("internal/members/register.go", files["internal/members/register.go"])).toEqual([1]);
    const pr = buildPr({
      files: Object.entries(files).map(([filename, lines]) => ({ filename, patch: addedFilePatch(lines) })),
    });
    const auth = await authChangeDetector.detect(detectContext(pr));
    expect(auth.map((f) => [f.file, f.line])).toEqual([
      ["src/members/register.ts", 1],
      ["app/members/register.py", 1],
      ["internal/members/register.go", 1],
    ]);
  });

  it("Go: crypto/md5 and crypto/sha1 are weak hashes", async () => {
    expect(
      await weak("pkg/sign/sign.go", ["\th := sha1.New()", "\tsum := md5.Sum(data)", "\tok := sha256.Sum256(data)"]),
    ).toEqual([1, 2]);
  });
});

describe("SEC-05: a predictable value inside an inline callback is named by what receives it", () => {
  it("Math.random in an Array.from callback assigned to a token", async () => {
    expect(
      await weak("src/share.ts", [
        "export function createLink(doc: string) {",
        "  const token = Array.from({ length: 22 }, () => Math.floor(Math.random() * 36).toString(36)).join('');",
        "  const colour = palette[Math.floor(Math.random() * palette.length)];",
        "  return { doc, token, colour };",
        "}",
      ]),
    ).toEqual([2]);
  });
});
