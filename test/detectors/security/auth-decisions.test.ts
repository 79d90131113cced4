import { describe, expect, it } from "vitest";
import { authChangeDetector } from "../../../src/detectors/security/auth-change.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** The SEC-03 findings' lines for one changed file, each checked to be SEC-03's blocking form. */
async function lines(filename: string, patch: string): Promise<number[]> {
  const findings = await authChangeDetector.detect(detectContext(buildPr({ files: [{ filename, patch }] })));
  for (const f of findings) expect(f).toMatchObject({ policy: "SEC-03", blocking: true, needs_more_context: true });
  return findings.map((f) => f.line ?? 0);
}

/** A hunk at line 10 of the head file: ` ` context, `-` removed, `+` added lines as given. */
function hunk(...rows: string[]): string {
  const base = rows.filter((r) => !r.startsWith("+")).length;
  const head = rows.filter((r) => !r.startsWith("-")).length;
  return [`@@ -10,${base} +10,${head} @@`, ...rows].join("\n");
}

describe("SEC-03 needs a decision: using a cookie or a session is none", () => {
  it.each([
    [
      "src/main/java/com/acme/web/ThemeServlet.java",
      [
        "protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {",
        '    String theme = "light";',
        "    for (Cookie c : request.getCookies()) {",
        '        if (c.getName().equals("theme")) theme = c.getValue();',
        "    }",
        '    request.getSession().setAttribute("theme", theme);',
        "}",
      ],
    ],
    [
      "src/main/java/com/acme/web/RememberServlet.java",
      [
        'long l = java.security.SecureRandom.getInstance("SHA1PRNG").nextLong();',
        'Cookie rememberMe = new Cookie("rememberMe", Long.toString(l));',
        "rememberMe.setSecure(true);",
        "rememberMe.setHttpOnly(true);",
        "response.addCookie(rememberMe);",
      ],
    ],
    [
      "src/web/theme.js",
      [
        "app.get('/', (req, res) => {",
        "  const theme = req.cookies.theme || 'light';",
        "  res.render('home', { theme });",
        "});",
      ],
    ],
    [
      "src/web/reset.ts",
      [
        "const token = crypto.randomBytes(32).toString('hex');",
        "res.cookie('reset_token', token, { httpOnly: true, secure: true });",
        "req.session.cart = cart;",
      ],
    ],
    [
      "app/views/theme.py",
      [
        "def home(request):",
        "    theme = request.COOKIES.get('theme', 'light')",
        "    return render(request, 'home.html', {'theme': theme})",
      ],
    ],
    [
      "app/views/remember.py",
      [
        "def remember(response):",
        "    response.set_cookie('remember', secrets.token_urlsafe(32), httponly=True)",
        "    session['cart'] = []",
      ],
    ],
    [
      "internal/web/theme.go",
      ['\tc, _ := r.Cookie("theme")', '\thttp.SetCookie(w, &http.Cookie{Name: "seen", Value: "1"})'],
    ],
    [
      "app/controllers/theme_controller.rb",
      ["def show", "  @theme = cookies[:theme] || 'light'", "  session[:cart] = []", "end"],
    ],
    [
      "src/Web/ThemeController.cs",
      [
        'var theme = Request.Cookies["theme"] ?? "light";',
        'Response.Cookies.Append("seen", "1", new CookieOptions { Secure = true });',
      ],
    ],
  ])("%s: no finding", async (file, added) => {
    expect(await lines(file, addedFilePatch(added))).toEqual([]);
  });

  it("a cookie's flags are its transport, not a decision; how sessions are configured is one", async () => {
    expect(await lines("src/web/login.ts", addedFilePatch(["res.cookie('sid', sid, { httpOnly: false });"]))).toEqual(
      [],
    );
    expect(await lines("src/main/java/com/acme/Login.java", addedFilePatch(["sid.setSecure(false);"]))).toEqual([]);
    expect(
      await lines(
        "src/app.ts",
        addedFilePatch(["app.use(session({ secret: cfg.secret, cookie: { httpOnly: false } }));"]),
      ),
    ).toEqual([1]);
  });
});

describe("SEC-03 on a guard: removed or weakened is a finding, added is hardening", () => {
  it("an Express middleware dropped from a route is found where it was; added, or kept on a moved line, it is not", async () => {
    const dropped = hunk(
      " const router = Router();",
      "-router.get('/admin/users', requireAuth, listUsers);",
      "+router.get('/admin/users', listUsers);",
      " export default router;",
    );
    expect(await lines("src/routes/admin.ts", dropped)).toEqual([11]);
    const added = hunk(
      " const router = Router();",
      "-router.get('/admin/users', listUsers);",
      "+router.get('/admin/users', requireAuth, listUsers);",
      " export default router;",
    );
    expect(await lines("src/routes/admin.ts", added)).toEqual([]);
    const moved = hunk(
      "-router.get('/admin/users', requireAuth, listUsers);",
      " const router = Router();",
      "+router.get('/admin/users', requireAuth, listUsers);",
    );
    expect(await lines("src/routes/admin.ts", moved)).toEqual([]);
  });

  it("a role check turned off with || true, or replaced, is a check weakened; a new one is not", async () => {
    const weakened = hunk(
      " function canDelete(user) {",
      "-  if (user.role !== 'admin') return false;",
      "+  if (user.role !== 'admin' && false) return false;",
      "   return true;",
    );
    expect(await lines("src/policies/delete.js", weakened)).toEqual([11]);
    expect(
      await lines(
        "src/policies/delete.js",
        addedFilePatch(["if (user.role === 'admin' || true) {", "  purge();", "}"]),
      ),
    ).toEqual([1]);
    expect(
      await lines(
        "src/policies/delete.js",
        addedFilePatch(["if (!req.user || req.user.role !== 'admin') {", "  return res.status(403).end();", "}"]),
      ),
    ).toEqual([]);
  });

  it("a flag or permission check in any case (isAdmin, canEdit, has_permission) is a guard too", async () => {
    const check = "  if (!req.user.isAdmin) return res.sendStatus(403);";
    expect(await lines("src/routes/purge.js", addedFilePatch([check]))).toEqual([]);
    expect(await lines("src/routes/purge.js", hunk(" function purge(req, res) {", `-${check}`, "   wipe();"))).toEqual([
      11,
    ]);
    const call = "  if (!canEdit(user, doc)) return false;";
    expect(
      await lines(
        "src/docs/policy.ts",
        hunk(" export function save(user, doc) {", `-${call}`, "   return store(doc);"),
      ),
    ).toEqual([11]);
    expect(
      await lines(
        "app/docs/rules.py",
        hunk(" def save(user, doc):", "-    check_permission(user, 'docs.edit')", "     store(doc)"),
      ),
    ).toEqual([11]);
  });

  it("Python: login_required removed, or a staff check removed, is a finding; added it is not", async () => {
    const removed = hunk(" ", "-@login_required", " def export(request):", "     return build(request)");
    expect(await lines("app/reports/views.py", removed)).toEqual([11]);
    expect(
      await lines(
        "app/reports/views.py",
        removed.replace("-@login_required", "+@login_required").replace("-10,4 +10,3", "-10,3 +10,4"),
      ),
    ).toEqual([]);
    const staff = hunk(
      " def purge(request):",
      "-    if not request.user.is_staff:",
      "-        raise PermissionDenied",
      "     wipe()",
    );
    expect(await lines("app/admin/views.py", staff)).toEqual([11]);
  });

  it("Python: a CSRF exemption added is a finding, removed it is hardening", async () => {
    expect(
      await lines("app/hooks/views.py", addedFilePatch(["@csrf_exempt", "def hook(request):", "    pass"])),
    ).toEqual([1]);
    expect(
      await lines(
        "app/hooks/views.py",
        hunk("-from django.views.decorators.csrf import csrf_exempt", " ", "-@csrf_exempt", " def hook(request):"),
      ),
    ).toEqual([]);
  });

  it("Java: @PreAuthorize added is hardening; changed to a weaker role, or a rule turned into permitAll, is a finding", async () => {
    const file = "src/main/java/com/acme/api/ReportController.java";
    expect(
      await lines(
        file,
        hunk(' @GetMapping("/reports")', "+@PreAuthorize(\"hasRole('ADMIN')\")", " public List<Report> all() {"),
      ),
    ).toEqual([]);
    expect(
      await lines(
        file,
        hunk(
          "-@PreAuthorize(\"hasRole('ADMIN')\")",
          "+@PreAuthorize(\"hasRole('USER')\")",
          " public List<Report> all() {",
        ),
      ),
    ).toEqual([10]);
    const permit = hunk(
      '-    .requestMatchers("/admin/**").hasRole("ADMIN")',
      '+    .requestMatchers("/admin/**").permitAll()',
      "     .anyRequest().authenticated());",
    );
    expect(await lines("src/main/java/com/acme/web/SecurityConfig.java", permit)).toEqual([10]);
  });

  it.each([
    ["app/src/main/kotlin/acme/Reports.kt", "@PreAuthorize(\"hasRole('ADMIN')\")", "fun all() = repo.findAll()"],
    ["src/Api/Controllers/ReportsController.cs", '[Authorize(Roles = "Admin")]', "public IActionResult All() => Ok();"],
    ["app/controllers/reports_controller.rb", "  before_action :authenticate_user!", "  def index; end"],
    ["routes/web.php", "Route::get('/reports', Reports::class)->middleware('auth');", "Route::get('/', Home::class);"],
    ["internal/web/routes.go", '\tr.With(RequireAuth).Get("/reports", reports)', '\tr.Get("/", home)'],
    ["src/routes.rs", "    .route_layer(middleware::from_fn(require_auth))", '    .route("/", get(home))'],
  ])("%s: a guard removed is a finding, the same guard added is not", async (file, guard, other) => {
    const prefix = file.endsWith(".php") ? ["<?php"] : [];
    expect(await lines(file, addedFilePatch([...prefix, guard, other]))).toEqual([]);
    expect(await lines(file, hunk(`-${guard}`, ` ${other}`))).toEqual([10]);
  });
});

describe("SEC-03 on a credential: verification replaced, passwords compared", () => {
  it("a JWT verify replaced by decode is a finding", async () => {
    const patch = hunk(
      "-  const claims = jwt.verify(token, publicKey, { algorithms: ['RS256'] });",
      "+  const claims = jwt.decode(token);",
      "   req.user = claims;",
    );
    expect(await lines("src/api/me.ts", patch)).toEqual([10]);
  });

  it.each([
    [
      "src/routes/login.js",
      [
        "app.post('/login', async (req, res) => {",
        "  const user = await users.byEmail(req.body.email);",
        "  if (user && user.password == req.body.password) req.session.uid = user.id;",
        "});",
      ],
      3,
    ],
    [
      "app/views/login.py",
      [
        "def login(request):",
        "    user = User.objects.get(email=request.POST['email'])",
        "    if user.password == request.POST['password']:",
        "        request.session['uid'] = user.id",
      ],
      3,
    ],
    [
      "src/main/java/com/acme/web/Login.java",
      [
        "Member m = members.byEmail(email);",
        'if (m != null && m.getPassword().equals(request.getParameter("password"))) {',
        "    ok = true;",
        "}",
      ],
      2,
    ],
  ])("%s: a new login comparing passwords with == or equals is a finding", async (file, added, line) => {
    expect(await lines(file, addedFilePatch(added))).toEqual([line]);
  });

  it("a password field that is only checked for presence is no comparison", async () => {
    expect(
      await lines("src/forms/signup.ts", addedFilePatch(["if (form.passwordHint === undefined) hint = '';"])),
    ).toEqual([]);
  });
});
