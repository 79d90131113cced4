import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawTarball, startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";
import { overlongName } from "../fakes/hostile-tarballs.js";
import { tempDir } from "../helpers/gate.js";
import { runGateCli } from "../helpers/run-cli.js";

const dir = tempDir("gate-cli-incomplete-");
const HEAD = "7e".repeat(20);
/** Git holds names of any length; the gate's disk does not (255 bytes per name). */
const VENDORED = overlongName("vendor/zlib-inflate", "");
const HEADER = "#ifndef INFLATE_H\n#define INFLATE_H\nint inflate(void);\n#endif\n";
const GPL = "                    GNU GENERAL PUBLIC LICENSE\n                       Version 2, June 1991\n";
let github: FakeGitHub;

beforeAll(async () => {
  github = await startFakeGitHub();
  github.setPull("acme", "parsers", 31, {
    pr: {
      number: 31,
      title: "Vendor zlib's inflate",
      body: "",
      html_url: "https://github.com/acme/parsers/pull/31",
      user: { login: "dev-ana" },
      draft: false,
      labels: [],
      base: { ref: "main", sha: "0".repeat(40), repo: { full_name: "acme/parsers" } },
      head: { ref: "vendor-zlib", sha: HEAD },
    },
    // A header without a licence notice, added beside the GPL COPYING the head already holds.
    files: [
      {
        filename: `${VENDORED}/inflate.h`,
        status: "added",
        additions: 4,
        deletions: 0,
        changes: 4,
        patch: `@@ -0,0 +1,4 @@\n${HEADER.trimEnd()
          .split("\n")
          .map((l) => `+${l}`)
          .join("\n")}`,
      },
    ],
  });
  const top = `acme-parsers-${HEAD.slice(0, 7)}`;
  github.setTarball(
    "acme",
    "parsers",
    HEAD,
    rawTarball([
      { path: `${top}/`, type: "Directory" },
      { path: `${top}/README.md`, type: "File", body: "# parsers\n" },
      { path: `${top}/${VENDORED}/`, type: "Directory" },
      { path: `${top}/${VENDORED}/COPYING`, type: "File", body: GPL },
      { path: `${top}/${VENDORED}/inflate.h`, type: "File", body: HEADER },
    ]),
  );
});
afterAll(async () => {
  await github.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("gate review owner/repo#n when the head snapshot lost a file", () => {
  it("a vendored folder whose name the filesystem cannot hold: its COPYING is named as lost, and a person decides", async () => {
    const r = await runGateCli(["review", "acme/parsers#31", "--json"], {
      env: {
        PATH: process.env.PATH ?? "",
        GATE_DB: path.join(dir, "gate.db"),
        GATE_DATA_DIR: dir,
        GATE_LOG_LEVEL: "silent",
        GITHUB_TOKEN: "ghp_test",
        GATE_GITHUB_API_URL: github.url,
      },
      cwd: dir,
    });
    const result = JSON.parse(r.stdout);
    expect(result.pr).toBe("acme/parsers#31");
    expect(result.route).toBe("human");
    expect(result.status).toBe("waiting_for_human");
    expect(result.escalation.reason).toBe("not_inspected");
    const detail: string = result.escalation.detail;
    // LIC-03 would rest on reading the COPYING; the person is told it could not be written, and why.
    expect(detail).toContain("the head snapshot is incomplete (not written: vendor/zlib-inflate_");
    expect(detail).toMatch(/_+\/COPYING \(ENAMETOOLONG: name too long\)/);
    expect(result.findings.some((f: { policy: string }) => f.policy === "LIC-03")).toBe(false);
    expect(github.find("GET", /\/tarball\//)).toHaveLength(1);
  });
});
