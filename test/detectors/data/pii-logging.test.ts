import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/domain/finding.js";
import { piiLoggingDetector } from "../../../src/detectors/data/pii-logging.js";
import { classifyIdentifier, findDataMentions } from "../../../src/detectors/data/pii-vocabulary.js";
import { sanitizeCode } from "../../../src/detectors/code-lines.js";
import { addedFilePatch, buildPr, detectContext, type FileSpec } from "../pr-builder.js";

async function detect(files: FileSpec[]): Promise<Finding[]> {
  return piiLoggingDetector.detect(detectContext(buildPr({ files })));
}

/** Findings for one new file holding `lines`. */
async function detectLines(filename: string, lines: string[]): Promise<Finding[]> {
  return detect([{ filename, patch: addedFilePatch(lines) }]);
}

describe("piiLoggingDetector: violations", () => {
  it.each([
    ["src/users.ts", "logger.info(`new user: ${user.email}`);", "user.email"],
    ["src/users.ts", 'console.log("signup", req.body);', "req.body"],
    ["src/users.ts", 'log.debug("headers", req.headers);', "req.headers"],
    ["src/users.ts", 'this.logger.warn("auth", req.headers["authorization"]);', "req.headers.authorization"],
    ["src/users.ts", 'logger.info({ firstName, lastName }, "profile saved");', "firstName"],
    ["src/users.ts", 'console.error("lookup failed", customer.name, err);', "customer.name"],
    ["src/users.ts", 'logger.debug("login", { password });', "password"],
    ["src/users.ts", 'auditLog.info("session", { sessionId: req.sessionId });', "sessionId"],
    ["src/users.ts", "Sentry.setUser({ email: account.email });", "account.email"],
    ["src/users.ts", "Sentry.captureException(err, { extra: { body: request.body } });", "request.body"],
    ["app/views.py", 'logger.info(f"created {user.first_name} born {user.date_of_birth}")', "user.first_name"],
    ["app/views.py", 'logging.warning("token %s", access_token)', "access_token"],
    ["app/views.py", 'print("phone", profile.phone_number)', "profile.phone_number"],
    ["cmd/server.go", 'log.Printf("user %s ssn %s", u.Email, u.SSN)', "u.Email"],
  ])("%s: %s", async (filename, line, mention) => {
    const findings = await detectLines(filename, ["// handler", line]);
    expect(findings).toHaveLength(1);
    const f = findings[0];
    expect(f).toMatchObject({
      policy: "DATA-01",
      specialty: "data",
      severity: "high",
      blocking: true,
      source: "detector",
      detector: "pii-logging",
      file: filename,
      line: 2,
    });
    expect(f?.message).toContain(mention);
  });

  it("follows a call over several lines and reports the line naming the data", async () => {
    const findings = await detectLines("src/orders.ts", [
      'logger.info("order placed", {',
      "  orderId: order.id,",
      "  shippingAddress: order.shippingAddress,",
      "});",
    ]);
    expect(findings.map((f) => f.line)).toEqual([3]);
    expect(findings[0]?.message).toContain("order.shippingAddress (address)");
  });

  it("flags a new argument added inside an existing logging call", async () => {
    const patch = [
      "@@ -10,4 +10,5 @@ export function save(user) {",
      '   logger.info("user saved", {',
      "     userId: user.id,",
      "+    email: user.email,",
      "   });",
      " }",
    ].join("\n");
    const findings = await detect([{ filename: "src/save.ts", patch }]);
    expect(findings.map((f) => f.line)).toEqual([12]);
  });
});

describe("piiLoggingDetector: no violation", () => {
  it.each([
    ["ids only", 'log.info("user created", { userId });'],
    ["an id read from the user", 'logger.info("user created", { userId: user.id, plan: user.plan });'],
    ["words inside the message text", 'logger.warn("password reset email sent to the user", { userId });'],
    ["masked values", 'logger.info("contact", { email: maskEmail(user.email), phone: redact(phone) });'],
    ["metadata about the data", 'logger.info("stats", { emailSent: true, tokenCount, isEmail, passwordLength: 0 });'],
    ["pagination and LLM tokens", 'log.debug("page", { nextPageToken, inputTokens, maxTokens });'],
    ["network addresses", 'console.log("listening on", server.address(), ipAddress);'],
    ["names of things, not people", 'logger.info("job done", { name: job.name, queue: queue.name });'],
    ["a function named after the data", "logger.info(sendEmail.name, buildPhoneIndex());"],
    ["data outside any logging call", "const email = user.email; await users.update(user.id, { email });"],
    ["a comment", "// logger.info(user.email)"],
  ])("%s", async (_label, line) => {
    expect(await detectLines("src/users.ts", [line])).toEqual([]);
  });

  it("ignores removed lines and unchanged logging calls", async () => {
    const patch = [
      "@@ -1,3 +1,3 @@",
      ' logger.info("old", user.email);',
      '-console.log("removed", req.body);',
      '+console.log("kept", user.id);',
    ].join("\n");
    expect(await detect([{ filename: "src/a.ts", patch }])).toEqual([]);
  });

  it("skips test files, documentation, scripts' prints and non-code files", async () => {
    const line = 'console.log("fixture user", user.email, req.body);';
    expect(await detectLines("test/users.test.ts", [line])).toEqual([]);
    expect(await detectLines("src/__tests__/users.ts", [line])).toEqual([]);
    expect(await detectLines("docs/logging.md", [line])).toEqual([]);
    expect(await detectLines("config/app.yml", [line])).toEqual([]);
    expect(await detectLines("scripts/export.py", ['print("exported", user.email)'])).toEqual([]);
    expect(await detectLines("app/export.py", ['print("exported", user.email)'])).toHaveLength(1);
  });

  it("does not throw on a file without a patch", async () => {
    expect(await detect([{ filename: "src/big.ts" }])).toEqual([]);
  });
});

describe("pii vocabulary", () => {
  it.each([
    ["dateOfBirth", undefined, "date of birth"],
    ["phone_number", undefined, "phone"],
    ["USER_EMAIL", undefined, "email"],
    ["name", "currentUser", "name"],
    ["name", "job", undefined],
    ["address", "server", undefined],
    ["homeAddress", undefined, "address"],
    ["ipAddress", undefined, undefined],
    ["className", undefined, undefined],
    ["apiKey", undefined, "secret"],
    ["refreshToken", undefined, "token"],
    ["tokenType", undefined, undefined],
    ["emailVerified", undefined, undefined],
  ])("classifies %s (parent %s) as %s", (identifier, parent, kind) => {
    expect(classifyIdentifier(identifier, parent)).toBe(kind);
  });

  it("keeps template and f-string interpolations but drops string text and comments", () => {
    expect(sanitizeCode('log(`to ${user.email}`, "email") // email', "js")).toBe('log(` user.email `, "") ');
    expect(sanitizeCode('log(f"to {user.email} {{x}}", "email")  # email', "python")).toBe(
      'log(f" user.email ", "")  ',
    );
  });

  it("reads string keys as members", () => {
    const mentions = findDataMentions(sanitizeCode('x(req.headers["x-api-key"], body.get("email"))', "js"));
    expect(mentions.map((m) => m.text)).toEqual(["req.headers.x_api_key", "body.email"]);
  });
});

describe("piiLoggingDetector: whole requests, user objects and logger fields (parsed)", () => {
  it.each([
    ["src/api/signup.ts", "console.log(req.body);", "req.body (request body)"],
    ["src/api/signup.ts", "logger.info({ query: req.query }, 'search');", "req.query (request parameters)"],
    ["src/api/signup.ts", "logger.debug(req.params);", "req.params (request parameters)"],
    ["src/api/signup.ts", "console.log('incoming', req);", "req (request)"],
    ["src/api/signup.ts", "logger.info(user);", "user (user record)"],
    ["src/api/signup.ts", "this.logger.warn('login failed', { user });", "user (user record)"],
    ["src/api/signup.ts", "logger.child({ customer: req.user }).info('checkout');", "req.user (user record)"],
    ["src/api/signup.ts", "console.log(JSON.stringify(currentUser));", "currentUser (user record)"],
    ["app/views.py", 'logging.info("%s", request.headers)', "request.headers (request headers)"],
    ["app/views.py", 'logger.info("search %s", request.args)', "request.args (request parameters)"],
    ["app/views.py", 'logger.debug("form: %r", request.POST)', "request.POST (request body)"],
    ["app/views.py", 'log.info("login", user=user)', "user (user record)"],
    ["app/views.py", 'logging.getLogger(__name__).info("creds %s", credentials)', "credentials (secret)"],
    ["app/views.py", 'logger.bind(customer=customer).info("order placed")', "customer (user record)"],
    ["cmd/api/handler.go", 'log.Printf("%+v", user)', "user (user record)"],
    ["cmd/api/handler.go", 'log.Printf("headers: %v", r.Header)', "r.Header (request headers)"],
    ["cmd/api/handler.go", 'slog.Info("search", "query", r.URL.Query())', "r.URL.Query (request parameters)"],
    ["cmd/api/handler.go", 'logger.Info("login", zap.Any("user", user))', "user (user record)"],
    ["cmd/api/handler.go", 'logrus.WithFields(logrus.Fields{"email": u.Email}).Info("signup")', "u.Email (email)"],
    ["cmd/api/handler.go", 'sugar.Infow("token refreshed", "token", session.Token)', "session.Token (token)"],
  ])("%s: %s", async (filename, line, mention) => {
    const findings = await detectLines(filename, ["", line]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ policy: "DATA-01", file: filename, line: 2, blocking: true });
    expect(findings[0]?.message).toContain(mention);
  });

  it.each([
    ["an id of the user", "src/a.ts", "logger.info({ user: user.id }, 'login');"],
    ["a redacted user", "src/a.ts", "logger.info({ user: redactUser(user) }, 'login');"],
    ["a sanitized request", "src/a.ts", "logger.debug(sanitizeRequest(req), 'incoming');"],
    ["the request's method and path", "src/a.ts", "logger.info(`${req.method} ${req.path}`);"],
    ["a user count", "src/a.ts", "logger.info('synced', users.length);"],
    ["a logging call inside a template string", "src/a.ts", "const help = `call console.log(req.body) to debug`;"],
    ["a logging call in a block comment's middle line", "src/a.ts", "/*\n  logger.info(user)\n*/"],
    ["a keyword argument holding an id", "app/a.py", 'log.info("login", user=user.id)'],
    [
      "a docstring that shows a logging call",
      "app/a.py",
      'def f():\n    """Example:\n    logging.info(request.headers)\n    """',
    ],
    ["a string that mentions the request", "app/a.py", 'logger.info("request.body was empty")'],
    ["an id in Go", "svc/a.go", 'log.Printf("user %d logged in", user.ID)'],
    ["a Go raw string", "svc/a.go", 'const usage = `log.Printf("%+v", user)`'],
    ["zap fields with ids only", "svc/a.go", 'logger.Info("login", zap.String("user_id", user.ID))'],
  ])("%s", async (_label, filename, text) => {
    expect(await detectLines(filename, text.split("\n"))).toEqual([]);
  });

  it("judges only the added rows of a parsed multi-line call", async () => {
    const patch = [
      "@@ -3,4 +3,5 @@ def create(request):",
      "     logger.info(",
      '         "created %s %s",',
      "         user.email,",
      "+        user.id,",
      "     )",
    ].join("\n");
    expect(await detect([{ filename: "app/users.py", patch }])).toEqual([]);
  });
});
