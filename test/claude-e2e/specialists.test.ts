import { describe, expect, it } from "vitest";
import { maxTokensTruncated, overloaded, textMessage, unauthorized } from "../fakes/anthropic-api.js";
import { reviewFixture } from "../helpers/gate.js";
import { modelGate, requestsOf, routeByCaller, useFakeAnthropic } from "./helpers.js";

/** The licensing reviewer's policies, as the system prompt lists them for fixture 010. */
const LICENSING_COMPLIANT = {
  findings: [],
  verdicts: [
    { policy: "LIC-01", verdict: "compliant", reason: "MIT is on the allow-list" },
    { policy: "LIC-02", verdict: "compliant", reason: "MIT OR GPL lets us choose MIT" },
  ],
};

const fake = useFakeAnthropic();
const gates = fake.gates;

async function gate(env: Record<string, string> = {}) {
  const g = await modelGate(fake.api, env);
  gates.push(g);
  return g;
}

describe("Claude as specialist, through the whole gate and the real SDK", () => {
  it("a clean answer gives a clean review: approved, with the call's tokens and cost in the budget", async () => {
    routeByCaller(fake.api, {
      licensing: [
        textMessage(LICENSING_COMPLIANT, { input_tokens: 1000, output_tokens: 200, cache_creation_input_tokens: 0 }),
      ],
    });
    const r = await reviewFixture(await gate(), "010_mit_or_gpl_dependency");

    expect(r.route).toBe("approved");
    expect(r.escalation).toBeNull();
    expect(r.findings).toEqual([]);
    expect(requestsOf(fake.api, "licensing")).toHaveLength(1);
    expect(r.budget.model_calls).toBe(fake.api.requests.length);
    expect(r.budget.input_tokens).toBe(1000 * fake.api.requests.length);
    // 1000 × $2 + 200 × $10 per million (Sonnet 5.5), per call
    expect(r.budget.cost_usd).toBeCloseTo(0.004 * fake.api.requests.length, 6);
  });

  it("a blocking finding the model adds sends the review to a person", async () => {
    routeByCaller(fake.api, {
      security: [
        textMessage({
          findings: [
            {
              policy: "SEC-02",
              severity: "high",
              blocking: true,
              needs_more_context: false,
              file: "src/util/id.ts",
              line: 3,
              message: "The id is fed to a shell command built by interpolation.",
            },
          ],
          verdicts: [{ policy: "SEC-02", verdict: "violated", reason: "shell built from input" }],
        }),
      ],
    });
    const r = await reviewFixture(await gate(), "008_weak_crypto");

    expect(r.route).toBe("human");
    expect(r.status).toBe("waiting_for_human");
    expect(r.escalation).toMatchObject({ reason: "blocking_finding" });
    expect(r.escalation?.detail).toContain("SEC-02");
    expect(r.findings).toContainEqual(
      expect.objectContaining({
        policy: "SEC-02",
        blocking: true,
        file: "src/util/id.ts",
        line: 3,
        specialty: "security",
      }),
    );
    // The detector's own finding stands beside the model's.
    expect(r.findings.some((f) => f.policy === "SEC-05")).toBe(true);
  });

  it("a model calling SEC-01 compliant where the detector flagged it is a disagreement, and the detector's finding stays", async () => {
    routeByCaller(fake.api, {
      security: [
        textMessage({
          findings: [],
          verdicts: [{ policy: "SEC-01", verdict: "compliant", reason: "these look like placeholder keys" }],
        }),
      ],
    });
    const r = await reviewFixture(await gate(), "004_hardcoded_aws_key");

    expect(requestsOf(fake.api, "security")).toHaveLength(1);
    expect(r.route).toBe("human");
    expect(r.escalation?.reason).toBe("disagreement");
    expect(r.escalation?.detail).toContain("SEC-01");
    expect(r.findings).toContainEqual(
      expect.objectContaining({ policy: "SEC-01", blocking: true, severity: "critical" }),
    );
  });

  it("malformed JSON twice is a specialist_error escalation, never a pass, and both calls are counted", async () => {
    routeByCaller(fake.api, { licensing: [textMessage("Looks fine to me!"), textMessage('{"findings": [')] });
    const r = await reviewFixture(await gate(), "010_mit_or_gpl_dependency");

    expect(requestsOf(fake.api, "licensing")).toHaveLength(2);
    expect(r.route).toBe("human");
    expect(r.status).toBe("waiting_for_human");
    expect(r.escalation?.reason).toBe("specialist_error");
    expect(r.escalation?.detail).toMatch(/licensing specialist failed: .*no usable answer twice/);
    expect(r.budget.model_calls).toBe(2);
    // The retry told the model why its first answer was rejected.
    const retry = requestsOf(fake.api, "licensing")[1]?.body?.messages[0]?.content;
    expect(String(retry)).toMatch(/Your previous answer was rejected: the answer is not the schema's JSON/);
  });

  it("an answer cut off at max_tokens is retried with a larger max_tokens, then accepted", async () => {
    routeByCaller(fake.api, { licensing: [maxTokensTruncated(), textMessage(LICENSING_COMPLIANT)] });
    const r = await reviewFixture(await gate({ GATE_MODEL_MAX_TOKENS: "2048" }), "010_mit_or_gpl_dependency");

    const sent = requestsOf(fake.api, "licensing");
    expect(sent.map((q) => q.body?.max_tokens)).toEqual([2048, 4096]);
    expect(r.route).toBe("approved");
    expect(r.escalation).toBeNull();
    expect(r.budget.model_calls).toBe(2);
  });

  it("a 529 overloaded answer is retried by the SDK, then the review goes on", async () => {
    routeByCaller(fake.api, { licensing: [overloaded(), textMessage(LICENSING_COMPLIANT)] });
    const r = await reviewFixture(await gate(), "010_mit_or_gpl_dependency");

    expect(requestsOf(fake.api, "licensing")).toHaveLength(2);
    expect(r.route).toBe("approved");
    // Only the answered call is a model call with tokens.
    expect(r.budget.model_calls).toBe(1);
  });

  it("a 401 (wrong key) is an escalation naming the failure, not a crash", async () => {
    routeByCaller(fake.api, {}, () => unauthorized());
    const r = await reviewFixture(await gate(), "010_mit_or_gpl_dependency");

    expect(requestsOf(fake.api, "licensing")).toHaveLength(1); // 401 is not retried
    expect(r.status).toBe("waiting_for_human");
    expect(r.route).toBe("human");
    expect(r.escalation?.reason).toBe("specialist_error");
    expect(r.escalation?.detail).toMatch(/401/);
    expect(r.budget.model_calls).toBe(0);
  });

  it("sends the key, the configured model and a system prompt whose policy block carries cache_control", async () => {
    routeByCaller(fake.api, {});
    await reviewFixture(await gate({ GATE_MODEL_SPECIALIST: "claude-haiku-4-5" }), "008_weak_crypto");

    expect(fake.api.requests.length).toBeGreaterThan(0);
    for (const q of fake.api.requests) {
      expect(`${q.headers["x-api-key"] ?? ""} ${q.headers.authorization ?? ""}`).toContain("test");
      expect(q.body?.model).toBe("claude-haiku-4-5");
      const system = q.body?.system as Array<{ text: string; cache_control?: unknown }>;
      expect(system.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
      expect(system.at(-1)?.text).toMatch(/^# The (security|data) policies/);
      expect(q.body?.output_config?.format?.type).toBe("json_schema");
    }
  });

  it("a PR larger than GATE_MAX_INPUT_TOKENS escalates not_fully_reviewed, naming the files left out", async () => {
    const { writeLargeFixture } = await import("./large-fixture.js");
    const fixture = writeLargeFixture();
    try {
      routeByCaller(fake.api, {});
      const g = await gate({ GATE_MAX_INPUT_TOKENS: "4000" });
      const r = await reviewFixture(g, fixture.name, fixture.fixturesDir);

      expect(r.route).toBe("human");
      expect(r.escalation?.reason).toBe("not_fully_reviewed");
      expect(r.escalation?.detail).toMatch(/^not reviewed: /);
      expect(r.escalation?.detail).toContain("src/reports/build-b.ts");
      // The first file, which fitted, was reviewed; what did not fit was never sent.
      expect(r.escalation?.detail).not.toContain("src/reports/build-a.ts");
      for (const q of fake.api.requests) {
        expect(q.raw).toContain("rowA_0");
        expect(q.raw).not.toContain("rowB_299");
      }
      expect(fake.api.requests.length).toBeGreaterThan(0);
    } finally {
      fixture.remove();
    }
  });

  it("the fake answers whichever specialty asks: security and data one call each, licensing none", async () => {
    routeByCaller(fake.api, {});
    const r = await reviewFixture(await gate(), "014_new_pii_column");
    expect(requestsOf(fake.api, "security")).toHaveLength(1);
    expect(requestsOf(fake.api, "data")).toHaveLength(1);
    expect(requestsOf(fake.api, "licensing")).toHaveLength(0); // no licensing policy applies
    expect(r.route).toBe("approved");
    expect(r.budget.model_calls).toBe(2);
    expect(r.findings).toContainEqual(expect.objectContaining({ policy: "DATA-02", blocking: false }));
  });
});
