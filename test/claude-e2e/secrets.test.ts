import { describe, expect, it } from "vitest";
import { reviewFixture } from "../helpers/gate.js";
import { fixturePatches, modelGate, routeByCaller, useFakeAnthropic } from "./helpers.js";

/** The credentials a fixture's added lines carry, read from its files.json. */
function secretsOf(fixture: string): string[] {
  const added = fixturePatches(fixture)
    .split("\n")
    .filter((l) => l.startsWith("+"))
    .join("\n");
  const patterns = [/AKIA[0-9A-Z]{16}/g, /secret_access_key:\s*(\S+)/g, /ghp_[A-Za-z0-9]{20,}/g];
  return patterns.flatMap((re) => [...added.matchAll(re)].map((m) => m[1] ?? m[0]));
}

const fake = useFakeAnthropic();
const gates = fake.gates;

describe("what reaches the Messages API", () => {
  it("the secret strings of fixtures 004 and 005 never appear in any request body, though their files are reviewed", async () => {
    const secrets = [...secretsOf("004_hardcoded_aws_key"), ...secretsOf("005_readme_typo_with_secret")];
    // The fixtures' three credentials: an AWS key id, its secret key, a GitHub token.
    expect(secrets).toHaveLength(3);
    expect(secrets.every((s) => s.length >= 20)).toBe(true);

    routeByCaller(fake.api, {});
    const gate = modelGate(fake.api);
    gates.push(gate);
    const r4 = await reviewFixture(gate, "004_hardcoded_aws_key");
    const r5 = await reviewFixture(gate, "005_readme_typo_with_secret");

    expect(r4.budget.model_calls + r5.budget.model_calls).toBe(fake.api.requests.length);
    expect(fake.api.requests.length).toBeGreaterThanOrEqual(2);
    const all = fake.api.requests.map((q) => q.raw).join("\n");
    for (const secret of secrets) expect(all).not.toContain(secret);
    // The files were still sent, with markers where the credentials were.
    expect(all).toContain("config/storage.production.yml");
    expect(all).toContain("README.md");
    expect(all).toContain("[REDACTED:");
    // Neither do the results carry them.
    const printed = JSON.stringify([r4, r5]);
    for (const secret of secrets) expect(printed).not.toContain(secret);
  });
});
