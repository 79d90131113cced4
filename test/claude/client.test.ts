import { afterEach, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/claude/client.js";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("createModelClient", () => {
  it("uses only the values it is given, not ANTHROPIC_* from the environment", () => {
    process.env.ANTHROPIC_BASE_URL = "http://127.0.0.1:9/elsewhere";
    process.env.ANTHROPIC_API_KEY = "sk-ant-from-env";
    const client = createModelClient({ apiKey: "sk-ant-injected", maxRetries: 1, timeoutMs: 5000 });
    expect(client.baseURL).toBe("https://api.anthropic.com");
    expect(client.apiKey).toBe("sk-ant-injected");
    expect(client.maxRetries).toBe(1);
    expect(client.timeout).toBe(5000);
  });
});
