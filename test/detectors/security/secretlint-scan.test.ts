import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { rules as recommendedRules } from "@secretlint/secretlint-rule-preset-recommend";
import {
  maySecretlintFind,
  SECRETLINT_RULE_TOKENS,
  scanWithSecretlint,
} from "../../../src/detectors/security/secretlint-scan.js";

describe("scanWithSecretlint", () => {
  it("finds a known provider key", async () => {
    const hits = await scanWithSecretlint('const key = "AKIAQWERTYUIOPASDFGH";');
    expect(hits.map((h) => h.label)).toContain("AWS Access Key ID");
  });

  it("leaves nothing on Node's global performance timeline, however often it runs", async () => {
    const before = performance.getEntries().length;
    for (let i = 0; i < 40; i++) await scanWithSecretlint(`token_${i} = "AKIAQWERTYUIOPASDFGH"\nplain line ${i}`);
    await new Promise((resolve) => setTimeout(resolve, 20)); // observers run after a tick
    expect(performance.getEntries().length).toBe(before);
  });
});

describe("maySecretlintFind", () => {
  it("knows every rule of the preset the gate runs", () => {
    const ids = recommendedRules
      .map((r) => r.meta.id)
      .filter((id) => id !== "@secretlint/secretlint-rule-filter-comments");
    expect(Object.keys(SECRETLINT_RULE_TOKENS).sort()).toEqual([...ids].sort());
  });

  const b64 = (json: string) => Buffer.from(json).toString("base64");
  // One secret per rule, built here so that no real-looking key sits in the repository. The GCP
  // rule reads only .json and .p12 files, never the added lines scanned as text.
  const samples: Array<[string, string]> = [
    ["aws", `key = "${"AKIA"}${"QWERTYUIOPASDFGH"}"`],
    ["aws", `AWS_SECRET_ACCESS_KEY = "${"a1B2".repeat(10)}"`],
    ["npm", `npm_${"a1".repeat(18)}`],
    ["slack", `xoxb-${"1".repeat(12)}-${"a".repeat(24)}`],
    ["basicauth", "https://deploy:s3cretPassw0rd@example.com/path"],
    ["openai", `sk-${"a".repeat(20)}T3BlbkFJ${"b".repeat(20)}`],
    ["anthropic", `sk-ant-api03-${"a".repeat(93)}AA`],
    ["groq", `gsk_${"a1".repeat(26)}`],
    ["huggingface", `hf_${"a".repeat(34)}`],
    ["linear", `lin_api_${"a1".repeat(20)}`],
    ["notion", `ntn_${"1".repeat(11)}${"a".repeat(35)}`],
    ["privatekey", `-----BEGIN RSA PRIVATE KEY-----\nMI${"IEow".repeat(40)}\n-----END RSA PRIVATE KEY-----`],
    ["sendgrid", `SG.${"a".repeat(22)}.${"b".repeat(43)}`],
    ["shopify", `shpat_${"a1".repeat(16)}`],
    ["stripe", `sk_live_${"a1".repeat(12)}`],
    ["github", `ghp_${"a1".repeat(18)}`],
    ["gitlab", `glpat-${"a".repeat(20)}`],
    ["grafana", `glsa_${"a".repeat(32)}_${"0123abcd"}`],
    ["1password", `ops_${b64(`{"email":"${"x".repeat(121)}"}`)}`],
    ["database-connection-string", "postgres://app:s3cretPassw0rd@db.example.com/app"],
    ["hashicorp-vault", `hvs.${"a1".repeat(48)}`],
    ["vercel", `vcp_${"a1".repeat(12)}`],
    ["databricks", `dapi${"ab12".repeat(8)}`],
    ["docker", `dckr_pat_${"a".repeat(27)}`],
    ["figma", `figd_${"a".repeat(40)}`],
    ["cloudflare", `cfut_${"a".repeat(40)}${"0123abcd"}`],
    ["tailscale", `tskey-auth-${"a1".repeat(6)}-${"b2".repeat(12)}`],
  ];

  it.each(samples)("%s: a secret the rule finds passes the check", async (rule, text) => {
    const hits = await scanWithSecretlint(text);
    expect(hits.map((h) => h.rule.split(":")[0])).toContain(rule);
    expect(maySecretlintFind(text)).toBe(true);
  });

  it("passes over text without any of the pieces", async () => {
    expect(maySecretlintFind("const total = order.total * rate; // sum")).toBe(false);
  });
});
