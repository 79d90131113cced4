import { describe, expect, it } from "vitest";
import { type PushEvent, PushEventSchema, pushedChange, watchedBranch } from "../../src/github/events/push.js";

const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);
const ZERO = "0".repeat(40);

function event(overrides: Partial<PushEvent> = {}): PushEvent {
  return PushEventSchema.parse({
    ref: "refs/heads/main",
    before: SHA_A,
    after: SHA_B,
    forced: false,
    commits: [{ id: SHA_B, message: "fix: typo\n\nlonger body", timestamp: "2026-03-02T11:00:00Z" }],
    head_commit: { id: SHA_B, timestamp: "2026-03-02T11:00:00Z" },
    pusher: { name: "octocat" },
    repository: { name: "web", full_name: "acme/web", owner: { login: "acme" }, default_branch: "main" },
    installation: { id: 7 },
    ...overrides,
  });
}

describe("watchedBranch", () => {
  it.each([
    ["the default branch", {}, [], "main"],
    ["a protected branch", { ref: "refs/heads/release" }, ["release"], "release"],
    ["another branch", { ref: "refs/heads/feature" }, ["release"], undefined],
    ["a tag named like the default branch", { ref: "refs/tags/main" }, [], undefined],
    ["the default branch's creation", { before: ZERO, created: true }, [], undefined],
    ["the default branch's deletion", { after: ZERO, deleted: true }, [], undefined],
    ["a protected branch prefix only", { ref: "refs/heads/release-2" }, ["release"], undefined],
  ] as const)("%s", (_name, overrides, protectedBranches, expected) => {
    expect(watchedBranch(event(overrides), protectedBranches)).toBe(expected);
  });
});

describe("pushedChange", () => {
  it("keeps who pushed, when, where, both heads, forced, and the commits", () => {
    expect(pushedChange(event({ forced: true }), "main", "2026-03-02T12:00:00Z")).toEqual({
      repo: "acme/web",
      owner: "acme",
      name: "web",
      branch: "main",
      before: SHA_A,
      after: SHA_B,
      forced: true,
      pusher: "octocat",
      at: "2026-03-02T11:00:00Z",
      commits: [{ sha: SHA_B, message: "fix: typo\n\nlonger body" }],
      installationId: 7,
    });
  });

  it("takes the delivery's time when the push names no head commit", () => {
    expect(pushedChange(event({ head_commit: null }), "main", "2026-03-02T12:00:00Z").at).toBe("2026-03-02T12:00:00Z");
  });

  it("refuses a payload whose heads are not commit SHAs", () => {
    expect(PushEventSchema.safeParse({ ...event(), after: "main" }).success).toBe(false);
  });
});
