import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import type { RawEntry } from "../fakes/github-api.js";
import { rawTarball } from "../fakes/github-api.js";
import { unwritableFile } from "../fakes/hostile-tarballs.js";
import { checkRunsOn, openPr, record, serveFixture, stacksClosedAfterEach, type Stack } from "./helpers.js";

const start = stacksClosedAfterEach();
const FIXTURE = path.join(PACKAGE_ROOT, "fixtures", "012_vendored_gpl_source");
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(FIXTURE, file), "utf8"));
const repoFile = (rel: string) => fs.readFileSync(path.join(FIXTURE, "repo", rel), "utf8");

/**
 * The vendoring PR of fixture 012, narrowed to its header file (no licence notice of its own):
 * only the GPL `COPYING` already in the head's `vendor/fastjson/` says the folder is copyleft, so
 * LIC-03 rests on reading it. `copying` says how the head's tarball holds it.
 */
function serveVendoredHeader(s: Stack, copying: (top: string) => RawEntry[]) {
  const pr = serveFixture(s, "012_vendored_gpl_source");
  const files = readJson("files.json") as Array<{ filename: string }>;
  const header = files.filter((f) => f.filename === "vendor/fastjson/parse.h");
  expect(header).toHaveLength(1);
  s.gh.setPull(pr.owner, pr.repo, pr.number, {
    pr: { ...(readJson("pr.json") as object), changed_files: 1 },
    files: header,
  });
  const top = `${pr.owner}-${pr.repo}-${pr.headSha.slice(0, 7)}`;
  s.gh.setTarball(
    pr.owner,
    pr.repo,
    pr.headSha,
    rawTarball([
      { path: `${top}/`, type: "Directory" },
      { path: `${top}/README.md`, type: "File", body: "# ingest-engine\n" },
      { path: `${top}/vendor/fastjson/parse.c`, type: "File", body: repoFile("vendor/fastjson/parse.c") },
      { path: `${top}/vendor/fastjson/parse.h`, type: "File", body: repoFile("vendor/fastjson/parse.h") },
      ...copying(top),
    ]),
  );
  return pr;
}

describe("a head snapshot that lost a file, on the real server", () => {
  it("with the vendored COPYING written whole, LIC-03 fires from it (the read is what the review rests on)", async () => {
    const s = await start();
    const pr = serveVendoredHeader(s, (top) => [
      { path: `${top}/vendor/fastjson/COPYING`, type: "File", body: repoFile("vendor/fastjson/COPYING") },
    ]);
    const review = await openPr(s, pr);
    const result = await s.server.gate.runner.result(review.id);
    expect(result.findings.map((f) => `${f.policy} ${f.file}`)).toContain("LIC-03 vendor/fastjson/parse.h");
    // The vendored C is read whole (C has a grammar): the licence finding is what a person decides on.
    expect(result.escalation?.reason).toBe("blocking_finding");
    expect(result.coverage?.unread ?? []).toEqual([]);
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["action_required"]);
  });

  it("with the COPYING lost to a write error, a person decides, told which file and why; the check run is never success", async () => {
    const s = await start();
    const pr = serveVendoredHeader(s, (top) =>
      unwritableFile(`${top}/vendor/fastjson/COPYING`, repoFile("vendor/fastjson/COPYING")),
    );
    const review = await openPr(s, pr);
    expect(review.status).toBe("waiting_for_human");
    const result = await s.server.gate.runner.result(review.id);
    expect(result.route).toBe("human");
    expect(result.route).not.toMatch(/^(approved|auto_approved)$/);
    expect(result.escalation?.reason).toBe("not_inspected");
    expect(result.escalation?.detail).toContain(
      "the head snapshot is incomplete: vendor/fastjson/COPYING was not written (ENOTEMPTY: directory not empty)",
    );
    // LIC-03 did not fire (nothing could read the licence), and that is exactly why a person decides.
    expect(result.findings.some((f) => f.policy === "LIC-03")).toBe(false);

    const runs = checkRunsOn(s.gh, pr.headSha);
    expect(runs.map((r) => r.fields.conclusion)).toEqual(["action_required"]);
    expect(JSON.stringify(record(runs[0]?.fields.output))).toContain("vendor/fastjson/COPYING was not written");
    expect(s.gh.find("GET", /\/tarball\//)).toHaveLength(1);
  });
});
