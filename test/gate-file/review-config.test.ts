import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { buildCheckRun } from "../../src/github/check-run.js";
import { renderCard } from "../../src/slack/card.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { reviewFixture, tempDir, testGate } from "../helpers/gate.js";

const dir = tempDir("gate-review-config-");
const EVAL = path.join(BUNDLED_FIXTURES_DIR, "eval");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A gate whose server-wide configuration is this YAML (after `version: 1`), with a pinned clock;
 * closed when the test finishes.
 */
async function gateWith(yaml: string, today = "2026-11-30") {
  const file = path.join(dir, `gate-${Math.random().toString(36).slice(2)}.yml`);
  fs.writeFileSync(file, `version: 1\n${yaml}`);
  const gate = await testGate(
    { GATE_CONFIG: file },
    { clock: () => new Date(`${today}T12:00:00Z`) },
    tempDir("gate-rc-"),
  );
  onTestFinished(async () => {
    await gate.close();
  });
  return gate;
}

const EXCEPTION =
  "exceptions:\n  - { policy: LIC-02, package: 'gpl-chart-lib@^2', reason: legal cleared 2.x (LEGAL-12), granted_by: dana, expires: 2027-06-30 }\n";

describe("a review under a configuration file", () => {
  it("coverage.accept_unread turns an unread Perl file into a warning the card and check run name; unaccepted it goes to a person", async () => {
    const plain = await gateWith("");
    expect((await reviewFixture(plain, "cov-perl-cgi-shell", EVAL)).escalation?.reason).toBe("not_inspected");
    const gate = await gateWith(
      "coverage:\n  accept_unread:\n    - { language: perl, reason: 'legacy CGI, read by the ops team' }\n",
    );
    const result = await reviewFixture(gate, "cov-perl-cgi-shell", EVAL);
    expect(result.route).toBe("approved");
    expect(result.coverage?.complete).toBe(true);
    expect(result.coverage?.unread).toEqual([
      expect.objectContaining({ file: "cgi-bin/hostcheck.pl", accepted: "legacy CGI, read by the ops team" }),
    ]);
    const review = await gate.store.get(result.review_id);
    if (!review) throw new Error("no review");
    const check = buildCheckRun(result, { headSha: review.headSha });
    expect(check.conclusion).toBe("success");
    expect(check.annotations).toContainEqual(
      expect.objectContaining({ path: "cgi-bin/hostcheck.pl", annotation_level: "warning" }),
    );
    expect(JSON.stringify(renderCard({ review, result }).blocks)).toContain("accepted: legacy CGI");
  });

  it("a raised policy blocks: LIC-01 made blocking sends a GPL dev dependency to a person", async () => {
    const plain = await gateWith("");
    const raised = await gateWith("policies: { LIC-01: { blocking: true } }");
    expect((await reviewFixture(plain, "009_gpl_dev_dependency")).route).toBe("approved");
    const result = await reviewFixture(raised, "009_gpl_dev_dependency");
    expect(result.route).toBe("human");
    expect(result.findings.find((f) => f.policy === "LIC-01")?.blocking).toBe(true);
  });

  it("an exception clears LIC-02: the review passes, and the card, check run and audit log name the exception", async () => {
    const gate = await gateWith(EXCEPTION);
    const result = await reviewFixture(gate, "002_new_dependency");
    expect(result.route).toBe("approved");
    const lic02 = result.findings.find((f) => f.policy === "LIC-02");
    expect(lic02).toMatchObject({ blocking: false, exception: { granted_by: "dana", status: "applied" } });
    const review = await gate.store.get(result.review_id);
    if (!review) throw new Error("no review");
    const check = buildCheckRun(result, { headSha: review.headSha });
    expect(JSON.stringify(check)).toContain(
      "Cleared by exception (gpl-chart-lib@^2, granted by dana, until 2027-06-30",
    );
    expect(JSON.stringify(renderCard({ review, result }).blocks)).toContain("Cleared by exception");
    const audit = (await gate.store.auditFor(result.review_id)).filter((a) => a.action === "exception");
    expect(audit).toEqual([
      expect.objectContaining({
        actor: "dana",
        outcome: "applied",
        detail: expect.objectContaining({ policy: "LIC-02" }),
      }),
    ]);
  });

  it("an expired exception no longer applies: the review waits for a person and says the exception expired", async () => {
    const gate = await gateWith(EXCEPTION, "2027-07-01");
    const result = await reviewFixture(gate, "002_new_dependency");
    expect(result.route).toBe("human");
    const lic02 = result.findings.find((f) => f.policy === "LIC-02");
    expect(lic02).toMatchObject({ blocking: true, exception: { status: "expired" } });
    expect(lic02?.message).toContain("has expired and no longer applies");
  });

  it("a disabled policy is not enforced; the threshold comes from the file", async () => {
    const gate = await gateWith(
      "policies: { LIC-02: { enabled: false }, LIC-01: { enabled: false } }\nrisk: { threshold: 95 }\n",
    );
    expect(gate.config.risk.threshold).toBe(95);
    const result = await reviewFixture(gate, "002_new_dependency");
    expect(result.findings.filter((f) => f.policy.startsWith("LIC-0"))).toEqual([]);
    expect(result.route).toBe("auto_approved");
  });
});

/** A copy of a bundled fixture whose base commit carries this `.github/gate.yml` (as `base-gate.yml`). */
function withBaseConfig(name: string, yaml: string): string {
  const fixtures = tempDir("gate-fixtures-");
  fs.cpSync(path.join(BUNDLED_FIXTURES_DIR, name), path.join(fixtures, name), { recursive: true });
  fs.writeFileSync(path.join(fixtures, name, "base-gate.yml"), yaml);
  return fixtures;
}

describe("a fixture's base-gate.yml: the repository's file as its base commit has it", () => {
  it("its threshold applies to this review: a README typo goes to the specialists instead of passing at once", async () => {
    const gate = await gateWith("");
    expect((await reviewFixture(gate, "001_readme_typo")).route).toBe("auto_approved");
    const strict = withBaseConfig("001_readme_typo", "version: 1\nrisk: { threshold: 3 }\n");
    expect((await reviewFixture(gate, "001_readme_typo", strict)).route).toBe("approved");
  });

  it("its exception merges over the server's configuration; an invalid file sends the review to a person", async () => {
    const gate = await gateWith("policies: { LIC-01: { severity: high } }");
    const cleared = withBaseConfig("002_new_dependency", `version: 1\n${EXCEPTION}`);
    expect((await reviewFixture(gate, "002_new_dependency", cleared)).route).toBe("approved");
    const broken = withBaseConfig("001_readme_typo", "version: 1\nexceptions: [{ policy: LIC-02 }]\n");
    const result = await reviewFixture(gate, "001_readme_typo", broken);
    expect(result.route).toBe("human");
    expect(result.escalation?.detail).toMatch(/base-gate\.yml:2:14: exceptions\.0\.reason/);
  });
});

describe("approvers from the configuration", () => {
  it("a repository's file names who decides its licensing blocks; others are refused", async () => {
    const gate = await gateWith("");
    const fixtures = withBaseConfig("002_new_dependency", "version: 1\napprovers: { licensing: [ULEGAL] }\n");
    const waiting = await reviewFixture(gate, "002_new_dependency", fixtures);
    expect(waiting.route).toBe("human");
    const refused = await gate.runner.decide(waiting.review_id, { kind: "approve", by: "alice" });
    expect(refused).toMatchObject({ ok: false, code: "not_allowed" });
    const approved = await gate.runner.decide(waiting.review_id, { kind: "approve", by: "ULEGAL" });
    expect(approved.ok && approved.result.route).toBe("human_approved");
  });
});

describe("risk path globs from the configuration", () => {
  it("files a team marks as generated or docs score as docs: an otherwise-code change passes at once", async () => {
    const gate = await gateWith("");
    const plain = await reviewFixture(
      gate,
      "002_new_dependency",
      withBaseConfig("002_new_dependency", "version: 1\npolicies: { LIC-02: { enabled: false } }\n"),
    );
    expect(plain.risk?.class).not.toBe("docs");
    const globbed = withBaseConfig(
      "002_new_dependency",
      "version: 1\npolicies: { LIC-02: { enabled: false } }\nrisk: { generated: ['**/*'] }\n",
    );
    expect((await reviewFixture(gate, "002_new_dependency", globbed)).risk?.class).toBe("docs");
  });
});
