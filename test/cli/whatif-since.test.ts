import { describe, expect, it } from "vitest";
import { sinceOf } from "../../src/cli/commands/whatif.js";

describe("gate config whatif --since", () => {
  it("reads days and hours back from now, and refuses anything else naming the flag", () => {
    const now = new Date("2026-12-02T12:00:00.000Z");
    expect(sinceOf("30d", now)).toBe("2026-11-02T12:00:00.000Z");
    expect(sinceOf("12h", now)).toBe("2026-12-02T00:00:00.000Z");
    expect(() => sinceOf("30 days", now)).toThrow(/--since 30 days: give a number of days or hours/);
    expect(() => sinceOf("-1d", now)).toThrow(/--since/);
  });
});
