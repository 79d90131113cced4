import { describe, expect, it } from "vitest";
import { textMessage, toolUseMessage } from "../fakes/anthropic-api.js";
import { reviewFixture } from "../helpers/gate.js";
import { modelGate, requestsOf, routeByCaller, useFakeAnthropic, type Caller } from "../claude-e2e/helpers.js";

/** Specialists that find nothing, the security one calling the auth change compliant: "approve". */
const approve = (caller: Caller | undefined) =>
  textMessage(
    caller === "security"
      ? {
          findings: [],
          verdicts: [{ policy: "SEC-03", verdict: "compliant", reason: "approve: the refactor keeps every check" }],
        }
      : { findings: [], verdicts: [] },
  );

/** An investigator answer that clears the question, citing the given line. */
function resolved(evidence: Array<{ file: string; line: number; excerpt: string }>) {
  return {
    answers: ["Resolved: nothing was weakened and no token is logged. Approve."],
    evidence,
    concerns: [],
    conclusive: true,
  };
}

const EXPIRY_LINE = {
  file: "src/auth/session.ts",
  line: 22,
  excerpt: 'if (session.expiresAt < now) return { ok: false, reason: "expired" };',
};

const fake = useFakeAnthropic();

describe("a model's clearance of a context finding counts only with verified evidence and the rules' agreement", () => {
  it("003b: the model reads the session code and says 'resolved, approve', but the rules find the helper logging the token: a person decides", async () => {
    routeByCaller(
      fake.api,
      {
        investigator: [
          toolUseMessage([{ id: "toolu_1", name: "read_file", input: { path: "src/auth/session.ts" } }]),
          // Its evidence is real: 003b's session file checks expiry on line 23.
          textMessage(resolved([{ ...EXPIRY_LINE, line: 23 }])),
        ],
      },
      approve,
    );
    const gate = await modelGate(fake.api);
    fake.gates.push(gate);
    const r = await reviewFixture(gate, "003b_auth_change_logs_token");

    expect(requestsOf(fake.api, "investigator")).toHaveLength(2);
    expect(r.route).toBe("human");
    expect(r.status).toBe("waiting_for_human");
    expect(r.investigations).toHaveLength(1);
    const [inv] = r.investigations;
    expect(inv?.status).toBe("inconclusive");
    expect(inv?.reason).toMatch(
      /the deterministic investigation of the same question found a concern: .*auditSession in src\/audit\/audit\.ts/,
    );
    // The line that shows it is on the card as evidence.
    expect(inv?.evidence).toContainEqual({
      file: "src/audit/audit.ts",
      line: 6,
      excerpt: 'logger.info("session refreshed", { token: session.token });',
    });
    // The detector's SEC-03 still blocks.
    expect(r.findings.some((f) => f.policy === "SEC-03" && f.blocking)).toBe(true);
  });

  it("003: a model that answers 'resolved, approve' citing a line it never read does not clear it", async () => {
    routeByCaller(
      fake.api,
      {
        investigator: [
          // It lists a folder, then cites the session file without reading it.
          toolUseMessage([{ id: "toolu_1", name: "list_dir", input: { path: "src/auth" } }]),
          textMessage(resolved([EXPIRY_LINE])),
        ],
      },
      approve,
    );
    const gate = await modelGate(fake.api);
    fake.gates.push(gate);
    const r = await reviewFixture(gate, "003_auth_change");

    expect(r.route).toBe("human");
    expect(r.investigations[0]).toMatchObject({ status: "inconclusive" });
    expect(r.investigations[0]?.reason).toBe(
      "unverified evidence: src/auth/session.ts:22 was not read by a tool in this investigation",
    );
  });

  it("003: a cited line that was read but does not say what the model quotes does not clear it either", async () => {
    routeByCaller(
      fake.api,
      {
        investigator: [
          toolUseMessage([{ id: "toolu_1", name: "read_file", input: { path: "src/auth/session.ts" } }]),
          textMessage(
            resolved([
              { ...EXPIRY_LINE, excerpt: "if (!verifySignature(session.token, session.signature)) return null;" },
            ]),
          ),
        ],
      },
      approve,
    );
    const gate = await modelGate(fake.api);
    fake.gates.push(gate);
    const r = await reviewFixture(gate, "003_auth_change");
    expect(r.route).toBe("human");
    expect(r.investigations[0]?.reason).toMatch(
      /^unverified evidence: src\/auth\/session\.ts:22 does not say `if \(!verifySignature/,
    );
  });

  it("003: the same answer with its evidence read and the rules agreeing clears it: approved", async () => {
    routeByCaller(
      fake.api,
      {
        investigator: [
          toolUseMessage([{ id: "toolu_1", name: "read_file", input: { path: "src/auth/session.ts" } }]),
          textMessage(resolved([EXPIRY_LINE])),
        ],
      },
      approve,
    );
    const gate = await modelGate(fake.api);
    fake.gates.push(gate);
    const r = await reviewFixture(gate, "003_auth_change");
    expect(r.investigations[0]).toMatchObject({ status: "resolved" });
    expect(r.route).toBe("approved");
  });
});
