import { describe, expect, it } from "vitest";
import type { LicenseResolver } from "../../src/domain/license-resolver.js";
import type { LookupFailure } from "../../src/domain/license-resolver.js";
import { recordingFailures } from "../../src/graph/nodes/detect.js";

describe("the detect node's licence lookups", () => {
  it("record each failed lookup once, and after a registry failed, fail the rest of that ecosystem at once", async () => {
    const asked: string[] = [];
    const inner: LicenseResolver = {
      lookup: async (ecosystem, name) => {
        asked.push(`${ecosystem}:${name}`);
        return ecosystem === "npm"
          ? {
              status: "failed",
              registry: "npm registry http://npm.test",
              reason: "timed out after 5000 ms (3 attempts)",
            }
          : { status: "found", license: "MIT" };
      },
    };
    const failures: LookupFailure[] = [];
    const licenses = recordingFailures(inner, failures);
    expect((await licenses.lookup("npm", "a", "1.0.0")).status).toBe("failed");
    expect(await licenses.lookup("npm", "b")).toEqual({
      status: "failed",
      registry: "npm registry http://npm.test",
      reason: "timed out after 5000 ms (3 attempts); not asked again in this review",
    });
    await licenses.lookup("npm", "a", "1.0.0");
    expect(await licenses.lookup("cargo", "serde")).toEqual({ status: "found", license: "MIT" });
    expect(asked).toEqual(["npm:a", "cargo:serde"]);
    expect(failures).toEqual([
      {
        ecosystem: "npm",
        name: "a",
        version: "1.0.0",
        registry: "npm registry http://npm.test",
        reason: "timed out after 5000 ms (3 attempts)",
      },
      {
        ecosystem: "npm",
        name: "b",
        registry: "npm registry http://npm.test",
        reason: "timed out after 5000 ms (3 attempts)",
      },
    ]);
  });
});
