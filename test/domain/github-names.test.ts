import { describe, expect, it } from "vitest";
import { GITHUB_OWNER, GITHUB_SHA, isFullRepoName, isRepoName } from "../../src/domain/github-names.js";

describe("GitHub names, the one definition every boundary uses", () => {
  it.each(["acme", "a", "octo-cat", "A1"])("owner %s is valid", (o) => expect(GITHUB_OWNER.test(o)).toBe(true));
  it.each(["", "-acme", "acme-", "oc--to", "a".repeat(40), "a/b", "..", "a.b"])("owner %j is refused", (o) =>
    expect(GITHUB_OWNER.test(o)).toBe(false),
  );
  it.each([
    ["web", true],
    ["my.repo_1-x", true],
    [".", false],
    ["..", false],
    ["a/b", false],
    ["r".repeat(101), false],
  ])("repo %j → %s", (r, ok) => expect(isRepoName(r)).toBe(ok));
  it.each([
    ["acme/web", true],
    ["acme/..", false],
    ["acme/web/x", false],
    ["../web", false],
    ["acme", false],
  ])("owner/repo %j → %s", (r, ok) => expect(isFullRepoName(r)).toBe(ok));
  it("a SHA is 40 lowercase hex digits", () => {
    expect(GITHUB_SHA.test("a".repeat(40))).toBe(true);
    expect(GITHUB_SHA.test("A".repeat(40))).toBe(false);
    expect(GITHUB_SHA.test("a".repeat(39))).toBe(false);
  });
});
