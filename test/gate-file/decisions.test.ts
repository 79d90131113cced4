import { describe, expect, it } from "vitest";
import { effectiveConfig } from "../../src/gate-file/effective.js";
import { mergeConfig } from "../../src/gate-file/merge.js";
import { GateConfigSchema } from "../../src/gate-file/schema.js";

const resolve = (file: unknown) =>
  effectiveConfig(GateConfigSchema.parse(file), [], { riskThreshold: 30, sources: [] }).decisions?.carryForward;

describe("decisions.carry_forward", () => {
  it("defaults to unchanged_findings, and a repository's file overrides the server's", () => {
    expect(resolve({ version: 1 })).toBe("unchanged_findings");
    expect(resolve({ version: 1, decisions: { carry_forward: "never" } })).toBe("never");
    const server = GateConfigSchema.parse({ version: 1, decisions: { carry_forward: "never" } });
    const repo = GateConfigSchema.parse({ version: 1, decisions: { carry_forward: "unchanged_files" } });
    expect(resolve(mergeConfig(server, repo))).toBe("unchanged_files");
    expect(resolve(mergeConfig(server, GateConfigSchema.parse({ version: 1 })))).toBe("never");
  });

  it("refuses an unknown value and an unknown key", () => {
    expect(GateConfigSchema.safeParse({ version: 1, decisions: { carry_forward: "always" } }).success).toBe(false);
    expect(GateConfigSchema.safeParse({ version: 1, decisions: { carry: "never" } }).success).toBe(false);
  });
});
