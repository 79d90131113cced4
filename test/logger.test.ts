import { describe, expect, it } from "vitest";
import { createLogger, REDACTED } from "../src/logger.js";

/** A logger writing into an array, one parsed JSON record per line. */
function capture() {
  const lines: string[] = [];
  const log = createLogger({ level: "debug", destination: { write: (line: string) => void lines.push(line) } });
  return { log, lines, text: () => lines.join("") };
}

const SECRETS = {
  token: "ghs_installationTokenValue0001",
  botToken: "xoxb-bot-token-value-0002",
  appToken: "xapp-app-token-value-0003",
  apiKey: "sk-ant-api-key-value-0004",
  privateKey: "-----BEGIN PRIVATE KEY-----value-0005",
  signingSecret: "slack-signing-secret-0006",
  clientSecret: "oauth-client-secret-0007",
  password: "hunter2-password-0008",
  authorization: "Bearer bearer-token-value-0009",
  signature: "sha256=webhook-signature-value-0010",
  octokitAuth: "token ghp_personalAccessToken0011",
  webhookSecret: "github-webhook-secret-0012",
};

describe("createLogger censors credentials", () => {
  it("at the top level and in nested settings-like objects", () => {
    const { log, text } = capture();
    log.info({ token: SECRETS.token, deliveryId: "d-1" }, "installation token issued");
    log.info(
      {
        settings: {
          slack: { botToken: SECRETS.botToken, appToken: SECRETS.appToken, signingSecret: SECRETS.signingSecret },
          claude: { apiKey: SECRETS.apiKey },
          github: { auth: { privateKey: SECRETS.privateKey, clientSecret: SECRETS.clientSecret } },
          webhookSecret: SECRETS.webhookSecret,
        },
        db: { password: SECRETS.password },
      },
      "settings read",
    );
    for (const secret of Object.values(SECRETS).slice(0, 8)) expect(text()).not.toContain(secret);
    expect(text()).not.toContain(SECRETS.webhookSecret);
    expect(text()).toContain(REDACTED);
    // What is not a credential stays readable.
    expect(text()).toContain('"deliveryId":"d-1"');
    expect(text()).toContain("settings read");
  });

  it("in request headers: authorization, cookies, GitHub's and Slack's signatures", () => {
    const { log, lines } = capture();
    log.info(
      {
        req: {
          method: "POST",
          url: "/github/webhook",
          headers: {
            authorization: SECRETS.authorization,
            cookie: "session=cookie-value-0013",
            "x-hub-signature-256": SECRETS.signature,
            "x-slack-signature": "v0=slack-signature-0014",
            "x-github-delivery": "delivery-0015",
          },
        },
      },
      "request",
    );
    log.warn({ headers: { authorization: SECRETS.authorization } }, "top-level headers");
    const all = lines.join("");
    for (const secret of [SECRETS.authorization, "cookie-value-0013", SECRETS.signature, "slack-signature-0014"]) {
      expect(all).not.toContain(secret);
    }
    const record = JSON.parse(lines[0] ?? "{}") as { req: { headers: Record<string, string> } };
    expect(record.req.headers).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      "x-hub-signature-256": REDACTED,
      "x-slack-signature": REDACTED,
      "x-github-delivery": "delivery-0015",
    });
  });

  it("in an error that carries the request it failed on (as Octokit's do)", () => {
    const { log, lines } = capture();
    const error = Object.assign(new Error("Bad credentials"), {
      status: 401,
      request: {
        method: "GET",
        url: "https://api.github.com/repos/acme/web",
        headers: { authorization: SECRETS.octokitAuth },
      },
    });
    log.error({ err: error }, "GitHub call failed");
    expect(lines.join("")).not.toContain("ghp_personalAccessToken0011");
    const record = JSON.parse(lines[0] ?? "{}") as { err: { message: string; request: { headers: unknown } } };
    expect(record.err.message).toBe("Bad credentials");
    expect(record.err.request.headers).toEqual({ authorization: REDACTED });
  });

  it("in a child logger's bindings", () => {
    const { log, text } = capture();
    log.child({ auth: { token: SECRETS.token } }).info("child");
    expect(text()).not.toContain(SECRETS.token);
    expect(text()).toContain("child");
  });

  it("in a grandchild's bindings, keeping its parent's", () => {
    const { log, lines } = capture();
    log
      .child({ deliveryId: "d-2" })
      .child({ headers: { "x-hub-signature-256": SECRETS.signature }, pr: "acme/web#2" })
      .info("grandchild");
    const record = JSON.parse(lines[0] ?? "{}") as Record<string, unknown>;
    expect(record).toMatchObject({ deliveryId: "d-2", pr: "acme/web#2", headers: { "x-hub-signature-256": REDACTED } });
  });

  it("four levels down, in arrays too, without touching the logged objects", () => {
    const { log, lines } = capture();
    const fields = { a: { b: { c: { token: SECRETS.token } } }, list: [{ password: SECRETS.password }], n: 1 };
    log.info(fields, "nested");
    expect(fields.a.b.c.token).toBe(SECRETS.token);
    expect(fields.list[0]?.password).toBe(SECRETS.password);
    const record = JSON.parse(lines[0] ?? "{}") as typeof fields;
    expect(record).toEqual({ ...record, a: { b: { c: { token: REDACTED } } }, list: [{ password: REDACTED }], n: 1 });
  });
});
