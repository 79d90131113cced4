import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Detector } from "../../../src/detectors/detector.js";
import type { Finding } from "../../../src/domain/finding.js";
import { piiLoggingDetector } from "../../../src/detectors/data/pii-logging.js";
import { piiStorageDetector } from "../../../src/detectors/data/pii-storage.js";
import { isInternalHost, piiThirdPartyDetector } from "../../../src/detectors/data/pii-third-party.js";
import { parsePullRequest } from "../../../src/domain/pull-request.js";
import { addedFilePatch, buildPr, detectContext, type FileSpec } from "../pr-builder.js";

async function detect(files: FileSpec[]): Promise<Finding[]> {
  return piiThirdPartyDetector.detect(detectContext(buildPr({ files, repo: "acme/web" })));
}

function file(filename: string, lines: string[]): FileSpec {
  return { filename, patch: addedFilePatch(lines) };
}

describe("piiThirdPartyDetector: personal data to a third party", () => {
  it.each([
    [
      "Go http.Post to a partner with a payload built just before",
      "internal/sync/partner.go",
      [
        "func pushSignup(u User) error {",
        '\tpayload, _ := json.Marshal(map[string]string{"email": u.Email, "phone": u.Phone})',
        '\tresp, err := http.Post("https://hooks.partner-crm.com/v2/leads", "application/json", bytes.NewReader(payload))',
        "\treturn err",
        "}",
      ],
      "hooks.partner-crm.com",
    ],
    [
      "Go http.NewRequest to a URL held in a := variable",
      "internal/sync/partner.go",
      [
        'endpoint := "https://ingest.leadsvendor.io/people"',
        'body := strings.NewReader(u.FullName + "," + u.Email)',
        'req, _ := http.NewRequest("POST", endpoint, body)',
      ],
      "ingest.leadsvendor.io",
    ],
    [
      "the Segment Go SDK identifying a user by email",
      "internal/track/track.go",
      [
        "client.Enqueue(analytics.Identify{",
        "\tUserId: u.ID,",
        "\tTraits: analytics.NewTraits().SetEmail(u.Email),",
        "})",
      ],
      "Segment",
    ],
    [
      "Python posting a whole user record with requests",
      "app/hooks.py",
      [
        'requests.post("https://api.newsletter-tool.com/subscribe", json={"user": user.to_dict(), "email": user.email})',
      ],
      "api.newsletter-tool.com",
    ],
    [
      "PostHog in Python with the email as a property",
      "app/track.py",
      ['posthog.capture(user.id, "signed_up", {"email": user.email})'],
      "PostHog",
    ],
  ])("flags %s", async (_label, filename, lines, recipient) => {
    const findings = await detect([file(filename, lines)]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ policy: "DATA-03", blocking: true, file: filename });
    expect(findings[0]?.message).toContain(recipient);
  });

  it("does not take the bare words request, fetch, got or ky for calls", async () => {
    const findings = await detect([
      file("src/jobs/sync.ts", [
        'const request = { url: "https://api.partner-crm.com/v1/contacts", email: user.email };',
        'const got = { from: "https://api.partner-crm.com", phone: user.phone }, fetch = got;',
      ]),
    ]);
    expect(findings).toEqual([]);
  });

  it("flags fetch to an external host with email and name in the body, naming the host", async () => {
    const findings = await detect([
      file("src/analytics/report.ts", [
        "export async function report(user: User) {",
        '  await fetch("https://api.example-analytics.io/track", {',
        '    method: "POST",',
        "    body: JSON.stringify({ email: user.email, name: user.name }),",
        "  });",
        "}",
      ]),
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      policy: "DATA-03",
      specialty: "data",
      severity: "high",
      blocking: true,
      source: "detector",
      detector: "pii-third-party",
      file: "src/analytics/report.ts",
      line: 2,
    });
    expect(findings[0]?.message).toContain("api.example-analytics.io");
    expect(findings[0]?.message).toContain("user.email (email)");
    expect(findings[0]?.message).toContain("user.name (name)");
  });

  it("resolves the host of a URL held in a constant and sees a payload built just before the call", async () => {
    const findings = await detect([
      file("src/crm.ts", [
        'const CRM_URL = "https://hooks.crm-vendor.com/contacts";',
        "export async function sync(c: Contact) {",
        "  const payload = { phone: c.phoneNumber, dob: c.dateOfBirth };",
        "  await axios.post(CRM_URL, payload);",
        "}",
      ]),
    ]);
    expect(findings.map((f) => [f.line, /to ([\w.-]+),/.exec(f.message)?.[1]])).toEqual([[4, "hooks.crm-vendor.com"]]);
  });

  it("flags Python requests with personal data in keyword arguments", async () => {
    const findings = await detect([
      file("app/hooks.py", ['    requests.post("https://webhook.partner.net/in", json={"email": user.email})']),
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toContain("webhook.partner.net");
  });

  it("flags analytics SDK calls with personal data, and names a newly added SDK dependency", async () => {
    const pkg: FileSpec = {
      filename: "package.json",
      patch: [
        "@@ -5,3 +5,4 @@",
        '   "dependencies": {',
        '+    "mixpanel": "^0.18.0",',
        '     "zod": "^4.0.0"',
        "   }",
      ].join("\n"),
    };
    const code = file("src/track.ts", [
      'import Mixpanel from "mixpanel";',
      "const mp = Mixpanel.init(config.mixpanelProject);",
      'export const track = (u: User) => mp.track("signup", { distinct_id: u.id, $email: u.email });',
    ]);
    const findings = await detect([pkg, code]);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.line).toBe(3);
    expect(findings[0]?.message).toContain("to Mixpanel");
    expect(findings[0]?.message).toContain("the PR also adds mixpanel");
  });

  it("follows a Python SDK client built from an added import", async () => {
    const findings = await detect([
      file("app/events.py", [
        "from posthog import Posthog",
        "client = Posthog(settings.POSTHOG_KEY)",
        'client.capture(distinct_id=user.id, event="signup", properties={"phone": user.phone})',
      ]),
    ]);
    expect(findings.map((f) => [f.line, f.message.includes("to PostHog")])).toEqual([[3, true]]);
  });

  it("flags a global analytics call identifying a user by email", async () => {
    const findings = await detect([file("web/app.tsx", ["analytics.identify(user.id, { email: user.email, plan });"])]);
    expect(findings[0]?.message).toContain("to Segment");
  });
});

describe("piiThirdPartyDetector: no finding", () => {
  it.each([
    ["an internal host", ['await fetch("http://billing.internal/charge", { body: JSON.stringify({ email }) });']],
    ["localhost", ['await axios.post("http://localhost:4000/users", { email: user.email });']],
    ["a single-label service name", ['await fetch("http://users-api/v1", { body: JSON.stringify({ email }) });']],
    [
      "the organisation's own domain",
      ['await fetch("https://api.acme.com/v1/users", { body: JSON.stringify({ email }) });'],
    ],
    ["a relative URL", ['await fetch("/api/profile", { body: JSON.stringify({ email: user.email }) });']],
    [
      "no personal data",
      ['await fetch("https://api.example-analytics.io/track", { body: JSON.stringify({ userId: u.id }) });'],
    ],
    [
      "only an API key header",
      ['await fetch("https://api.vendor.io/x", { headers: { authorization: apiKey }, body: "{}" });'],
    ],
    ["a host that is not a literal", ["await fetch(process.env.TRACK_URL, { body: JSON.stringify({ email }) });"]],
    ["an analytics call with an id", ['analytics.track({ userId: user.id, event: "plan_upgraded" });']],
  ])("%s", async (_label, lines) => {
    expect(await detect([file("src/x.ts", lines)])).toEqual([]);
  });

  it("ignores calls that this PR did not add", async () => {
    const patch = [
      "@@ -1,3 +1,4 @@",
      ' await fetch("https://api.example-analytics.io/track", {',
      "   body: JSON.stringify({ email: user.email }),",
      " });",
      "+const done = true;",
    ].join("\n");
    expect(await detect([{ filename: "src/x.ts", patch }])).toEqual([]);
  });

  it("skips test files and docs", async () => {
    const lines = ['await fetch("https://api.example-analytics.io/track", { body: JSON.stringify({ email }) });'];
    expect(await detect([file("test/track.test.ts", lines), file("README.md", lines)])).toEqual([]);
  });

  it("tells internal hosts from external ones", () => {
    expect(isInternalHost("10.1.2.3")).toBe(true);
    expect(isInternalHost("[::1]")).toBe(true);
    expect(isInternalHost("db.svc.cluster.local")).toBe(true);
    expect(isInternalHost("api.acme.com", "acme")).toBe(true);
    expect(isInternalHost("api.example-analytics.io", "acme")).toBe(false);
    expect(isInternalHost("172.32.0.1")).toBe(false);
  });
});

const FixtureExpectation = (dir: string) =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/${dir}/expected.json`, import.meta.url), "utf8")) as {
    must_cite: string[];
    must_not_cite: string[];
  };

describe("the DATA fixtures", () => {
  const detectors: Detector[] = [piiLoggingDetector, piiStorageDetector, piiThirdPartyDetector];
  it.each(["013_logs_user_email", "014_new_pii_column", "015_pii_to_third_party", "016_tests_only"])(
    "%s: the data detectors cite what expected.json asks",
    async (dir) => {
      const read = (name: string): unknown =>
        JSON.parse(readFileSync(new URL(`../../../fixtures/${dir}/${name}`, import.meta.url), "utf8"));
      const pr = parsePullRequest(read("pr.json"), read("files.json"));
      const findings = (await Promise.all(detectors.map((d) => d.detect(detectContext(pr))))).flat();
      const cited = new Set(findings.map((f) => f.policy));
      const expected = FixtureExpectation(dir);
      for (const id of expected.must_cite.filter((p) => p.startsWith("DATA-"))) expect(cited).toContain(id);
      for (const id of expected.must_not_cite.filter((p) => p.startsWith("DATA-"))) expect(cited).not.toContain(id);
      if (dir === "016_tests_only") expect(findings).toEqual([]);
      if (dir === "014_new_pii_column") expect(findings.every((f) => !f.blocking)).toBe(true);
    },
  );
});
