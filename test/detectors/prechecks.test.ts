import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { syntheticPrJson } from "../../bench/synthetic.js";
import { ALL_DETECTORS } from "../../src/detectors/index.js";
import { parsePullRequest, type PullRequest } from "../../src/domain/pull-request.js";
import { headText } from "../../src/detectors/code/head-text.js";
import { oneLineArguments } from "../../src/detectors/code/one-line-arguments.js";
import { withCommentsJoined } from "../../src/detectors/code-lines.js";
import { syntaxLanguageOf } from "../../src/detectors/code/syntax-tree.js";
import { mayLogData } from "../../src/detectors/data/pii-logging.js";
import { mayMentionData, mayNamePersonalData } from "../../src/detectors/data/pii-vocabulary.js";
import { maySendToThirdParty } from "../../src/detectors/data/pii-third-party.js";
import { precheck, prefilter, withoutPrechecks } from "../../src/detectors/precheck.js";
import { AUTH_CALL, AUTH_CALL_WORDS, AUTH_LINE, AUTH_LINE_WORDS } from "../../src/detectors/security/auth-change.js";
import { AUTH_RULES, CONDITION_WORDS } from "../../src/detectors/security/auth-rules.js";
import { mayCallCrypto } from "../../src/detectors/security/crypto-calls.js";
import { mayBuildStrings, mayHoldSqlText, SQL_SHAPE } from "../../src/detectors/security/injection-flow.js";
import { injectionDetector } from "../../src/detectors/security/injection.js";
import { syntaxOfPatch } from "../../src/detectors/code/syntax-tree.js";
import { maySecretlintFind } from "../../src/detectors/security/secretlint-scan.js";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { addedFileFindingLines, addedFilePatch, buildPr, detectContext } from "./pr-builder.js";

const FIXTURE_ROOTS = [path.join(PACKAGE_ROOT, "fixtures"), path.join(PACKAGE_ROOT, "fixtures", "eval")];

/** Every bundled and evaluation fixture, as its GitHub JSON (so each run parses fresh values). */
function corpus(): Array<{ name: string; json: { pr: unknown; files: unknown[] } }> {
  return FIXTURE_ROOTS.flatMap((root) =>
    readdirSync(root)
      .filter((n) => existsSync(path.join(root, n, "files.json")))
      .map((n) => ({
        name: path.relative(PACKAGE_ROOT, path.join(root, n)),
        json: {
          pr: JSON.parse(readFileSync(path.join(root, n, "pr.json"), "utf8")),
          files: JSON.parse(readFileSync(path.join(root, n, "files.json"), "utf8")) as unknown[],
        },
      })),
  );
}

async function findingsOf(pr: PullRequest) {
  const ctx = detectContext(pr);
  const all = await Promise.all(ALL_DETECTORS.map((d) => d.detect(ctx)));
  return all.flat();
}

// That the pre-checks lose nothing (the same findings with them and without, over the corpus and
// its respellings) is test/detectors/precheck-differential.test.ts; here, what each one answers.
describe("the detectors' pre-checks", () => {
  const fixtures = corpus();

  it("spares work on the corpus: some code files of it need no parse at all", () => {
    let spared = 0;
    for (const { json } of fixtures) {
      const pr = parsePullRequest(json.pr, json.files);
      for (const file of pr.files) {
        const lang = file.patch ? syntaxLanguageOf(file.filename) : undefined;
        if (!lang) continue;
        const text = headText(file).text;
        if (
          !mayBuildStrings(text, lang) &&
          !mayCallCrypto(text, lang) &&
          !AUTH_CALL_WORDS.test(text) &&
          !mayLogData(text, lang)
        )
          spared++;
      }
    }
    expect(spared).toBeGreaterThan(0);
  });

  it("precheck answers true for everything while they are off, and again answers for itself after", async () => {
    expect(precheck(false)).toBe(false);
    expect(await withoutPrechecks(async () => precheck(false))).toBe(true);
    expect(precheck(false)).toBe(false);
  });

  it("prefilter keeps its filter, and none while they are off", async () => {
    const filter = /log/;
    expect(prefilter(filter)).toBe(filter);
    expect(await withoutPrechecks(async () => prefilter(filter))).toBeUndefined();
    expect(prefilter(filter)).toBe(filter);
  });
});

describe("the bench's large PR", () => {
  // The 3,000-file bench PR is made of this file: ordinary code, so no class needs its tree.
  const { pr, files } = syntheticPrJson({ files: 1, linesPerFile: 20 });
  const file = parsePullRequest(pr, files).files[0];
  const text = file ? headText(file).text : "";

  it("is code no pre-check sends to the parser, and it finds nothing", async () => {
    expect(text).toContain("db.query(");
    expect(text).toContain("logger.info(");
    expect(mayBuildStrings(text, "typescript")).toBe(false);
    expect(mayCallCrypto(text, "typescript")).toBe(false);
    expect(AUTH_CALL_WORDS.test(text)).toBe(false);
    expect(mayLogData(text, "typescript")).toBe(false);
    expect(maySecretlintFind(text)).toBe(false);
    expect(await findingsOf(parsePullRequest(pr, files))).toEqual([]);
  });

  it("a string built with + or a logged user sends it to the parser", () => {
    expect(mayBuildStrings(`${text}\nconst sql = "SELECT * FROM t WHERE id = " + id;`, "typescript")).toBe(true);
    expect(mayLogData(`${text}\nlogger.info("loaded", { user });`, "typescript")).toBe(true);
  });
});

describe("mayBuildStrings", () => {
  it.each([
    ["const q = 'a' + b", "typescript", true],
    ["const q = `SELECT ${id}`", "typescript", true],
    ["const q = `SELECT ${TABLE}`", "typescript", false],
    ['q = "%s" % x', "python", true],
    ['q = f"SELECT {x}"', "python", true],
    ['q = rf"SELECT {x}"', "python", true],
    ['q = "SELECT {x}"', "python", false],
    ['q := fmt.Sprintf("SELECT %s", x)', "go", true],
    ['q = "{}".format(x)', "python", true],
    ["q = 'a'.concat(x)", "javascript", true],
    ['db.query("SELECT 1 FROM t WHERE id = $1", [id])', "typescript", false],
  ] as const)("%s (%s) -> %s", (text, lang, expected) => {
    expect(mayBuildStrings(text, lang)).toBe(expected);
  });
});

describe("mayHoldSqlText", () => {
  const holds = (filename: string, lines: string[]) => {
    const file = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] }).files[0];
    const syntax = file ? syntaxOfPatch(file) : undefined;
    if (!syntax) throw new Error(`no tree for ${filename}`);
    return mayHoldSqlText(syntax);
  };

  it.each([
    ["a.ts", ['const v = cache.get("user:" + id);', 'const m = /x(\\d+)/.exec(line + "!");'], false],
    ["a.ts", ['const q = "SELECT * FROM t WHERE id = " + id;'], true],
    // Words spread over strings, as the flow joins them: each alternative of SQL_SHAPE is asked.
    ["a.ts", ['const a = "select a";', 'const b = "from t";', "run(a + x + b);"], true],
    ["a.ts", ['const a = "or";', 'const b = "x = ";', "run(a + b + x);"], true],
    ["a.ts", ['const a = "\\nor x = ";', "run(a + x);"], true],
    ["a.ts", ["const q = `{ call p(${x}) }`;"], true],
    ["a.ts", ['const q = "error: " + x + " for " + y;'], false],
    ["app.py", ['q = f"DELETE FROM t WHERE id = {x}"'], true],
    ["app.py", ['k = "name" + x', "d.get(k)"], false],
    // A keyword split across strings that follow each other: read in their text joined.
    ["a.ts", ['db.run("DEL" + "ETE fr" + "om users " + id);'], true],
    ["app.py", ['db.execute("SEL" "ECT * FR" "OM t " + x)'], true],
  ] as const)("%s %j -> %s", (filename, lines, expected) => {
    expect(holds(filename, [...lines])).toBe(expected);
  });

  // One text for every alternative of SQL_SHAPE: each must read as SQL, and hold the words the
  // pre-check looks for (SQL_WORDS is kept in step with SQL_SHAPE by hand; this is the check).
  const SHAPES = [
    "select name from users",
    "insert into users",
    "update users set",
    "delete from users",
    "where id =",
    "order by name",
    "values (",
    "and name like",
    "notify jobs, '",
    "{ call refresh",
    "set search_path to",
  ];

  /** The alternatives of a regex's source at the top level and inside its first group. */
  const alternatives = (source: string): number => {
    let depth = 0;
    let count = 1;
    let inClass = false;
    for (let i = 0; i < source.length; i++) {
      const c = source[i];
      if (c === "\\") i++;
      else if (inClass) inClass = c !== "]";
      else if (c === "[") inClass = true;
      else if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (c === "|" && depth <= 1) count++;
    }
    return count;
  };

  it("has a sample for every alternative of SQL_SHAPE", () => {
    expect(alternatives(SQL_SHAPE.source)).toBe(SHAPES.length);
  });

  it.each(SHAPES)("%s reads as SQL and holds the pre-check's words", (text) => {
    expect(SQL_SHAPE.test(text)).toBe(true);
    expect(holds("a.ts", [`run(db, "${text}" + x);`])).toBe(true);
  });

  it("a generic SQL method still reports SQL built from strings that hold SQL words", async () => {
    const lines = [
      "export function find(db, id) {",
      '  const where = " WHERE id = ";',
      '  return db.get("SELECT * FROM users" + where + id);',
      "}",
    ];
    expect(await addedFileFindingLines(injectionDetector, "src/find.ts", lines)).toEqual([3]);
    expect(await withoutPrechecks(() => addedFileFindingLines(injectionDetector, "src/find.ts", lines))).toEqual([3]);
  });

  it("a keyword split across strings that follow each other is still reported, with the pre-check on", async () => {
    const lines = ["export function drop(db, id) {", '  return db.run("DEL" + "ETE fr" + "om users " + id);', "}"];
    expect(await addedFileFindingLines(injectionDetector, "src/drop.ts", lines)).toEqual([2]);
    expect(await withoutPrechecks(() => addedFileFindingLines(injectionDetector, "src/drop.ts", lines))).toEqual([2]);
  });
});

describe("mayCallCrypto and AUTH_CALL_WORDS", () => {
  it("name every call the tree readers look for", () => {
    for (const callee of ["Math.random", "random.choice", "randint", "rand.Intn", "hashlib.sha256", "md5.Sum", "md5"])
      expect(mayCallCrypto(`${callee}(x)`, "python"), callee).toBe(true);
    expect(mayCallCrypto('crypto.createHash("sha256").update(password)', "typescript")).toBe(true);
    expect(mayCallCrypto("const total = a * b", "typescript")).toBe(false);
  });

  // One callee for every alternative of AUTH_CALL: each must be an authentication call, and named.
  it.each([
    "jwt.sign",
    "jose.jwtVerify",
    "jws.verify",
    "SignJWT",
    "verifyIdToken",
    "decodeJwt",
    "ParseWithClaims",
    "token.SignedString",
    "crypto.createHmac",
    "crypto.timingSafeEqual",
    "hmac.compare_digest",
    "subtle.ConstantTimeCompare",
    "checkSignature",
    "hmac.New",
    "ed25519.Verify",
    "crypto.sign",
    "crypto.subtle.verify",
    "bcrypt.hash",
    "argon2.verify",
    "PasswordHasher().verify",
    "hashpw",
    "pbkdf2Sync",
    "IDKey",
    "GenerateFromPassword",
    "check_password_hash",
    "NewFilesystemStore",
    "login_user",
    "req.session.regenerate",
    "expressSession",
    "passport.authenticate",
    "URLSafeTimedSerializer",
    "TimestampSigner",
    "signing.dumps",
  ])("%s", (callee) => {
    expect(AUTH_CALL.test(callee)).toBe(true);
    expect(AUTH_CALL_WORDS.test(callee)).toBe(true);
  });
});

describe("SEC-03's CONDITION_WORDS", () => {
  // One line for every alternative of the shared check rule: each must be a check, and hold a word
  // of the pre-check that spares reading it.
  it.each([
    "if (!req.user.isAdmin) {",
    "unless current_user.admin?",
    "if not request.user.has_perm('x'):",
    "elif can?(:manage, doc)",
    "requirePermission(ctx, req)",
    "h.validateCSRF(ctx, req)",
    "check_permission(user, 'docs.edit')",
    "if (!canEdit(user, doc)) return false;",
  ])("%s", (line) => {
    expect(AUTH_RULES.python.conditions.test(line)).toBe(true);
    expect(CONDITION_WORDS.test(line)).toBe(true);
  });
});

describe("AUTH_LINE_WORDS", () => {
  // One changed line for every alternative of AUTH_LINE: each must be an authentication line, and
  // hold a word of the pre-check that spares reading the patch line by line.
  it.each([
    "jwt.sign(claims)",
    "import jsonwebtoken",
    "from jose import jwt",
    "bcrypt.compare(a, b)",
    "argon2.hash(p)",
    "passport.use(strategy)",
    "if (req.isAuthenticated())",
    "if (User.IsAuthenticated)",
    "app.use(requireAuth)",
    "router.get('/', ensureAuthenticated, h)",
    "authenticateUser(req)",
    "authorizeAdmin(u)",
    "verifyToken(t)",
    "key.verify(sig)",
    "if subtle.ConstantTimeCompare(a, b) != 1 {",
    "require('express-session')",
    "require('cookie-session')",
    "session.regenerate(cb)",
    "SESSION_SECRET=abc",
    "expires_in: 3600",
    "expiresIn: '1h'",
    "session({ secret })",
    "check_password(p)",
    "password_hash($p, PASSWORD_DEFAULT)",
    "@login_required",
    "@requires_auth",
    "permission_classes = [IsAdminUser]",
    "if (u.hasRole('admin'))",
    "requireRole('admin')",
    "if (isAdmin)",
    "req.headers.authorization",
    "'Bearer ' + token",
    "csrf: false",
    "csrfExemptPaths := []string{}",
    "algorithms: ['none']",
    "ignoreExpiration: true",
    "noAuth: true",
    "skipAuth: true",
  ])("%s", (line) => {
    expect(AUTH_LINE.test(line)).toBe(true);
    expect(AUTH_LINE_WORDS.test(line)).toBe(true);
  });

  it("reads no use of a cookie or a session as a decision (setting, reading, storing a value)", () => {
    for (const line of ["req.session.user = u", "const session_id = x", "res.cookie('theme', t, { maxAge: 60 })"])
      expect(AUTH_LINE.test(line), line).toBe(false);
    for (const callee of ["res.cookie", "response.set_cookie", "http.SetCookie", "cookies().set", "session.save"])
      expect(AUTH_CALL.test(callee), callee).toBe(false);
  });

  it("passes ordinary logging calls by (C#'s LogInformation names no login)", () => {
    expect(AUTH_LINE_WORDS.test('_logger.LogInformation("order loaded {OrderId}", order.Id);')).toBe(false);
    expect(AUTH_LINE.test('_logger.LogInformation("order loaded {OrderId}", order.Id);')).toBe(false);
  });
});

describe("mayLogData", () => {
  it.each([
    ['logger.info("order loaded", { orderId: order.id });', false],
    ['logger.info("loaded", { email: user.email });', true],
    ['console.log("a ) b", total);', false],
    ['console.log("a ) b", req.body);', true],
    ["console.log(`total ${total}`);", false],
    ["console.log(`user ${user.email}`);", true],
    ['log.info("x", total) // user.email', false],
    ['log.info("x", total /* user */);', true],
    ["logger.info(\n  user.email);", true],
    ["logger\n  .info(total);", false],
    ["logger.info<Log>(total);", true],
    // Any white space a grammar skips may stand before the arguments: no-break, form feed, BOM, ideographic.
    ["logger.info\u00a0(user.email);", true],
    ["logger.info\f(user.email);", true],
    ["logger.info\ufeff(user.email);", true],
    ["logger.info\u3000(total);", false],
    ["logger.info\u200b(total);", true],
    ['throw new Error("rates unavailable");', false],
    ["const email = user.email;", false],
  ])("%j -> %s", (text, expected) => {
    expect(mayLogData(text, "typescript")).toBe(expected);
  });

  it("reads Python and Go strings as their parsers do", () => {
    expect(mayLogData('logging.info("%s", total)', "python")).toBe(false);
    expect(mayLogData('logging.info(f"{user.email}")', "python")).toBe(true);
    expect(mayLogData("logging.info('a' # c\n)", "python")).toBe(true);
    expect(mayLogData('log.Printf("%v", total)', "go")).toBe(false);
    expect(mayLogData("log.Printf(`%v`, user)", "go")).toBe(true);
    expect(mayLogData("log.Printf(`%v\n`, total)", "go")).toBe(true);
  });
});

describe("withCommentsJoined", () => {
  it("holds each word sanitizeCode joins, however a string before the comment reads", () => {
    expect(withCommentsJoined("a/* x */b", "js")).toContain("\nab");
    expect(withCommentsJoined('const s = "/*"; hash_pass/**/word(pw);', "js")).toContain("hash_password");
    expect(withCommentsJoined('log(x["pass"]word)', "js")).toContain("password");
    expect(withCommentsJoined("pass/* x */word = 1", "python")).not.toContain("password");
    expect(withCommentsJoined("const total = a * b", "js")).toBe("const total = a * b");
  });
});

describe("oneLineArguments", () => {
  it("returns the argument list the parser reads, or nothing when it cannot tell", () => {
    expect(oneLineArguments('log("a)", { id }); x()', 3, "typescript")).toBe('("a)", { id })');
    expect(oneLineArguments("log(`a ${f(`b)`)} c`) + 1", 3, "typescript")).toBe("(`a ${f(`b)`)} c`)");
    expect(oneLineArguments("log(a, b", 3, "typescript")).toBeUndefined();
    expect(oneLineArguments("log(a / b)", 3, "typescript")).toBeUndefined();
    expect(oneLineArguments("log(a / b)", 3, "python")).toBe("(a / b)");
    expect(oneLineArguments("log(a]", 3, "go")).toBeUndefined();
    expect(oneLineArguments("log('it\\'s', x)", 3, "javascript")).toBe("('it\\'s', x)");
    expect(oneLineArguments('log("""a""")', 3, "python")).toBeUndefined();
  });
});

describe("the data-word checks", () => {
  it("see every word a mention or a personal field needs, however it is spelled", () => {
    expect(mayMentionData("(user_Email)")).toBe(true);
    expect(mayMentionData('(req["x-api-key"])')).toBe(true);
    expect(mayMentionData("(total, orderId)")).toBe(false);
    expect(mayNamePersonalData("  phone_number VARCHAR(20),")).toBe(true);
    expect(mayNamePersonalData("  total_cents INTEGER NOT NULL,")).toBe(false);
  });

  it("maySendToThirdParty needs a URL or an SDK's name", () => {
    expect(maySendToThirdParty("+await fetch(`${RATES_URL}/v2`)", "js")).toBe(false);
    expect(maySendToThirdParty('+await fetch("https://api.example.io", { body })', "js")).toBe(true);
    expect(maySendToThirdParty("+mix/**/panel.track(user.email)", "js")).toBe(true);
    expect(maySendToThirdParty("+FS.identify(user.email)", "js")).toBe(true);
  });
});

describe("buildPr files", () => {
  it("go through the pre-checks like fixtures", async () => {
    const pr = buildPr({
      files: [{ filename: "src/a.ts", patch: '@@ -0,0 +1 @@\n+logger.info("x", { email: user.email });' }],
    });
    const found = await findingsOf(pr);
    expect(found.map((f) => f.policy)).toEqual(["DATA-01"]);
  });
});
