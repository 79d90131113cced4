import { describe, expect, it } from "vitest";
import type { Finding } from "../../../src/domain/finding.js";
import { piiThirdPartyDetector } from "../../../src/detectors/data/pii-third-party.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

async function detectLines(filename: string, lines: string[]): Promise<Finding[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }], repo: "acme/web" });
  return piiThirdPartyDetector.detect(detectContext(pr));
}

const JAVA = "src/main/java/com/acme/crm/ContactSync.java";
const KOTLIN = "src/main/kotlin/com/acme/analytics/Identify.kt";
const CSHARP = "src/Acme.Api/Services/CrmClient.cs";
const PHP = "app/Services/CrmSync.php";
const RUBY = "app/services/analytics_sync.rb";
const RUST = "src/analytics.rs";

/** [label, file, lines, the host the message names]. */
const RISKY: Array<[string, string, string[], string]> = [
  [
    "Java RestTemplate.postForObject with the email",
    JAVA,
    [
      "void push(User user) {",
      '  restTemplate.postForObject("https://api.partner-crm.com/v2/contacts",',
      '      Map.of("email", user.getEmail()), String.class);',
      "}",
    ],
    "api.partner-crm.com",
  ],
  [
    "Java WebClient with the body on the chain",
    JAVA,
    [
      "webClient.post()",
      '    .uri("https://api.partner-crm.com/v2/contacts")',
      '    .bodyValue(Map.of("phone", user.getPhoneNumber()))',
      "    .retrieve();",
    ],
    "api.partner-crm.com",
  ],
  [
    "Kotlin Ktor client.post with setBody in its block",
    KOTLIN,
    [
      'client.post("https://api.segment.io/v1/identify") {',
      "    contentType(ContentType.Application.Json)",
      "    setBody(Traits(userId = user.id, email = user.email))",
      "}",
    ],
    "api.segment.io",
  ],
  [
    "C# PostAsJsonAsync with an anonymous object",
    CSHARP,
    ['await _http.PostAsJsonAsync("https://api.hubapi.com/contacts/v1", new { user.Email, user.FirstName });'],
    "api.hubapi.com",
  ],
  [
    "PHP curl with CURLOPT_POSTFIELDS after curl_init",
    PHP,
    [
      "$ch = curl_init('https://api.segment.io/v1/identify');",
      "curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode(['email' => $user->email]));",
      "curl_exec($ch);",
    ],
    "api.segment.io",
  ],
  [
    "PHP Guzzle on a client built with a base_uri",
    PHP,
    [
      "$client = new Client(['base_uri' => 'https://api.hubspot.com']);",
      "$client->post('/crm/v3/objects/contacts', ['json' => ['phone' => $request->phone]]);",
    ],
    "api.hubspot.com",
  ],
  [
    "Ruby HTTParty.post without parentheses",
    RUBY,
    ['HTTParty.post "https://api.mixpanel.com/engage",', "  body: { distinct_id: user.id, email: user.email }.to_json"],
    "api.mixpanel.com",
  ],
  [
    "Ruby Net::HTTP.post to a URI built from a literal",
    RUBY,
    ['uri = URI("https://hooks.partner.io/leads")', "Net::HTTP.post(uri, { email: params[:email] }.to_json)"],
    "hooks.partner.io",
  ],
  [
    "Rust reqwest with .json on the chain",
    RUST,
    [
      "let res = client",
      '    .post("https://api.segment.io/v1/track")',
      '    .json(&json!({ "event": "signup", "email": user.email }))',
      "    .send()",
      "    .await?;",
    ],
    "api.segment.io",
  ],
];

describe("piiThirdPartyDetector in Java, Kotlin, C#, PHP, Ruby and Rust: violations", () => {
  it.each(RISKY)("%s", async (_label, filename, lines, host) => {
    const findings = await detectLines(filename, lines);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ policy: "DATA-03", file: filename, blocking: true });
    expect(findings[0]?.message).toContain(host);
  });
});

/** [label, file, lines]: ids only, internal hosts, the type in a signature. */
const CLEAN: Array<[string, string, string[]]> = [
  [
    "Java: ids only to a third party",
    JAVA,
    [
      "void push(Order order) {",
      '  restTemplate.postForObject("https://api.mixpanel.com/track", Map.of("order", order.getId()), String.class);',
      "}",
    ],
  ],
  [
    "Java: the email to an internal host",
    JAVA,
    [
      'restTemplate.postForObject("https://crm.acme.internal/contacts", Map.of("email", user.getEmail()), String.class);',
    ],
  ],
  [
    "Kotlin: an id in the block, the User type in the signature",
    KOTLIN,
    [
      "suspend fun identify(user: User) {",
      '  client.post("https://api.segment.io/v1/identify") {',
      "    setBody(Traits(userId = user.id))",
      "  }",
      "}",
    ],
  ],
  [
    "C#: an id only",
    CSHARP,
    [
      "public async Task Push(User user) {",
      '  await _http.PostAsJsonAsync("https://api.hubapi.com/events", new { user.Id });',
      "}",
    ],
  ],
  [
    "PHP: Laravel Http::post to the organisation's own service",
    PHP,
    ["Http::post('https://billing.acme.internal/v1/customers', ['email' => $user->email]);"],
  ],
  [
    "Ruby: an event count",
    RUBY,
    ['HTTParty.post("https://api.mixpanel.com/track", body: { event: "export", count: rows.size }.to_json)'],
  ],
  [
    "Rust: an id only, the lifetime and the User type in the signature",
    RUST,
    [
      "async fn track<'a>(client: &'a Client, user: &'a User) -> Result<()> {",
      '    client.post("https://api.segment.io/v1/track").json(&json!({ "userId": user.id })).send().await?;',
      "    Ok(())",
      "}",
    ],
  ],
];

describe("piiThirdPartyDetector in Java, Kotlin, C#, PHP, Ruby and Rust: clean look-alikes", () => {
  it.each(CLEAN)("%s", async (_label, filename, lines) => {
    expect(await detectLines(filename, lines)).toEqual([]);
  });

  it("reads the six languages by behaviour", () => {
    const pr = buildPr({ files: [JAVA, KOTLIN, CSHARP, PHP, RUBY, RUST].map((filename) => ({ filename, patch: "" })) });
    for (const file of pr.files) expect(piiThirdPartyDetector.reads?.(file), file.filename).toBe(true);
  });
});
