import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CallFollower } from "../../../src/investigator/auth-checks/followed-call.js";
import { checkFamilyOf } from "../../../src/investigator/auth-checks/line-check.js";
import { tempDir } from "../../helpers/gate.js";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

/** A snapshot folder holding these files. */
function snapshot(files: Record<string, string[]>): string {
  const root = tempDir("gate-follow-");
  roots.push(root);
  for (const [file, lines] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), `${lines.join("\n")}\n`);
  }
  return root;
}

const follow = (root: string, callee: string, method: string, family: "js" | "python" = "js") =>
  new CallFollower(root, family, checkFamilyOf).follow(callee, method);

describe("CallFollower: a project's verify helper verifies only if its body does", () => {
  it("a method that only decodes does not verify, naming where it is defined", async () => {
    const root = snapshot({
      "src/auth/jwt-verify.ts": [
        'import jwt from "jsonwebtoken";',
        "export const jwtVerify = {",
        "  verify(token: string) {",
        "    return jwt.decode(token);",
        "  },",
        "};",
      ],
    });
    expect(await follow(root, "jwtVerify.verify", "verify")).toEqual({
      verifies: false,
      reason: "jwtVerify.verify is defined in src/auth/jwt-verify.ts:3, whose body does not verify",
    });
  });

  it("an arrow function calling a helper that calls crypto's timingSafeEqual verifies, two calls deep", async () => {
    const root = snapshot({
      "lib/sig.js": [
        "const { timingSafeEqual } = require('node:crypto');",
        "const same = (a, b) => a.length === b.length && timingSafeEqual(a, b);",
        "const verifySignature = (sig, want) => same(Buffer.from(sig), Buffer.from(want));",
        "module.exports = { verifySignature };",
      ],
    });
    expect(await follow(root, "verifySignature", "verifySignature")).toEqual({
      verifies: true,
      via: "lib/sig.js:3",
    });
  });

  it("every definition of the name must verify: a real one elsewhere does not cover a fake one", async () => {
    const root = snapshot({
      "a/real.ts": [
        "import jwt from 'jsonwebtoken';",
        "export function check(t: string) { return jwt.verify(t, KEY); }",
      ],
      "b/fake.ts": ["import jwt from 'jsonwebtoken';", "export function check(t: string) { return jwt.decode(t); }"],
    });
    expect(await follow(root, "check", "check")).toEqual({
      verifies: false,
      reason: "check is defined in b/fake.ts:2, whose body does not verify",
    });
  });

  it("a helper the snapshot does not define, and helpers that only call each other, do not verify", async () => {
    const root = snapshot({
      "src/loop.ts": [
        "export function ping(t: string): boolean { return pong(t); }",
        "function pong(t: string): boolean { return ping(t); }",
      ],
    });
    expect(await follow(root, "auth.verify", "verify")).toEqual({
      verifies: false,
      reason: "auth.verify is not defined in the snapshot, so its body cannot be read",
    });
    expect(await follow(root, "ping", "ping")).toMatchObject({ verifies: false });
  });

  it("Python: a method calling hmac.compare_digest verifies; one in a JavaScript file of the same name is not read", async () => {
    const root = snapshot({
      "app/tokens.py": [
        "import hmac",
        "class Signer:",
        "    def verify(self, sig, want):",
        "        return hmac.compare_digest(sig, want)",
      ],
      "web/tokens.js": ["export function verify(t) { return t; }"],
    });
    expect(await follow(root, "signer.verify", "verify", "python")).toEqual({ verifies: true, via: "app/tokens.py:3" });
    expect(await follow(root, "signer.verify", "verify", "js")).toMatchObject({ verifies: false });
  });
});
