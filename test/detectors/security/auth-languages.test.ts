import { describe, expect, it } from "vitest";
import { authChangeDetector } from "../../../src/detectors/security/auth-change.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** SEC-03 findings (line) for one file outside any auth-named folder. */
async function auth(filename: string, patch: string): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch }] });
  const findings = await authChangeDetector.detect(detectContext(pr));
  for (const f of findings) expect(f).toMatchObject({ policy: "SEC-03", blocking: true, needs_more_context: true });
  return findings.map((f) => f.line ?? 0);
}

/** [file, risky added lines (the first is where the finding lands), clean look-alike added lines]. */
const CASES: Array<[string, string[], string[]]> = [
  [
    "src/main/java/com/acme/web/WebConfig.java",
    ["http.csrf().disable();", 'http.authorizeHttpRequests(a -> a.requestMatchers("/admin/**").permitAll());'],
    ['registry.addResourceHandler("/static/**").addResourceLocations("classpath:/static/");'],
  ],
  [
    "src/main/java/com/acme/api/Claims.java",
    ["Claims c = Jwts.parser().setSigningKey(key).parseClaimsJws(token).getBody();"],
    ['Map<String, Object> c = mapper.readValue(body, Map.class); // jwt "parse" later'],
  ],
  [
    "src/main/java/com/acme/api/Decode.java",
    ["DecodedJWT jwt = JWT.decode(token);"],
    ["Document doc = Jsoup.parse(html);"],
  ],
  ["app/src/main/kotlin/acme/Security.kt", ["http { csrf { disable() } }"], ['val cacheKey = "csrf-disabled-${id}"']],
  [
    "app/src/main/kotlin/acme/Members.kt",
    ["val ok = passwordEncoder.matches(raw, member.hash)"],
    ['val ok = raw.matches(Regex("[a-z]+"))'],
  ],
  [
    "src/Api/Controllers/ReportsController.cs",
    ["[AllowAnonymous]", "public IActionResult Export() => Ok();"],
    ["[HttpGet]", "public IActionResult Export() => Ok();"],
  ],
  [
    "src/Api/Startup.cs",
    ["o.TokenValidationParameters = new TokenValidationParameters { ValidateLifetime = false };"],
    ["services.AddControllers().AddJsonOptions(o => o.JsonSerializerOptions.WriteIndented = false);"],
  ],
  [
    "src/Api/Controllers/FormsController.cs",
    ["[HttpPost, IgnoreAntiforgeryToken]", "public IActionResult Save(Form f) => Ok();"],
    ["[HttpPost]", "public IActionResult Save(Form f) => Ok();"],
  ],
  [
    "app/Http/Controllers/MemberController.php",
    ["<?php", "if (password_verify($input, $member->hash)) { $ok = true; }"],
    ["<?php", "$total = array_sum($lines);"],
  ],
  [
    "routes/web.php",
    ["<?php", "Route::post('/hooks/stripe', StripeHook::class)->withoutMiddleware('auth');"],
    ["<?php", "Route::get('/health', HealthController::class);"],
  ],
  [
    "app/Api/Tokens.php",
    ["<?php", "$claims = JWT::decode($jwt, new Key($secret, 'HS256'));"],
    ["<?php", "$claims = json_decode($body, true);"],
  ],
  [
    "app/controllers/admin/reports_controller.rb",
    ["class Admin::ReportsController < ApplicationController", "  skip_before_action :authenticate_user!", "end"],
    ["class Admin::ReportsController < ApplicationController", "  skip_before_action :set_locale", "end"],
  ],
  [
    "app/controllers/webhooks_controller.rb",
    ["class WebhooksController < ApplicationController", "  skip_forgery_protection", "end"],
    ["class WebhooksController < ApplicationController", "  # skip_forgery_protection is not needed", "end"],
  ],
  [
    "app/models/member.rb",
    ["class Member < ApplicationRecord", "  has_secure_password", "end"],
    ["class Member < ApplicationRecord", "  has_many :orders", "end"],
  ],
  ["app/lib/claims.rb", ["payload, = JWT.decode(token, nil, false)"], ["payload = JSON.parse(body)"]],
  [
    "src/claims.rs",
    [
      "use jsonwebtoken::{decode, DecodingKey, Validation};",
      "let data = decode::<Claims>(&token, &DecodingKey::from_secret(key), &validation)?;",
    ],
    ["use base64::Engine;", "let bytes = STANDARD.decode(&input)?;"],
  ],
  [
    "src/api/limits.rs",
    ["let mut v = Validation::new(Algorithm::HS256);", "v.validate_exp = false;"],
    ["let mut v = Vec::with_capacity(8);", "v.push(1);"],
  ],
];

describe("SEC-03 in Java, Kotlin, C#, PHP, Ruby and Rust, by calls, values, attributes and statements", () => {
  it.each(CASES)("%s: the risky form is flagged", async (file, risky) => {
    const first = risky.findIndex((l) => !l.startsWith("<?php") && !/^class /.test(l)) + 1;
    expect(await auth(file, addedFilePatch(risky))).toEqual([first]);
  });

  it.each(CASES)("%s: the look-alike is clean", async (file, _risky, clean) => {
    expect(await auth(file, addedFilePatch(clean))).toEqual([]);
  });

  it.each([
    ["app/controllers/payments_controller.rb", "-  skip_before_action :verify_authenticity_token, only: :callback"],
    ["app/controllers/payments_controller.rb", "-  skip_forgery_protection"],
    ["src/main/java/com/acme/web/WebConfig.java", "-    http.csrf().disable();"],
    ["src/Api/Controllers/FormsController.cs", "-    [IgnoreAntiforgeryToken]"],
    ["routes/web.php", "-Route::post('/upload', Upload::class)->withoutMiddleware('auth');"],
  ])("%s: a removed exemption is hardening, not a change to review", async (file, removed) => {
    const patch = ["@@ -3,3 +3,2 @@", " first();", removed, " last();"].join("\n");
    expect(await auth(file, patch)).toEqual([]);
  });

  it.each([
    ["src/main/java/com/acme/api/AdminController.java", "-  @PreAuthorize(\"hasRole('ADMIN')\")"],
    ["src/Api/Controllers/AdminController.cs", '-    [Authorize(Roles = "Admin")]'],
    ["app/controllers/admin_controller.rb", "-  before_action :authenticate_admin!"],
  ])("%s: a removed guard is a change to review", async (file, removed) => {
    const patch = ["@@ -3,3 +3,2 @@", " first();", removed, " last();"].join("\n");
    expect(await auth(file, patch)).toEqual([4]);
  });
});

describe("Laravel's CSRF exemptions ($except), on the middleware's own authentication path", () => {
  const FILE = "app/Http/Middleware/VerifyCsrfToken.php";
  const hunk = (...changed: string[]) =>
    [
      `@@ -10,5 +10,${5 + changed.filter((l) => l.startsWith("+")).length - changed.filter((l) => l.startsWith("-")).length} @@ class VerifyCsrfToken extends Middleware`,
      "     protected $except = [",
      ...changed,
      "         'stripe/*',",
      "     ];",
      " }",
    ].join("\n");

  it("an entry removed is hardening: no finding, though the path is authentication code", async () => {
    expect(await auth(FILE, hunk("-        'webhooks/*',"))).toEqual([]);
    expect(await auth(FILE, hunk("-        'webhooks/*',", "-        'api/*',"))).toEqual([]);
  });

  it("an entry added opens a route to cross-site requests, and names it", async () => {
    const pr = buildPr({ files: [{ filename: FILE, patch: hunk("+        'webhooks/*',") }] });
    const [finding, ...rest] = await authChangeDetector.detect(detectContext(pr));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ policy: "SEC-03", line: 11 });
  });

  it("an entry removed beside any other change is still a change to review", async () => {
    expect(await auth(FILE, hunk("-        'webhooks/*',", "+        'hooks/*',"))).toEqual([11]);
    // The same removed line outside the list is no exemption dropped, and no decision at all: the
    // middleware's path alone is no finding in a file the gate reads.
    const outside = ["@@ -3,3 +3,2 @@", " first();", "-        'webhooks/*',", " last();"].join("\n");
    expect(await auth(FILE, outside)).toEqual([]);
  });

  it("outside the middleware's path, an entry added to $except is found by what it does", async () => {
    const file = "app/Http/Middleware/TrustForms.php";
    const patch = hunk("+        'upload/*',").replace(
      "class VerifyCsrfToken extends",
      "class TrustForms extends VerifyCsrfToken",
    );
    expect(await auth(file, patch)).toEqual([11]);
    expect(await auth(file, hunk("-        'upload/*',"))).toEqual([]);
  });

  it("the $except of other middlewares (cookies left unencrypted, strings left untrimmed) is not a CSRF list", async () => {
    const trim = hunk("+        'password_confirmation',").replace(
      "class VerifyCsrfToken extends Middleware",
      "class TrimStrings extends BaseTrimmer",
    );
    expect(await auth("app/Http/Middleware/TrimStrings.php", trim)).toEqual([]);
    const cookies = [
      "@@ -0,0 +1,6 @@",
      "+<?php",
      "+class EncryptCookies extends BaseEncrypter",
      "+{",
      "+    protected $except = [];",
      "+}",
      "+",
    ].join("\n");
    expect(await auth("app/Http/Middleware/EncryptCookies.php", cookies)).toEqual([]);
  });

  it("a list opened and closed on one line holds no entry below it", async () => {
    const patch = [
      "@@ -1,4 +1,5 @@ class Forms extends VerifyCsrfToken",
      "     protected $except = [];",
      " ",
      "+    protected $retries = 3;",
      "     public function handle($request, $next) {}",
    ].join("\n");
    expect(await auth("app/Http/Middleware/Forms.php", patch)).toEqual([]);
    expect(await auth("app/Http/Middleware/Forms.php", patch.replace("$except = [];", "$except = ["))).toEqual([3]);
  });
});

describe("PHP cookies: setting one is a use, not a decision", () => {
  it("no cookie set, whatever it carries, is an auth change by itself; a session renewed is", async () => {
    const run = async (line: string) =>
      authChangeDetector.detect(
        detectContext(buildPr({ files: [{ filename: "public/cart.php", patch: addedFilePatch(["<?php", line]) }] })),
      );
    for (const line of [
      "setcookie('cart', json_encode($cart), time() + 86400, '/');",
      "setcookie('remember_me', bin2hex(random_bytes(32)), time() + 86400 * 30, '/');",
      "setcookie(SESSION_COOKIE, session_id());",
      "setcookie($name, $value);",
      "session_start(); $_SESSION['cart'] = $cart;",
    ])
      expect(await run(line), line).toEqual([]);
    expect((await run("session_regenerate_id(true);")).map((f) => f.policy)).toEqual(["SEC-03"]);
  });
});
