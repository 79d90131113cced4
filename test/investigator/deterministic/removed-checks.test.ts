import { describe, expect, it } from "vitest";
import { removedChecks } from "../../../src/investigator/deterministic/removed-checks.js";

const head = (lines: string[]) => lines.map((text, i) => ({ file: "src/auth/s.ts", line: i + 1, text }));

describe("removedChecks", () => {
  it("finds a removed expiry check kept elsewhere in the new code", () => {
    const patch =
      "@@ -10,3 +10,2 @@\n-  if (Date.now() > claims.exp * 1000) throw new Expired();\n+  assertFresh(claims);\n   return claims;";
    const [check] = removedChecks(
      "src/auth/s.ts",
      patch,
      head(["function assertFresh(c) {", "  if (c.exp * 1000 < Date.now()) throw new Expired();", "}"]),
    );
    expect(check).toMatchObject({ kind: "expiry", removed: { line: 10 }, keptAt: { line: 2 } });
  });

  it("reports a removed signature check that is gone", () => {
    const patch = "@@ -4,3 +4,2 @@\n-  if (!verify(token, key)) return null;\n   return decode(token);";
    const [check] = removedChecks(
      "src/auth/s.ts",
      patch,
      head(["export function load(token) {", "  return decode(token);", "}"]),
    );
    expect(check?.kind).toBe("signature");
    expect(check?.keptAt).toBeUndefined();
  });

  it("matches a removed condition only by a conditional line with the same names", () => {
    const patch = "@@ -1,2 +1,1 @@\n-  if (user.disabled) return deny();\n   return allow();";
    expect(removedChecks("s.ts", patch, head(["const disabled = user.disabled;"]))[0]?.keptAt).toBeUndefined();
    expect(removedChecks("s.ts", patch, head(["  if (!user || user.disabled) return deny();"]))[0]?.keptAt?.line).toBe(
      1,
    );
  });

  it("ignores removed lines that are not checks, and words inside strings", () => {
    const patch = '@@ -1,2 +1,1 @@\n-  logger.info("session expired", { id });\n-  const x = 1;\n+  const x = 2;';
    expect(removedChecks("s.ts", patch, [])).toEqual([]);
  });
});
