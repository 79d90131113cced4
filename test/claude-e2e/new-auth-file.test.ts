import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { textMessage, toolUseMessage } from "../fakes/anthropic-api.js";
import { reviewFixture, tempDir } from "../helpers/gate.js";
import { modelGate, requestsOf, routeByCaller, useFakeAnthropic, type Caller } from "./helpers.js";

const TOKEN_FILE = "src/auth/token.ts";

/** A new bearer-token helper: the claims come from `claimsLine`, everything else is the same. */
function tokenModule(claimsLine: string, padding: string[] = []): string[] {
  return [
    'import jwt from "jsonwebtoken";',
    'import type { Request } from "express";',
    ...padding,
    "",
    "/** The signed-in user's id, from the request's bearer token. */",
    "export function userIdOf(req: Request): string | undefined {",
    '  const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");',
    claimsLine,
    "  return claims?.sub;",
    "}",
  ];
}

const DECODES = tokenModule("  const claims = jwt.decode(token) as { sub?: string } | null;");
const VERIFIES = tokenModule(
  '  const claims = jwt.verify(token, process.env.JWT_PUBLIC_KEY ?? "", { algorithms: ["RS256"] }) as { sub?: string };',
);

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A fixture-shaped PR (pr.json, files.json, repo/) that adds `src/auth/token.ts` with these lines. */
function addingTokenFile(
  lines: string[],
  outside: Record<string, string[]> = {},
): { fixturesDir: string; name: string } {
  const fixturesDir = tempDir("gate-new-auth-");
  dirs.push(fixturesDir);
  const name = "new_token_module";
  const dir = path.join(fixturesDir, name);
  fs.mkdirSync(path.join(dir, "repo", "src", "auth"), { recursive: true });
  const pr = JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, "003_auth_change", "pr.json"), "utf8"));
  fs.writeFileSync(
    path.join(dir, "pr.json"),
    JSON.stringify({
      ...pr,
      number: 311,
      title: "Add userIdOf for the API routes",
      body: "Reads the caller from the token.",
    }),
  );
  const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}`;
  fs.writeFileSync(
    path.join(dir, "files.json"),
    JSON.stringify([
      { filename: TOKEN_FILE, status: "added", additions: lines.length, deletions: 0, changes: lines.length, patch },
    ]),
  );
  fs.writeFileSync(path.join(dir, "repo", TOKEN_FILE), `${lines.join("\n")}\n`);
  // Files of the repository the PR does not change: in the snapshot, not in the diff.
  for (const [file, text] of Object.entries(outside)) {
    fs.mkdirSync(path.dirname(path.join(dir, "repo", file)), { recursive: true });
    fs.writeFileSync(path.join(dir, "repo", file), `${text.join("\n")}\n`);
  }
  fs.copyFileSync(
    path.join(BUNDLED_FIXTURES_DIR, "003_auth_change", "repo", "package.json"),
    path.join(dir, "repo", "package.json"),
  );
  return { fixturesDir, name };
}

/** Specialists that find nothing, the security one calling SEC-03 compliant. */
const approve = (caller: Caller | undefined) =>
  textMessage(
    caller === "security"
      ? { findings: [], verdicts: [{ policy: "SEC-03", verdict: "compliant", reason: "the helper is fine" }] }
      : { findings: [], verdicts: [] },
  );

/** The stand-in model: it reads the file (from `offset`), then answers "resolved" citing line `line`. */
function alwaysResolved(lines: string[], line: number, offset?: number) {
  return [
    toolUseMessage([{ id: "toolu_1", name: "read_file", input: { path: TOKEN_FILE, ...(offset ? { offset } : {}) } }]),
    textMessage({
      answers: ["Resolved: the token is handled safely and nothing is logged. Approve."],
      evidence: [{ file: TOKEN_FILE, line, excerpt: (lines[line - 1] ?? "").trim() }],
      concerns: [],
      conclusive: true,
    }),
  ];
}

const fake = useFakeAnthropic();

async function review(lines: string[], line: number, offset?: number, outside: Record<string, string[]> = {}) {
  routeByCaller(fake.api, { investigator: alwaysResolved(lines, line, offset) }, approve);
  const gate = await modelGate(fake.api);
  fake.gates.push(gate);
  const { fixturesDir, name } = addingTokenFile(lines, outside);
  return reviewFixture(gate, name, fixturesDir);
}

describe("a new auth file: a model clears nothing it did not show", () => {
  it("a new file that decodes a token without verifying it goes to a person, though the model says 'resolved' citing an import line it read", async () => {
    const r = await review(DECODES, 1);

    expect(requestsOf(fake.api, "investigator")).toHaveLength(2);
    expect(r.route).toBe("human");
    expect(r.status).toBe("waiting_for_human");
    expect(r.investigations).toHaveLength(1);
    expect(r.investigations[0]).toMatchObject({ status: "inconclusive" });
    expect(r.investigations[0]?.reason).toBe(
      "the model's clearance cited no line that shows the check in src/auth/token.ts: SEC-03 needs the line that " +
        "verifies the token, signature or password (a verify or compare call the harness recognises)",
    );
    expect(r.escalation).toEqual({
      reason: "inconclusive",
      detail: `investigation inconclusive: ${r.investigations[0]?.reason}`,
    });
    // The detector's SEC-03 still blocks, whatever the security specialist's "compliant" said.
    expect(r.findings).toContainEqual(
      expect.objectContaining({ policy: "SEC-03", file: TOKEN_FILE, blocking: true, needs_more_context: false }),
    );
  });

  it("citing the decode line itself does not clear it either", async () => {
    const r = await review(DECODES, 7);
    expect(r.route).toBe("human");
    expect(r.investigations[0]?.reason).toMatch(
      /^the model's clearance cited no line that shows the check in src\/auth\/token\.ts/,
    );
  });

  it("the same file verifying the token, the model citing the verify line, is cleared as before: approved", async () => {
    const r = await review(VERIFIES, 7);

    expect(r.investigations[0]).toMatchObject({ status: "resolved", reason: "" });
    expect(r.route).toBe("approved");
    expect(r.escalation).toBeNull();
    expect(r.findings).toContainEqual(
      expect.objectContaining({ policy: "SEC-03", file: TOKEN_FILE, blocking: false, needs_more_context: false }),
    );
  });

  it("the verifying file, with the model citing its import line, still goes to a person", async () => {
    const r = await review(VERIFIES, 1);
    expect(r.route).toBe("human");
    expect(r.investigations[0]?.reason).toMatch(/cited no line that shows the check in src\/auth\/token\.ts/);
  });

  it("a new file whose verify line the deterministic investigation cannot reach goes to a person, though the model read and cited it", async () => {
    // 1,200 lines of scopes first: the rules read the first 20,000 characters, the model reads on.
    const scopes = [
      "export const SCOPES = [",
      ...Array.from({ length: 1200 }, (_, i) => `  "read:resource-${String(i).padStart(4, "0")}",`),
      "];",
    ];
    const lines = tokenModule(VERIFIES[6] ?? "", scopes);
    const verifyLine = lines.findIndex((l) => l.includes("jwt.verify")) + 1;
    expect(verifyLine).toBeGreaterThan(1000);
    const r = await review(lines, verifyLine, verifyLine - 5);

    expect(r.route).toBe("human");
    expect(r.investigations[0]).toMatchObject({ status: "inconclusive" });
    expect(r.investigations[0]?.reason).toBe(
      "src/auth/token.ts is a new authentication file that the deterministic investigation could not assess " +
        "(no line it read shows the check), so the model's clearance does not settle SEC-03: a person decides",
    );
  });
});

/** A helper outside the diff whose `verify` only decodes: the name says verify, the body does not. */
const FAKE_VERIFIER = [
  'import jwt from "jsonwebtoken";',
  "",
  "export const jwtVerify = {",
  "  verify(token: string): unknown {",
  "    return jwt.decode(token);",
  "  },",
  "};",
];
const REAL_VERIFIER = [
  'import jwt from "jsonwebtoken";',
  "",
  "export const jwtVerify = {",
  "  verify(token: string): unknown {",
  "    return checked(token);",
  "  },",
  "};",
  "",
  "function checked(token: string): unknown {",
  '  return jwt.verify(token, process.env.JWT_PUBLIC_KEY ?? "", { algorithms: ["RS256"] });',
  "}",
];
const CALLS_HELPER = [
  'import { jwtVerify } from "./jwt-verify";',
  ...tokenModule("  const claims = jwtVerify.verify(token) as { sub?: string } | null;").slice(1),
];

describe("a cited verification counts only when the called function's own body verifies", () => {
  it("a model citing `jwtVerify.verify(...)` whose `verify` only calls `jwt.decode` goes to a person", async () => {
    const line = CALLS_HELPER.findIndex((l) => l.includes("jwtVerify.verify(")) + 1;
    const r = await review(CALLS_HELPER, line, undefined, { "src/auth/jwt-verify.ts": FAKE_VERIFIER });

    expect(r.route).toBe("human");
    expect(r.status).toBe("waiting_for_human");
    expect(r.investigations[0]).toMatchObject({ status: "inconclusive" });
    expect(r.investigations[0]?.reason).toMatch(/cited no line that shows the check in src\/auth\/token\.ts/);
    expect(r.investigations[0]?.reason).toContain(
      "jwtVerify.verify is defined in src/auth/jwt-verify.ts:4, whose body does not verify",
    );
    expect(r.findings).toContainEqual(expect.objectContaining({ policy: "SEC-03", file: TOKEN_FILE, blocking: true }));
  });

  it("the same call, `verify` calling a function that calls `jwt.verify`, is followed two calls deep and cleared", async () => {
    const line = CALLS_HELPER.findIndex((l) => l.includes("jwtVerify.verify(")) + 1;
    const r = await review(CALLS_HELPER, line, undefined, { "src/auth/jwt-verify.ts": REAL_VERIFIER });

    expect(r.investigations[0]).toMatchObject({ status: "resolved" });
    expect(r.route).toBe("approved");
  });
});
