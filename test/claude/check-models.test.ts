import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkModels } from "../../src/claude/check-models.js";
import { DEFAULT_PRICES } from "../../src/claude/pricing.js";
import { describeError, GateError } from "../../src/domain/errors.js";
import { closedPort } from "../helpers/closed-port.js";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/anthropic-api.js";
import { fakeClient, silentLog } from "./builders.js";

let api: FakeAnthropic;
beforeEach(async () => {
  api = await startFakeAnthropic();
});
afterEach(() => api.close());

const configured = (specialist: string, investigator = specialist) => [
  { setting: "GATE_MODEL_SPECIALIST", id: specialist },
  { setting: "GATE_MODEL_INVESTIGATOR", id: investigator },
];

describe("checkModels, through the real SDK against the fake Models API", () => {
  it("asks once per distinct model and passes for models Anthropic knows", async () => {
    await checkModels(fakeClient(api.url), configured("claude-sonnet-5-5"), DEFAULT_PRICES, silentLog);
    expect(api.modelRequests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models/claude-sonnet-5-5"]);
    expect(api.requests).toHaveLength(0); // no Messages API call
  });

  it("stops with the setting's name when the Models API does not know an id", async () => {
    const failure = await checkModels(
      fakeClient(api.url, 0),
      configured("claude-sonnet-5-5", "claude-sonet-5-5"),
      DEFAULT_PRICES,
      silentLog,
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GateError);
    expect(failure).toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(/GATE_MODEL_INVESTIGATOR: Anthropic has no model "claude-sonet-5-5"/),
    });
  });

  it("says the key was refused when the Models API answers 401", async () => {
    api.respondModels(() => ({
      status: 401,
      body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
    }));
    await expect(
      checkModels(fakeClient(api.url, 0), configured("claude-sonnet-5-5"), DEFAULT_PRICES, silentLog),
    ).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(/ANTHROPIC_API_KEY was refused/),
    });
  });

  it("says Anthropic could not be reached, naming the host, when nothing answers (not the key, not the id)", async () => {
    const port = await closedPort();
    const failure = await checkModels(
      fakeClient(`http://127.0.0.1:${port}`, 0),
      configured("claude-sonnet-5-5"),
      DEFAULT_PRICES,
      silentLog,
    ).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "SERVICE_UNREACHABLE" });
    const line = describeError(failure);
    expect(line).toContain(`cannot reach Anthropic at 127.0.0.1:${port}`);
    expect(line).toMatch(/ECONNREFUSED/);
    expect(line).not.toMatch(/refused by|has no model|fix the setting/);
  });

  it("says Anthropic failed, not the key, when the Models API answers 500 after the SDK's retries", async () => {
    api.respondModels(() => ({
      status: 500,
      body: { type: "error", error: { type: "api_error", message: "Internal server error" } },
    }));
    const failure = await checkModels(
      fakeClient(api.url, 1),
      configured("claude-sonnet-5-5"),
      DEFAULT_PRICES,
      silentLog,
    ).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "SERVICE_UNREACHABLE" });
    expect(describeError(failure)).toContain(`Anthropic at ${new URL(api.url).host}`);
    expect(describeError(failure)).toContain("answered 500");
    expect(api.modelRequests).toHaveLength(2); // the first and the SDK's one retry
  });

  it("allows a model it has no price for, warning that it is charged the highest known prices", async () => {
    api.models.add("claude-fable-5-2");
    const lines: string[] = [];
    const log = pino({ level: "warn" }, { write: (l: string) => void lines.push(l) });
    await checkModels(fakeClient(api.url), configured("claude-fable-5-2", "claude-sonnet-5-5"), DEFAULT_PRICES, log);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/claude-fable-5-2/);
    expect(lines[0]).toMatch(/highest known prices/);
  });
});
