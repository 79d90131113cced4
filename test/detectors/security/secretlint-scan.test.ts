import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { scanWithSecretlint } from "../../../src/detectors/security/secretlint-scan.js";

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
