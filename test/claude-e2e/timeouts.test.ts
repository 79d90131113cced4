import { describe, expect, it } from "vitest";
import { textMessage } from "../fakes/anthropic-api.js";
import { reviewFixture } from "../helpers/gate.js";
import { EMPTY_ANSWER, modelGate, requestsOf, routeByCaller, useFakeAnthropic } from "./helpers.js";

/** How long the fake takes to answer a slow call: far beyond the specialist timeout. */
const SLOW_MS = 20_000;
// Long enough that a loaded machine (2 shared cores) still sends the request before the abort.
const TIMEOUT_MS = 2_000;

const fake = useFakeAnthropic();
const gates = fake.gates;

function slow() {
  return { ...textMessage(EMPTY_ANSWER), delayMs: SLOW_MS };
}

describe("Claude specialists that do not answer in time", () => {
  it("a response slower than GATE_SPECIALIST_TIMEOUT_MS is a timeout escalation, promptly", async () => {
    routeByCaller(fake.api, { licensing: [slow()] });
    const gate = await modelGate(fake.api, { GATE_SPECIALIST_TIMEOUT_MS: String(TIMEOUT_MS) });
    gates.push(gate);
    const started = Date.now();
    const r = await reviewFixture(gate, "010_mit_or_gpl_dependency");
    const elapsed = Date.now() - started;

    expect(elapsed).toBeLessThan(10_000); // well under the fake's 20 s
    expect(requestsOf(fake.api, "licensing")).toHaveLength(1); // an abort is not retried
    expect(r.route).toBe("human");
    expect(r.status).toBe("waiting_for_human");
    expect(r.escalation).toEqual({
      reason: "timeout",
      detail: `licensing specialist timed out: no answer within ${TIMEOUT_MS} ms`,
    });
    // The aborted call's input is in the budget (at the uncached input price).
    expect(r.budget.model_calls).toBeGreaterThanOrEqual(1);
    expect(r.budget.cost_usd).toBeGreaterThan(0);
  });

  it("two specialists timing out in one superstep give one escalation and no crash", async () => {
    routeByCaller(fake.api, { security: [slow()], data: [slow()] });
    const gate = await modelGate(fake.api, { GATE_SPECIALIST_TIMEOUT_MS: String(TIMEOUT_MS) });
    gates.push(gate);
    const started = Date.now();
    const r = await reviewFixture(gate, "008_weak_crypto");

    expect(Date.now() - started).toBeLessThan(10_000);
    expect(requestsOf(fake.api, "security")).toHaveLength(1);
    expect(requestsOf(fake.api, "data")).toHaveLength(1);
    expect(r.status).toBe("waiting_for_human");
    expect(r.escalation?.reason).toBe("timeout");
    // First wins: exactly one specialty is named.
    expect(r.escalation?.detail).toMatch(/^(security|data) specialist timed out/);
    // The detectors' findings survive a timed-out specialist.
    expect(r.findings.some((f) => f.policy === "SEC-05")).toBe(true);
    // The two cut-off calls may have been processed: their input is counted, never silently dropped.
    expect(r.budget.model_calls).toBe(2);
    expect(r.budget.input_tokens).toBeGreaterThan(0);
    expect(r.budget.cost_usd).toBeGreaterThan(0);
  });
});
