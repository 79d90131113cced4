import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { ConfigFileError, parseConfigText } from "../../src/gate-file/load.js";
import { buildCheckRun } from "../../src/github/check-run.js";
import { renderCard } from "../../src/slack/card.js";
import { reviewFixture, tempDir, testGate } from "../helpers/gate.js";

const dir = tempDir("gate-advisory-exceptions-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function gateWith(yaml: string, today = "2026-12-01") {
  const file = path.join(dir, `gate-${Math.random().toString(36).slice(2)}.yml`);
  fs.writeFileSync(file, `version: 1\n${yaml}`);
  const gate = await testGate(
    { GATE_CONFIG: file },
    { clock: () => new Date(`${today}T12:00:00Z`) },
    tempDir("gate-ae-"),
  );
  onTestFinished(async () => {
    await gate.close();
  });
  return gate;
}

const exception = (advisory: string) =>
  `exceptions:\n  - { policy: SEC-07, advisory: ${advisory}, reason: "template() is never called with user input", granted_by: sec-team, expires: 2027-03-31 }\n`;

describe("exceptions by advisory id (SEC-07)", () => {
  it("clear the finding until they expire; the card, check run and audit log name them", async () => {
    const gate = await gateWith(exception("GHSA-35jh-r3h4-6jhm"));
    const result = await reviewFixture(gate, "018_vulnerable_dependency");
    expect(result.route).toBe("approved");
    const sec07 = result.findings.find((f) => f.policy === "SEC-07");
    expect(sec07).toMatchObject({
      blocking: false,
      severity: "low",
      exception: { policy: "SEC-07", advisory: "GHSA-35jh-r3h4-6jhm", granted_by: "sec-team", status: "applied" },
    });
    const review = await gate.store.get(result.review_id);
    if (!review) throw new Error("no review");
    expect(JSON.stringify(buildCheckRun(result, { headSha: review.headSha }))).toContain(
      "Cleared by exception (GHSA-35jh-r3h4-6jhm, granted by sec-team, until 2027-03-31",
    );
    expect(JSON.stringify(renderCard({ review, result }).blocks)).toContain(
      "Cleared by exception (GHSA-35jh-r3h4-6jhm",
    );
    const audit = (await gate.store.auditFor(result.review_id)).filter((a) => a.action === "exception");
    expect(audit).toEqual([
      expect.objectContaining({
        actor: "sec-team",
        outcome: "applied",
        detail: expect.objectContaining({ advisory: "GHSA-35jh-r3h4-6jhm" }),
      }),
    ]);
  });

  it("an alias names the advisory too; another advisory's exception does not clear it", async () => {
    const byAlias = await reviewFixture(await gateWith(exception("cve-2021-23337")), "018_vulnerable_dependency");
    expect(byAlias.route).toBe("approved");
    const other = await reviewFixture(await gateWith(exception("GHSA-aaaa-bbbb-cccc")), "018_vulnerable_dependency");
    expect(other.route).toBe("human");
  });

  it("an expired one stops applying and says so", async () => {
    const gate = await gateWith(exception("GHSA-35jh-r3h4-6jhm"), "2027-04-01");
    const result = await reviewFixture(gate, "018_vulnerable_dependency");
    expect(result.route).toBe("human");
    const sec07 = result.findings.find((f) => f.policy === "SEC-07");
    expect(sec07).toMatchObject({ blocking: true, exception: { status: "expired" } });
    expect(sec07?.message).toContain(
      "(An exception for this, GHSA-35jh-r3h4-6jhm, granted by sec-team, until 2027-03-31, has expired",
    );
  });

  it("gate config check refuses an exception naming an advisory and a package, or an advisory that is no id", () => {
    const problems = (text: string) => {
      try {
        parseConfigText(text, "gate.yml");
        return [];
      } catch (error) {
        if (error instanceof ConfigFileError) return error.problems.map((p) => `${p.line}:${p.key}: ${p.message}`);
        throw error;
      }
    };
    expect(
      problems(
        "version: 1\nexceptions:\n  - { policy: SEC-07, advisory: GHSA-35jh-r3h4-6jhm, package: lodash, reason: why not, granted_by: x, expires: 2030-01-01 }\n",
      ),
    ).toEqual([expect.stringMatching(/^3:exceptions\.0: .*exactly one of package, path or advisory/)]);
    expect(
      problems(
        "version: 1\nexceptions:\n  - { policy: SEC-07, advisory: 'GHSA x', reason: why not, granted_by: x, expires: 2030-01-01 }\n",
      ),
    ).toEqual([expect.stringMatching(/^3:exceptions\.0\.advisory: must be an advisory id/)]);
  });
});
