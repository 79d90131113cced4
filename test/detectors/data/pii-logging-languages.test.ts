import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/domain/finding.js";
import { piiLoggingDetector } from "../../../src/detectors/data/pii-logging.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

async function detectLines(filename: string, lines: string[]): Promise<Finding[]> {
  return piiLoggingDetector.detect(detectContext(buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] })));
}

const JAVA = "src/main/java/com/acme/users/SignupService.java";
const KOTLIN = "src/main/kotlin/com/acme/routes/Signup.kt";
const CSHARP = "src/Acme.Api/Controllers/UsersController.cs";
const PHP = "app/Http/Controllers/SignupController.php";
const RUBY = "app/controllers/signups_controller.rb";
const RUST = "src/handlers/signup.rs";

/** [file, code, what the message names]: each a logging call that writes personal data or a secret. */
const RISKY: Array<[string, string, string]> = [
  [JAVA, 'log.info("New signup {}", user.getEmail());', "user.getEmail (email)"],
  [JAVA, 'LOGGER.warn("Retrying SMS to " + account.getPhoneNumber());', "account.getPhoneNumber (phone)"],
  [JAVA, 'logger.log(Level.INFO, "reset for {0}", request.getParameter("email"));', "request.email (email)"],
  [JAVA, 'System.out.println("token=" + session.getAccessToken());', "session.getAccessToken (token)"],
  [KOTLIN, 'logger.info { "signup from ${user.email}" }', "user.email (email)"],
  [KOTLIN, 'log.debug("sending code to $phoneNumber")', "phoneNumber (phone)"],
  [KOTLIN, 'println("created $customer")', "customer (user record)"],
  [CSHARP, '_logger.LogInformation("User {Email} signed up", user.Email);', "user.Email (email)"],
  [CSHARP, 'Log.Information($"Card {order.CardNumber} charged");', "order.CardNumber (payment card)"],
  [CSHARP, 'Console.WriteLine(@$"ssn: {applicant.Ssn}");', "applicant.Ssn (government id)"],
  [PHP, "Log::info('Card saved', ['card' => $request->card_number]);", "$request.card_number (payment card)"],
  [PHP, 'error_log("signup {$user->email}");', "$user.email (email)"],
  [PHP, "$this->logger->debug('payload', $request->all());", "$request.all (request body)"],
  [PHP, "var_dump($_POST);", "$_POST (request body)"],
  [RUBY, 'Rails.logger.info "Signup: #{params[:email]}"', "params.email (email)"],
  [RUBY, "logger.debug(params.inspect)", "params.inspect (request parameters)"],
  [RUBY, 'logger.debug { "session #{session_token}" }', "session_token (session id)"],
  [RUBY, "puts current_user.phone", "current_user.phone (phone)"],
  [RUST, 'tracing::info!(email = %user.email, "signup");', "user.email (email)"],
  [RUST, 'info!("password reset for {}", form.email);', "form.email (email)"],
  [RUST, 'println!("logged in: {password}");', "password (password)"],
  [RUST, 'log::debug!("{:?}", customer);', "customer (user record)"],
];

describe("piiLoggingDetector in Java, Kotlin, C#, PHP, Ruby and Rust: violations", () => {
  it.each(RISKY)("%s: %s", async (filename, line, mention) => {
    const findings = await detectLines(filename, ["", line]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ policy: "DATA-01", file: filename, line: 2, blocking: true });
    expect(findings[0]?.message).toContain(mention);
  });

  it("follows a Java logging call over several lines to the added line that names the data", async () => {
    const findings = await detectLines(JAVA, [
      "class SignupService {",
      "  void created(User user) {",
      '    log.info("created account {} for {}",',
      "        user.getId(),",
      "        user.getEmail());",
      "  }",
      "}",
    ]);
    expect(findings.map((f) => f.line)).toEqual([5]);
  });
});

/** [file, code]: ids, counts, masked values, message text, logging calls in strings or comments. */
const CLEAN: Array<[string, string]> = [
  [JAVA, 'log.info("New signup {}", user.getId());'],
  [JAVA, 'log.info("Sent email to {} users", recipients.size());'],
  [JAVA, 'log.info("contact {}", maskEmail(user.getEmail()));'],
  [JAVA, '// log.info("debug {}", user.getEmail());'],
  [KOTLIN, 'logger.info { "signup ${user.id} on plan ${user.plan}" }'],
  [KOTLIN, 'log.info("password reset email sent to user $userId")'],
  [CSHARP, '_logger.LogInformation("User {UserId} signed up with {Email}", user.Id, Redact(user.Email));'],
  [CSHARP, 'Log.Information($"Order {order.Id} charged {order.Total}");'],
  [PHP, "Log::info('Signup', ['user_id' => $user->id]);"],
  [PHP, "error_log('password reset requested for an account');"],
  [RUBY, 'Rails.logger.info "Signup #{user.id} (#{user.plan})"'],
  [RUBY, "logger.info('email sent to the user', user_id: user.id)"],
  [RUBY, "# logger.debug(params.inspect)"],
  // Seen in real Rails code: a gem version's full name is no person's, an api key's id is no secret.
  [RUBY, 'logger.info "Indexing contents of #{release.full_name}"'],
  [RUBY, "logger.tagged(key_id: api_key.id, owner_id: api_key.owner_id) { revoke(api_key) }"],
  [RUBY, "logger.info { { message:, api_key: api_key&.id, full_name: version.full_name } }"],
  [RUST, 'tracing::info!(user_id = %user.id, "signup");'],
  [RUST, 'fn name<\'a>(s: &\'a str) -> &\'static str { info!("count {}", n); "x" }'],
  [RUST, 'let help = "call println!(\\"{}\\", user.email) to debug";'],
];

describe("piiLoggingDetector in Java, Kotlin, C#, PHP, Ruby and Rust: clean look-alikes", () => {
  it.each(CLEAN)("%s: %s", async (filename, line) => {
    expect(await detectLines(filename, ["", line])).toEqual([]);
  });

  it("reads a removed personal-data log line as hardening, not a risk", async () => {
    const patch = [
      "@@ -10,3 +10,3 @@ class SignupService {",
      "   void created(User user) {",
      '-    log.info("created {}", user.getEmail());',
      '+    log.info("created {}", user.getId());',
      "   }",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: JAVA, patch }] });
    expect(await piiLoggingDetector.detect(detectContext(pr))).toEqual([]);
  });

  it("skips a printer in a script: it writes to a terminal", async () => {
    expect(await detectLines("scripts/export_users.rb", ["puts user.email"])).toEqual([]);
    expect(await detectLines("lib/export_users.rb", ["puts user.email"])).toHaveLength(1);
  });

  it("reads the six languages by behaviour", () => {
    const pr = buildPr({ files: [JAVA, KOTLIN, CSHARP, PHP, RUBY, RUST].map((filename) => ({ filename, patch: "" })) });
    for (const file of pr.files) expect(piiLoggingDetector.reads?.(file), file.filename).toBe(true);
  });
});
