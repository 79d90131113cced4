import { describe, expect, it } from "vitest";
import type { ChangedFile } from "../../../src/domain/pull-request.js";
import { clearanceNeed, lineCheck } from "../../../src/investigator/auth-checks/line-check.js";

/** What line 1 of `file`, with the lines after it, shows. */
const kindOf = (file: string, ...lines: string[]) => lineCheck(file, (n) => lines[n - 1], 1)?.kind;

function added(filename: string, lines: string[]): ChangedFile {
  return {
    filename,
    status: "added",
    additions: lines.length,
    deletions: 0,
    changes: lines.length,
    patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`,
  };
}

/** [file, a line that verifies, a line that only decodes (or shows nothing), what that second line shows]. */
const CASES: Array<[string, string, string, "decode-only" | undefined]> = [
  [
    "src/main/java/com/acme/auth/Tokens.java",
    "Claims c = Jwts.parserBuilder().setSigningKey(key).build().parseClaimsJws(token).getBody();",
    "Claims c = Jwts.parser().parseClaimsJwt(token).getBody();",
    "decode-only",
  ],
  [
    "src/main/java/com/acme/auth/Auth0.java",
    'DecodedJWT jwt = JWT.require(Algorithm.HMAC256(secret)).withIssuer("acme").build().verify(token);',
    "DecodedJWT jwt = JWT.decode(token);",
    "decode-only",
  ],
  [
    "src/main/java/com/acme/auth/Passwords.java",
    "if (!BCrypt.checkpw(candidate, member.getHash())) {",
    "// BCrypt.checkpw(candidate, hash) is called upstream",
    undefined,
  ],
  [
    "app/src/main/kotlin/acme/auth/Login.kt",
    "val ok = passwordEncoder.matches(raw, member.passwordHash)",
    'val claims = String(Base64.getUrlDecoder().decode(token.split(".")[1]))',
    "decode-only",
  ],
  [
    "src/Api/Auth/Tokens.cs",
    "var principal = handler.ValidateToken(token, parameters, out _);",
    "var jwt = new JwtSecurityTokenHandler().ReadJwtToken(token);",
    "decode-only",
  ],
  [
    "src/Api/Auth/Passwords.cs",
    "if (!BCrypt.Net.BCrypt.Verify(password, user.Hash)) return Unauthorized();",
    'var hint = "BCrypt.Verify(password, hash)";',
    undefined,
  ],
  [
    "app/Auth/Login.php",
    "if (!password_verify($password, $row['hash'])) {",
    "$claims = JWT::decode($jwt);",
    "decode-only",
  ],
  [
    "app/Auth/Tokens.php",
    "$claims = JWT::decode($jwt, new Key($secret, 'HS256'));",
    "$payload = base64_decode($parts[1]);",
    "decode-only",
  ],
  [
    "app/controllers/hooks_controller.rb",
    "return head :unauthorized unless ActiveSupport::SecurityUtils.secure_compare(sig, expected)",
    "payload, = JWT.decode(token, nil, false)",
    "decode-only",
  ],
  [
    "app/lib/auth/claims.rb",
    "payload, = JWT.decode(token, key, true, algorithm: 'HS256')",
    "payload, = JWT.decode(token, key, false)",
    "decode-only",
  ],
  [
    "src/auth/claims.rs",
    "let data = decode::<Claims>(&token, &DecodingKey::from_secret(key), &validation)?;",
    "let data = dangerous_insecure_decode::<Claims>(&token)?;",
    "decode-only",
  ],
  [
    "src/auth/passwords.rs",
    "let ok = bcrypt::verify(password, &stored)?;",
    "let header = decode_header(&token)?;",
    "decode-only",
  ],
];

describe("lineCheck in Java, Kotlin, C#, PHP, Ruby and Rust: a clearance counts only on a real verify/compare call", () => {
  it.each(CASES)("%s: the verifying line is a verification", (file, verifying) => {
    expect(kindOf(file, verifying)).toBe("verification");
  });

  it.each(CASES)("%s: the look-alike is not", (file, _verifying, other, shows) => {
    expect(kindOf(file, other)).toBe(shows);
  });

  it("conditions that refuse the caller are rejections in each language", () => {
    expect(
      kindOf(
        "src/main/java/com/acme/auth/Guard.java",
        "if (user == null) {",
        '  throw new AccessDeniedException("no");',
        "}",
      ),
    ).toBe("rejection");
    expect(
      kindOf(
        "app/src/main/kotlin/acme/auth/Guard.kt",
        "if (session == null) return call.respond(HttpStatusCode.Unauthorized)",
      ),
    ).toBe("rejection");
    expect(kindOf("src/Api/Auth/Guard.cs", 'if (!User.IsInRole("Admin")) return Forbid();')).toBe("rejection");
    expect(kindOf("app/Auth/Guard.php", "if (!$user) { abort(403); }")).toBe("rejection");
    expect(kindOf("app/controllers/admin_controller.rb", "if current_user.nil?", "  head :unauthorized", "end")).toBe(
      "rejection",
    );
    expect(kindOf("src/auth/guard.rs", "if claims.exp < now {", "    return Err(AuthError::Expired);", "}")).toBe(
      "rejection",
    );
    expect(kindOf("src/auth/guard.rs", "if count > 3 {", "    count = 0;", "}")).toBeUndefined();
  });

  it("code that decodes a token must show a verification; a route guard may show a refusal", () => {
    expect(clearanceNeed(added("app/lib/auth/claims.rb", ["payload, = JWT.decode(token, nil, false)"]))).toBe(
      "verification",
    );
    expect(clearanceNeed(added("src/Api/Auth/Tokens.cs", ["var jwt = handler.ReadJwtToken(token);"]))).toBe(
      "verification",
    );
    expect(clearanceNeed(added("app/controllers/admin_controller.rb", ["return head(:forbidden) unless user"]))).toBe(
      "verification-or-rejection",
    );
  });
});
