import { describe, expect, it } from "vitest";
import type { ChangedFile } from "../../../src/domain/pull-request.js";
import { clearanceNeed, lineCheck, showsNeededCheck } from "../../../src/investigator/auth-checks/line-check.js";

/** What line 1 of `file`, with the lines after it, shows. */
function check(file: string, ...lines: string[]) {
  return lineCheck(file, (n) => lines[n - 1], 1);
}

const kindOf = (file: string, ...lines: string[]) => check(file, ...lines)?.kind;

function added(filename: string, lines: string[], status: ChangedFile["status"] = "added"): ChangedFile {
  return {
    filename,
    status,
    additions: lines.length,
    deletions: 0,
    changes: lines.length,
    patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`,
  };
}

describe("lineCheck: JavaScript and TypeScript", () => {
  const verifying: Array<[string, string]> = [
    ["jsonwebtoken's verify", "const claims = jwt.verify(token, process.env.JWT_SECRET, { algorithms: ['HS256'] });"],
    ["jose's jwtVerify", "const { payload } = await jose.jwtVerify(token, JWKS, { issuer });"],
    ["a bare jwtVerify", "const { payload } = await jwtVerify(token, key);"],
    ["a constant-time comparison", "if (!crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected))) {"],
    ["bcrypt.compare", "const ok = await bcrypt.compare(password, user.passwordHash);"],
    ["argon2.verify", "if (!(await argon2.verify(user.hash, password))) throw new Unauthorized();"],
    [
      "a project's verify helper",
      'if (!verifySignature(session.token, session.signature)) return { ok: false, reason: "bad" };',
    ],
    ["Firebase's verifyIdToken", "const decoded = await admin.auth().verifyIdToken(idToken);"],
  ];
  it.each(verifying)("%s is a verification", (_name, line) => {
    expect(kindOf("src/auth/token.ts", line)).toBe("verification");
  });

  it("names the call it recognised", () => {
    expect(check("src/auth/token.ts", "const c = jwt.verify(t, key);")).toEqual({
      kind: "verification",
      what: "jwt.verify",
    });
  });

  const decodeOnly: Array<[string, string]> = [
    ["jsonwebtoken's decode", "const claims = jwt.decode(token);"],
    ["jwt-decode", "const claims = jwtDecode<Claims>(token);"],
    ["jose's decodeJwt", "const claims = jose.decodeJwt(token);"],
    ["atob", "const claims = JSON.parse(atob(token.split('.')[1]));"],
    ["a JWT service's decode", "const claims = this.jwtService.decode(token);"],
    ["a decode inside a refusing condition", "if (!jwt.decode(token)) return res.status(401).end();"],
  ];
  it.each(decodeOnly)("%s only decodes", (_name, line) => {
    expect(kindOf("src/auth/token.ts", line)).toBe("decode-only");
  });

  it("a call in a comment or a string shows nothing; an import line shows nothing", () => {
    expect(kindOf("src/auth/token.ts", "// jwt.verify(token, key) is done upstream")).toBeUndefined();
    expect(kindOf("src/auth/token.ts", 'log.info("we call jwt.verify(token, key) later");')).toBeUndefined();
    expect(kindOf("src/auth/token.ts", 'import jwt from "jsonwebtoken";')).toBeUndefined();
    expect(kindOf("src/auth/token.ts", "import { jwtVerify } from 'jose';")).toBeUndefined();
    // A call on a following line is not this line's.
    expect(
      kindOf("src/auth/token.ts", "export function claimsOf(token: string) {", "  return jwt.verify(token, k);", "}"),
    ).toBe(undefined);
  });

  it("a condition that refuses the caller is a rejection, on one line or with its block", () => {
    expect(kindOf("src/middleware/require-admin.ts", "if (!req.user) return res.sendStatus(401);")).toBe("rejection");
    expect(
      kindOf(
        "src/middleware/require-admin.ts",
        "  if (req.user.role !== 'admin') {",
        "    return res.status(403).json({});",
        "  }",
      ),
    ).toBe("rejection");
    expect(kindOf("src/auth/session.ts", 'if (session.expiresAt < now) return { ok: false, reason: "expired" };')).toBe(
      "rejection",
    );
    expect(kindOf("src/auth/session.ts", "if (!user) throw new Error('no user');")).toBe("rejection");
  });

  it("a condition that refuses nothing, or refuses over something else, is not a check", () => {
    expect(
      kindOf("src/middleware/require-admin.ts", "if (!req.user) {", "  log.warn('anonymous');", "}"),
    ).toBeUndefined();
    expect(kindOf("src/auth/parse.ts", "if (input.length > 100) throw new RangeError('long');")).toBeUndefined();
    expect(kindOf("src/auth/session.ts", "return { ok: false, reason: 'expired' };")).toBeUndefined();
  });
});

describe("lineCheck: Python", () => {
  it("PyJWT's decode verifies when given the algorithms, and only decodes when verification is off", () => {
    expect(kindOf("app/auth.py", 'claims = jwt.decode(token, key, algorithms=["HS256"])')).toBe("verification");
    expect(
      kindOf(
        "app/auth.py",
        'claims = jwt.decode(token, key, algorithms=["RS256"], options={"require": ["exp"], "verify_signature": True})',
      ),
    ).toBe("verification");
    expect(kindOf("app/auth.py", 'claims = jwt.decode(token, options={"verify_signature": False})')).toBe(
      "decode-only",
    );
    expect(
      kindOf(
        "app/auth.py",
        'claims = jwt.decode(token, key, algorithms=["HS256"], options={"verify_signature": False})',
      ),
    ).toBe("decode-only");
    expect(kindOf("app/auth.py", "claims = jwt.decode(token, verify=False)")).toBe("decode-only");
    expect(kindOf("app/auth.py", "claims = jwt.decode(token)")).toBe("decode-only");
    // Options built elsewhere may turn it off: not shown on this line.
    expect(kindOf("app/auth.py", 'claims = jwt.decode(token, key, algorithms=["HS256"], options=opts)')).toBe(
      "decode-only",
    );
  });

  it("a decode spread over lines is read to its closing parenthesis", () => {
    expect(
      kindOf(
        "app/auth.py",
        "    claims = jwt.decode(",
        "        token,",
        "        key,",
        '        algorithms=["HS256"],',
        "    )",
      ),
    ).toBe("verification");
    expect(
      kindOf("app/auth.py", "claims = jwt.decode(", "    token,", '    options={"verify_signature": False},', ")"),
    ).toBe("decode-only");
  });

  it("compare_digest, checkpw, check_password_hash and passlib verify are verifications", () => {
    expect(kindOf("app/webhooks.py", "if not hmac.compare_digest(signature, expected):", "    abort(401)")).toBe(
      "verification",
    );
    expect(kindOf("app/auth.py", "ok = bcrypt.checkpw(password.encode(), user.hash)")).toBe("verification");
    expect(kindOf("app/auth.py", "if not check_password_hash(user.pw_hash, password):")).toBe("verification");
    expect(kindOf("app/auth.py", "if not pwd_context.verify(password, user.hashed_password):")).toBe("verification");
  });

  it("get_unverified_claims and base64 decoding only decode", () => {
    expect(kindOf("app/auth.py", "claims = jwt.get_unverified_claims(token)")).toBe("decode-only");
    expect(kindOf("app/auth.py", "payload = json.loads(base64.urlsafe_b64decode(part))")).toBe("decode-only");
  });

  it("a condition whose block raises or aborts is a rejection; one that only logs is not", () => {
    expect(kindOf("app/permissions.py", "    if not request.user.is_staff:", "        raise PermissionDenied()")).toBe(
      "rejection",
    );
    expect(kindOf("app/permissions.py", "if not user:", "    abort(403)")).toBe("rejection");
    expect(kindOf("app/permissions.py", "if not user:", '    log.info("anonymous")', "x = 1")).toBeUndefined();
    expect(kindOf("app/auth.py", '# claims = jwt.decode(token, key, algorithms=["HS256"])')).toBeUndefined();
  });
});

describe("lineCheck: Go", () => {
  it("jwt.Parse and ParseWithClaims verify with a key function, not with nil; ParseUnverified only decodes", () => {
    expect(kindOf("internal/auth/token.go", "token, err := jwt.Parse(raw, keyFunc)")).toBe("verification");
    expect(
      kindOf(
        "internal/auth/token.go",
        "token, err := jwt.Parse(raw, func(t *jwt.Token) (interface{}, error) {",
        "\treturn secret, nil",
        "})",
      ),
    ).toBe("verification");
    expect(kindOf("internal/auth/token.go", "token, err := jwt.ParseWithClaims(raw, &claims, keyFunc)")).toBe(
      "verification",
    );
    expect(kindOf("internal/auth/token.go", "token, err := jwt.Parse(raw, nil)")).toBe("decode-only");
    expect(kindOf("internal/auth/token.go", "token, _, err := jwt.NewParser().ParseUnverified(raw, &claims)")).toBe(
      "decode-only",
    );
    expect(kindOf("internal/auth/token.go", "payload, err := base64.RawURLEncoding.DecodeString(parts[1])")).toBe(
      "decode-only",
    );
  });

  it("ConstantTimeCompare, hmac.Equal, CompareHashAndPassword and an OIDC verifier are verifications", () => {
    expect(kindOf("internal/auth/key.go", "if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {")).toBe(
      "verification",
    );
    expect(kindOf("internal/auth/hook.go", "if !hmac.Equal(sig, mac.Sum(nil)) {")).toBe("verification");
    expect(kindOf("internal/auth/login.go", "err := bcrypt.CompareHashAndPassword(user.Hash, []byte(password))")).toBe(
      "verification",
    );
    expect(kindOf("internal/auth/oidc.go", "idToken, err := verifier.Verify(ctx, rawIDToken)")).toBe("verification");
  });

  it("a condition that writes 401 or returns an error is a rejection", () => {
    expect(
      kindOf(
        "internal/auth/middleware.go",
        "\tif user == nil {",
        '\t\thttp.Error(w, "unauthorized", http.StatusUnauthorized)',
        "\t\treturn",
        "\t}",
      ),
    ).toBe("rejection");
    expect(kindOf("internal/auth/session.go", "if !token.Valid {", "\treturn nil, ErrInvalidToken", "}")).toBe(
      "rejection",
    );
    expect(kindOf("internal/auth/session.go", "if count > 3 {", "\tcount = 0", "}")).toBeUndefined();
  });
});

describe("lineCheck: languages read without a grammar", () => {
  it("knows a few verifications by word, and nothing else", () => {
    expect(kindOf("app/Hooks.scala", "if (!MessageDigest.isEqual(expected, given)) {")).toBe("verification");
    expect(kindOf("Sources/Auth/Hooks.swift", "let ok = hash_equals(a, b)")).toBe("verification");
    expect(kindOf("app/Hooks.scala", "val claims = JwtJson.decode(token)")).toBeUndefined();
  });
});

describe("clearanceNeed", () => {
  it("code that decodes a token, calls a library's verify or reads the Authorization header must show a verification", () => {
    expect(clearanceNeed(added("src/auth/token.ts", ["const c = jwt.decode(t);"]))).toBe("verification");
    expect(clearanceNeed(added("src/auth/token.ts", ["const c = jwt.verify(t, k);"]))).toBe("verification");
    expect(clearanceNeed(added("src/auth/mw.ts", ["const h = req.headers.authorization;"]))).toBe("verification");
    expect(
      clearanceNeed(added("app/auth.py", ["claims = jwt.decode(token, options={'verify_signature': False})"])),
    ).toBe("verification");
    expect(clearanceNeed(added("internal/auth/t.go", ["t, err := jwt.Parse(raw, nil)"]))).toBe("verification");
  });

  it("a route guard or a session check may show a refusal instead", () => {
    expect(
      clearanceNeed(added("src/middleware/require-admin.ts", ["if (!req.user) return res.sendStatus(401);"])),
    ).toBe("verification-or-rejection");
    // A project's own helper does not make it token code.
    expect(
      clearanceNeed(
        added("src/auth/session.ts", ["if (!verifySignature(s.token, s.signature)) return null;"], "modified"),
      ),
    ).toBe("verification-or-rejection");
  });

  it("a file without a patch, or in a language read without a grammar, must show a verification", () => {
    expect(
      clearanceNeed({ filename: "src/auth/big.ts", status: "modified", additions: 9000, deletions: 0, changes: 9000 }),
    ).toBe("verification");
    expect(clearanceNeed(undefined)).toBe("verification");
    expect(clearanceNeed(added("app/Auth.scala", ["if (user == null) throw Forbidden()"]))).toBe("verification");
  });
});

describe("showsNeededCheck", () => {
  it("a verification always does; a rejection only where no token is at stake; a decode never", () => {
    expect(showsNeededCheck({ kind: "verification", what: "jwt.verify" }, "verification")).toBe(true);
    expect(showsNeededCheck({ kind: "rejection", what: "if (!user)" }, "verification")).toBe(false);
    expect(showsNeededCheck({ kind: "rejection", what: "if (!user)" }, "verification-or-rejection")).toBe(true);
    expect(showsNeededCheck({ kind: "decode-only", what: "jwt.decode" }, "verification-or-rejection")).toBe(false);
    expect(showsNeededCheck(undefined, "verification-or-rejection")).toBe(false);
  });
});
