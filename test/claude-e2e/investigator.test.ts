import { describe, expect, it } from "vitest";
import { textMessage, toolUseMessage } from "../fakes/anthropic-api.js";
import { reviewFixture } from "../helpers/gate.js";
import { modelGate, requestsOf, routeByCaller, useFakeAnthropic } from "./helpers.js";

const REPORT = {
  answers: ["validateSession still checks expiry, then the signature; the log line carries only the refusal reason."],
  evidence: [
    {
      file: "src/auth/session.ts",
      line: 22,
      excerpt: 'if (session.expiresAt < now) return { ok: false, reason: "expired" };',
    },
  ],
  concerns: [],
  conclusive: true,
};

/** Token counts of the investigator's four turns (the conversation grows; cached prefix read back). */
const TURN_USAGE = [
  { input_tokens: 900, output_tokens: 60, cache_creation_input_tokens: 1100, cache_read_input_tokens: 0 },
  { input_tokens: 700, output_tokens: 80, cache_creation_input_tokens: 900, cache_read_input_tokens: 1100 },
  { input_tokens: 600, output_tokens: 70, cache_creation_input_tokens: 800, cache_read_input_tokens: 2000 },
  { input_tokens: 500, output_tokens: 300, cache_creation_input_tokens: 0, cache_read_input_tokens: 2800 },
];

const fake = useFakeAnthropic();
const gates = fake.gates;

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

describe("Claude as investigator, through the whole gate", () => {
  it("a tool_use loop of several turns over fixture 003's snapshot resolves it: approved after 1 cycle, usage counted", async () => {
    routeByCaller(fake.api, {
      investigator: [
        toolUseMessage([{ id: "toolu_a", name: "list_dir", input: { path: "src/auth" } }], TURN_USAGE[0]),
        toolUseMessage(
          [
            { id: "toolu_b", name: "read_file", input: { path: "src/auth/session.ts" } },
            { id: "toolu_c", name: "grep_repo", input: { pattern: "logger\\.(info|warn)" } },
          ],
          TURN_USAGE[1],
        ),
        toolUseMessage([{ id: "toolu_d", name: "read_file", input: { path: "src/logging/logger.ts" } }], TURN_USAGE[2]),
        textMessage(REPORT, TURN_USAGE[3]),
      ],
    });
    const gate = await modelGate(fake.api);
    gates.push(gate);
    const r = await reviewFixture(gate, "003_auth_change");

    expect(r.route).toBe("approved");
    expect(r.escalation).toBeNull();
    expect(r.budget.cycles_used).toBe(1);
    expect(r.investigations).toHaveLength(1);
    expect(r.investigations[0]).toMatchObject({ status: "resolved", answers: REPORT.answers, tool_calls: 4 });
    expect(r.investigations[0]?.chars_read).toBeGreaterThan(0);
    // The detector's SEC-03 is settled by the investigation: cited, but no longer blocking or asking.
    expect(r.findings).toContainEqual(
      expect.objectContaining({ policy: "SEC-03", blocking: false, needs_more_context: false }),
    );

    const investigator = requestsOf(fake.api, "investigator");
    expect(investigator).toHaveLength(4);
    const specialists = fake.api.requests.length - investigator.length;
    // Two rounds of specialists (before and after the investigation).
    expect(specialists).toBeGreaterThanOrEqual(2);
    expect(r.budget.model_calls).toBe(fake.api.requests.length);
    const investigatorInput = TURN_USAGE.reduce((n, u) => n + u.input_tokens, 0);
    expect(r.budget.input_tokens).toBe(investigatorInput + 1200 * specialists);
    // docs/claude.md: the four turns cost $0.01868 at Sonnet 5.5 prices; each specialist call $0.0059.
    expect(r.budget.cost_usd).toBeCloseTo(0.01868 + 0.0059 * specialists, 6);
    expect(specialists).toBe(4); // security and data, before and after the investigation

    // The tools really ran over the fixture's snapshot: the results went back to the model.
    const third = investigator[2]?.body;
    const results = ((third?.messages.at(-1)?.content ?? []) as Block[]).filter((b) => b.type === "tool_result");
    expect(results.map((b) => b.tool_use_id)).toEqual(["toolu_b", "toolu_c"]);
    expect(results.every((b) => b.is_error !== true)).toBe(true);
    expect(JSON.stringify(results[0]?.content)).toContain("verifySignature");
    expect(investigator[0]?.body?.tools?.map((t) => t.name)).toEqual(["read_file", "grep_repo", "list_dir"]);
    const system = investigator[0]?.body?.system as Array<{ cache_control?: unknown }>;
    expect(system[0]?.cache_control).toEqual({ type: "ephemeral" });

    // The second round of specialists saw the investigation's answer.
    const lastSecurity = requestsOf(fake.api, "security").at(-1);
    expect(lastSecurity?.raw).toContain("validateSession still checks expiry");
  });
});
