import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createModelSpecialist } from "../../src/claude/specialist/index.js";
import { DEFAULT_PRICES } from "../../src/claude/pricing.js";
import { createTokenCounter } from "../../src/claude/token-counter.js";
import { startFakeAnthropic, textMessage, type FakeAnthropic, type RecordedRequest } from "../fakes/anthropic-api.js";
import {
  SECURITY_POLICIES,
  addedPatch,
  fakeClient,
  file,
  pr,
  settings,
  silentLog,
  specialistInput,
} from "./builders.js";

let api: FakeAnthropic;
beforeEach(async () => {
  api = await startFakeAnthropic();
});
afterEach(() => api.close());

const COMPLIANT = {
  findings: [],
  verdicts: SECURITY_POLICIES.map((p) => ({ policy: p.id, verdict: "compliant", reason: "nothing of the kind" })),
};

/** The text a count request carries (system and user), as the fake's default counts it. */
function textOf(r: RecordedRequest): string {
  const system = Array.isArray(r.body?.system) ? r.body.system.map((b: { text?: string }) => b.text ?? "") : [];
  const user = r.body?.messages.map((m) => (typeof m.content === "string" ? m.content : "")) ?? [];
  return [...system, ...user].join("\n");
}

const request = (text: string) => ({
  model: "claude-sonnet-5-5",
  messages: [{ role: "user" as const, content: text }],
});

describe("createTokenCounter, through the real SDK against the fake's /v1/messages/count_tokens", () => {
  it("asks the counting endpoint once per distinct input, and answers its count", async () => {
    api.countTokensWith(() => 1234);
    const tokens = createTokenCounter(fakeClient(api.url), silentLog);
    expect(await tokens.count(request("hello"))).toBe(1234);
    expect(await tokens.count(request("hello"))).toBe(1234);
    expect(await tokens.count(request("hello again"))).toBe(1234);
    expect(api.countRequests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/messages/count_tokens",
      "POST /v1/messages/count_tokens",
    ]);
    expect(api.requests).toHaveLength(0); // no Messages API call: counting runs no model
  });

  it("answers undefined when the API cannot count, and does not keep the failure", async () => {
    api.countTokensWith(() => ({
      status: 400,
      body: { type: "error", error: { type: "invalid_request_error", message: "no" } },
    }));
    const tokens = createTokenCounter(fakeClient(api.url, 0), silentLog);
    expect(await tokens.count(request("x"))).toBeUndefined();
    api.countTokensWith(() => 7);
    expect(await tokens.count(request("x"))).toBe(7);
    expect(api.countRequests).toHaveLength(2);
  });

  it("keeps at most the given number of counts, the oldest going first", async () => {
    api.countTokensWith(() => 1);
    const tokens = createTokenCounter(fakeClient(api.url), silentLog, 2);
    for (const t of ["a", "b", "c", "a"]) await tokens.count(request(t));
    expect(api.countRequests).toHaveLength(4); // "a" was dropped when "c" came
  });
});

describe("the model specialist fits its diff to GATE_MAX_INPUT_TOKENS by the API's count", () => {
  const big = addedPatch(Array.from({ length: 400 }, (_, i) => `const filler_${i} = "${"x".repeat(60)}";`));
  const input = () =>
    specialistInput({
      pr: pr([file("src/auth/session.ts", addedPatch(["verifySession(token);"])), file("docs/big.md", big)]),
    });
  const specialist = () =>
    createModelSpecialist({
      client: fakeClient(api.url),
      settings: settings({ GATE_MAX_INPUT_TOKENS: "12000" }),
      prices: DEFAULT_PRICES,
      log: silentLog,
      tokens: createTokenCounter(fakeClient(api.url), silentLog),
    });

  it("sends the whole diff when the count agrees with the estimate (one count)", async () => {
    api.enqueue(textMessage(COMPLIANT));
    const out = await specialist().review(input());
    expect(out.notReviewed).toEqual([]);
    expect(api.countRequests).toHaveLength(1);
    expect(api.requests[0]?.raw).toContain("filler_399");
  });

  it("packs again, smaller, when the text counts twice its estimate, until the count fits", async () => {
    const counts: number[] = [];
    api.countTokensWith((r) => {
      const n = 2 * Math.ceil(textOf(r).length / 4);
      counts.push(n);
      return n;
    });
    api.enqueue(textMessage(COMPLIANT));
    const out = await specialist().review(input());
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(counts[0]).toBeGreaterThan(12_000);
    expect(counts.at(-1)).toBeLessThanOrEqual(12_000);
    expect(out.notReviewed).toEqual(["docs/big.md"]);
    // What was sent is the last request counted, and the flagged auth file was kept.
    const sent = api.requests[0];
    expect(sent?.raw).toContain("verifySession(token);");
    expect(sent?.raw).not.toContain("filler_399");
    expect(JSON.stringify(api.countRequests.at(-1)?.body?.messages)).toBe(JSON.stringify(sent?.body?.messages));
  });
});
