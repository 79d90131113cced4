import { describe, expect, it } from "vitest";
import { judgeAlgorithm } from "../../../src/detectors/security/algorithm-value.js";
import { isSecretName } from "../../../src/detectors/security/random-flow.js";
import { weakCryptoDetector } from "../../../src/detectors/security/weak-crypto.js";
import { addedFilePatch, buildPr, detectContext, headFiles } from "../pr-builder.js";

/** SEC-05 findings of one added file, as [line, message]; `head` is the head snapshot's other files. */
async function weak(filename: string, lines: string[], head: Record<string, string> = {}): Promise<[number, string][]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await weakCryptoDetector.detect(detectContext(pr, { head: headFiles(head) }));
  return findings.map((f) => [f.line ?? 0, f.message]);
}
const lines = async (filename: string, text: string[], head: Record<string, string> = {}) =>
  (await weak(filename, text, head)).map(([line]) => line);

const servlet = (body: string[]) => [
  "public class Remember extends HttpServlet {",
  "  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {",
  ...body.map((l) => `    ${l}`),
  "  }",
  "}",
];

describe("SEC-05: a predictable random value followed to a security value", () => {
  it("Java: java.util.Random and Math.random into a cookie through a local and Long.toString; SecureRandom is not", async () => {
    const risky = await weak(
      "src/main/java/acme/Remember.java",
      servlet([
        "long l = new java.util.Random().nextLong();",
        "String value = Long.toString(l);",
        'Cookie c = new Cookie("remember", value);',
        "response.addCookie(c);",
      ]),
    );
    expect(risky.map(([l]) => l)).toEqual([3]);
    expect(risky[0]?.[1]).toMatch(/random.*reaches a cookie \(Cookie\(\.\.\.\)\) on line 5/);
    expect(
      await lines(
        "src/main/java/acme/Remember.java",
        servlet([
          "double d = java.lang.Math.random();",
          "String v = Double.toString(d).substring(2);",
          'response.addCookie(new Cookie("sid", v));',
        ]),
      ),
    ).toEqual([3]);
    expect(
      await lines(
        "src/main/java/acme/Remember.java",
        servlet([
          'long l = java.security.SecureRandom.getInstance("SHA1PRNG").nextLong();',
          "String rememberMeKey = Long.toString(l);",
          'response.addCookie(new Cookie("remember", rememberMeKey));',
        ]),
      ),
    ).toEqual([]);
  });

  it("Java: a filled buffer is followed; a Random parameter every caller feeds a SecureRandom is not predictable", async () => {
    expect(
      await lines(
        "src/main/java/acme/Remember.java",
        servlet([
          "byte[] bytes = new byte[16];",
          "new java.util.Random().nextBytes(bytes);",
          "String token = Base64.getEncoder().encodeToString(bytes);",
        ]),
      ),
    ).toEqual([4]);
    const fed = (generator: string) => [
      "public class Remember {",
      "  String key() throws Exception {",
      `    java.util.Random numGen = ${generator};`,
      "    double rand = next(numGen);",
      "    String rememberMeKey = Double.toString(rand);",
      "    return rememberMeKey;",
      "  }",
      "  double next(java.util.Random generator) {",
      "    return generator.nextDouble();",
      "  }",
      "}",
    ];
    expect(
      await lines("src/main/java/acme/Remember.java", fed('java.security.SecureRandom.getInstance("SHA1PRNG")')),
    ).toEqual([]);
    expect(await lines("src/main/java/acme/Remember.java", fed("new java.util.Random()"))).toEqual([9]);
  });

  it("JavaScript: Math.random returned by a helper reaches res.cookie; crypto.randomBytes does not; jitter and a test id are not secrets", async () => {
    expect(
      await lines("src/reset.js", [
        "function makeValue() {",
        "  return Math.random().toString(36).slice(2);",
        "}",
        "exports.start = function (user, res) {",
        "  const v = makeValue();",
        "  res.cookie('reset', v);",
        "};",
      ]),
    ).toEqual([2]);
    expect(
      await lines("src/remember.js", [
        "const gen = () => Math.random().toString(36).slice(2);",
        "exports.make = function () {",
        "  return Math.random().toString(36);",
        "};",
        "function start(res) {",
        "  res.cookie('remember', gen());",
        "  const v = exports.make();",
        "  res.cookie('sid', v);",
        "}",
      ]),
    ).toEqual([1, 3]);
    expect(
      await lines("src/reset.js", [
        "const crypto = require('crypto');",
        "function makeValue() {",
        "  return crypto.randomBytes(32).toString('hex');",
        "}",
        "exports.start = (user, res) => res.cookie('reset', makeValue());",
      ]),
    ).toEqual([]);
    expect(
      await lines("src/retry.ts", [
        "export function retry(fn: () => void, attempt: number) {",
        "  const wait = 100 * 2 ** attempt + Math.random() * 50;",
        "  setTimeout(fn, wait);",
        "  const testId = Math.floor(Math.random() * 1e6);",
        "  const hue = Math.random() * 360;",
        "  document.body.style.color = `hsl(${hue}, 50%, 50%)`;",
        "  const n = Math.random();",
        '  el.id = "item-" + n.toString(36);',
        "  keys.push(n);",
        "}",
      ]),
    ).toEqual([]);
  });

  it("Python: random.random() through str() into a session store or set_cookie; secrets and a shuffled sample are not", async () => {
    expect(
      await lines("app/session.py", [
        "import random",
        "def login(response, mysession):",
        "    value = str(random.random())[2:]",
        "    mysession['user'] = value",
      ]),
    ).toEqual([3]);
    expect(
      await lines("app/session.py", [
        "import random",
        "def make():",
        "    return str(random.getrandbits(64))",
        "def login(response):",
        "    v = make()",
        "    response.set_cookie('sid', v)",
      ]),
    ).toEqual([3]);
    expect(
      await lines("app/session.py", [
        "import random, secrets",
        "def login(response, rows):",
        "    v = secrets.token_urlsafe(32)",
        "    response.set_cookie('sid', v)",
        "    picked = random.sample(rows, 10)",
        "    report(picked)",
      ]),
    ).toEqual([]);
  });

  it.each([
    [
      "Go",
      "web/login.go",
      [
        "package web",
        'import "math/rand"',
        "func login(w http.ResponseWriter) {",
        "\tv := strconv.FormatInt(rand.Int63(), 36)",
        '\thttp.SetCookie(w, &http.Cookie{Name: "s", Value: v})',
        "}",
      ],
      4,
    ],
    [
      "PHP",
      "web/login.php",
      ["<?php", "function login() {", "    $t = mt_rand();", '    setcookie("remember", (string) $t);', "}"],
      3,
    ],
    [
      "C#",
      "Web/Login.cs",
      [
        "class L {",
        "  void Login() {",
        "    var r = new Random().Next();",
        '    Response.Cookies.Append("sid", r.ToString());',
        "  }",
        "}",
      ],
      3,
    ],
    ["Ruby", "app/login.rb", ["def login", "  v = rand(1_000_000)", "  cookies[:remember] = v.to_s", "end"], 2],
    [
      "Kotlin",
      "src/Login.kt",
      [
        "fun login(resp: HttpServletResponse) {",
        "    val n = Random.nextLong()",
        '    val c = Cookie("remember", n.toString())',
        "    resp.addCookie(c)",
        "}",
      ],
      2,
    ],
    [
      "Go, a filled buffer",
      "web/fill.go",
      [
        "package web",
        'import "math/rand"',
        "func mk() string {",
        "\tb := make([]byte, 16)",
        "\trand.Read(b)",
        "\tsecret := hex.EncodeToString(b)",
        "\treturn secret",
        "}",
      ],
      5,
    ],
  ])(
    "%s: a predictable value reaching a cookie or a secret is flagged on the generator's line",
    async (_lang, file, text, line) => {
      const found = await weak(file, text);
      expect(found.map(([l]) => l)).toEqual([line]);
      expect(found[0]?.[1]).toMatch(
        /predictable generator, not a cryptographic random source\) produces a value that reaches/,
      );
    },
  );

  it("names: secret purposes, not tests, delays or colours", () => {
    expect(["rememberMeKey", "reset_token", "mysession[cookie]", "csrfNonce", "userId"].map(isSecretName)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(["testId", "retryDelay", "colorCode", "sampleKey", "value"].map(isSecretName)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("SEC-05: algorithm names judged by value", () => {
  const props =
    "# algorithms\ncryptoAlg1=DES/ECB/PKCS5Padding\ncryptoAlg2=AES/GCM/NoPadding\nhashAlg1=MD5\nhashAlg2=SHA-256\n";
  const reading = (key: string, fallback: string, call: string) =>
    servlet([
      "java.util.Properties p = new java.util.Properties();",
      'p.load(getClass().getClassLoader().getResourceAsStream("app.properties"));',
      `String algorithm = p.getProperty("${key}", "${fallback}");`,
      `${call}(algorithm);`,
    ]);

  it("Java: a properties file of the head snapshot gives the name; its default is used and said when none is found", async () => {
    const head = { "src/main/resources/app.properties": props };
    const md5 = await weak(
      "src/main/java/acme/H.java",
      reading("hashAlg1", "SHA-512", "MessageDigest.getInstance"),
      head,
    );
    expect(md5).toHaveLength(1);
    expect(md5[0]?.[0]).toBe(6);
    expect(md5[0]?.[1]).toMatch(/MD5 \(src\/main\/resources\/app\.properties: hashAlg1=MD5\).*MD5\/SHA-1/);
    const des = await weak(
      "src/main/java/acme/C.java",
      reading("cryptoAlg1", "AES/GCM/NoPadding", "Cipher.getInstance"),
      head,
    );
    expect(des[0]?.[1]).toMatch(/DES\/ECB\/PKCS5Padding .*broken cipher or mode/);
    expect(
      await lines(
        "src/main/java/acme/C.java",
        reading("cryptoAlg2", "AES/ECB/PKCS5Padding", "Cipher.getInstance"),
        head,
      ),
    ).toEqual([]);
    expect(
      await lines("src/main/java/acme/H.java", reading("hashAlg2", "MD5", "MessageDigest.getInstance"), head),
    ).toEqual([]);
    const fallback = await weak("src/main/java/acme/H.java", reading("hashAlg1", "SHA1", "MessageDigest.getInstance"));
    expect(fallback[0]?.[1]).toMatch(/SHA1 \(the default of hashAlg1 \(app\.properties not found in the snapshot\)\)/);
    expect(
      await lines("src/main/java/acme/H.java", reading("hashAlg1", "SHA-256", "MessageDigest.getInstance")),
    ).toEqual([]);
  });

  it("reads a properties file the pull request changes, and asks a failing snapshot once", async () => {
    const code = reading("hashAlg1", "SHA-256", "MessageDigest.getInstance");
    const pr = buildPr({
      files: [
        { filename: "src/main/java/acme/H.java", patch: addedFilePatch(code) },
        { filename: "conf/app.properties", patch: addedFilePatch(["hashAlg1=SHA1"]) },
      ],
    });
    const inPr = await weakCryptoDetector.detect(
      detectContext(pr, { head: headFiles({ "conf/app.properties": "hashAlg1=SHA1\n" }) }),
    );
    expect(inPr.map((f) => f.message)).toEqual([
      expect.stringMatching(/SHA1 \(conf\/app\.properties: hashAlg1=SHA1\)/),
    ]);
    const asked: string[] = [];
    const failing = {
      read: async (path: string): Promise<string | undefined> => {
        asked.push(path);
        throw new Error("snapshot not downloadable");
      },
    };
    const fallback = await weakCryptoDetector.detect(detectContext(pr, { head: failing }));
    expect(fallback).toEqual([]);
    expect(asked).toEqual(["conf/app.properties"]);
  });

  it("Java: constants, fields and a choice between literals; AES alone is ECB, AES/GCM is fine", async () => {
    expect(
      await lines("src/main/java/acme/Crypto.java", [
        "public class Crypto {",
        '  private static final String TRANSFORMATION = "DESede/CBC/PKCS5Padding";',
        '  private static final String GOOD = "AES/GCM/NoPadding";',
        "  void run(boolean legacy) throws Exception {",
        "    Cipher a = Cipher.getInstance(TRANSFORMATION);",
        "    Cipher b = Cipher.getInstance(GOOD);",
        '    String alg = legacy ? "MD5" : "SHA-256";',
        "    MessageDigest md = MessageDigest.getInstance(alg);",
        '    String k = "AES";',
        "    Cipher c = Cipher.getInstance(k);",
        '    KeyGenerator g = KeyGenerator.getInstance("AES");',
        '    Mac m = Mac.getInstance("HmacSHA256");',
        '    SecretKeyFactory f = SecretKeyFactory.getInstance("PBEWithMD5AndDES");',
        '    Cipher r = Cipher.getInstance("RSA/ECB/OAEPWithSHA-256AndMGF1Padding");',
        "  }",
        "}",
      ]),
    ).toEqual([5, 8, 10, 13]);
  });

  it("Python, Node and C#: names through locals and constants", async () => {
    expect(
      await lines("app/h.py", ["ALG = 'md5'", "def h(data):", "    return hashlib.new(ALG, data).hexdigest()"]),
    ).toEqual([3]);
    expect(
      await lines("app/h.py", [
        "def h(data):",
        "    name = 'sha256'",
        "    return hashlib.new(name, data).hexdigest()",
      ]),
    ).toEqual([]);
    expect(
      await lines("src/c.ts", [
        "const ALGO = 'des-ede3-cbc';",
        "const HASH = 'sha1';",
        "export const enc = (k: Buffer, iv: Buffer) => crypto.createCipheriv(ALGO, k, iv);",
        "export const sum = (b: Buffer) => crypto.createHash(HASH).update(b).digest('hex');",
        "export const ok = (k: Buffer, iv: Buffer) => crypto.createCipheriv('aes-256-gcm', k, iv);",
      ]),
    ).toEqual([3, 4]);
    expect(
      await lines("src/H.cs", [
        "class H {",
        '  const string Name = "MD5";',
        "  byte[] Sum(byte[] b) => HashAlgorithm.Create(Name).ComputeHash(b);",
        '  SymmetricAlgorithm Alg() => SymmetricAlgorithm.Create("TripleDES");',
        "}",
      ]),
    ).toEqual([3, 4]);
  });

  it("fast unsalted hashes of passwords, directly or through a local: use a password hash", async () => {
    const cs = await weak("src/Users.cs", [
      "class Users {",
      "  string Hash(string password) {",
      "    var bytes = Encoding.UTF8.GetBytes(password);",
      "    return Convert.ToBase64String(SHA256.Create().ComputeHash(bytes));",
      "  }",
      "}",
    ]);
    expect(cs.map(([l]) => l)).toEqual([4]);
    expect(cs[0]?.[1]).toMatch(/password hash \(bcrypt, scrypt, Argon2 or PBKDF2\)/);
    expect(
      await lines("app/users.py", ["def h(password):", "    return hashlib.sha256(password.encode()).hexdigest()"]),
    ).toEqual([2]);
    expect(
      await lines("src/users.js", ["const h = (password) => createHash('sha256').update(password).digest('hex');"]),
    ).toEqual([1]);
    expect(
      await lines("src/files.js", [
        "const sum = (file) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');",
      ]),
    ).toEqual([]);
  });

  it("judges names by the call that takes them", () => {
    expect(judgeAlgorithm("transformation", "AES")).toBe("weak-cipher");
    expect(judgeAlgorithm("transformation", "AES/CCM/NoPadding")).toBeUndefined();
    expect(judgeAlgorithm("transformation", "ChaCha20-Poly1305")).toBeUndefined();
    expect(judgeAlgorithm("cipher", "AES")).toBeUndefined();
    expect(judgeAlgorithm("cipher", "Blowfish")).toBe("weak-cipher");
    expect(judgeAlgorithm("cipher", "aes-128-ecb")).toBe("weak-cipher");
    expect(judgeAlgorithm("digest", "SHA-1")).toBe("weak-hash");
    expect(judgeAlgorithm("digest", "SHA-512")).toBeUndefined();
    expect(judgeAlgorithm("mac", "HmacSHA1")).toBeUndefined();
    expect(judgeAlgorithm("mac", "HmacMD5")).toBe("weak-hash");
  });
});
