import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defined } from "../helpers/defined.js";
import { tempDir } from "../helpers/gate.js";
import { checkRunsOn, openPr, serveFixture, stacksClosedAfterEach, treeOf, type Stack } from "./helpers.js";

/** Starts a stack, closed after its test. */
const start = stacksClosedAfterEach();
let dbDir: string | undefined;
afterEach(() => {
  if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
  dbDir = undefined;
});

const tarballDownloads = (s: Stack) => s.gh.find("GET", /\/tarball\//).length;

describe("the head snapshot: fetched when first needed, again on a process that has none", () => {
  it("a docs-only live PR downloads no tarball", async () => {
    const s = await start();
    const pr = serveFixture(s, "001_readme_typo");
    await openPr(s, pr);
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["success"]);
    // GitHub was asked for the PR and its files, never for the head's tarball.
    expect(s.gh.find("GET", /\/pulls\/\d+\/files$/).length).toBeGreaterThan(0);
    expect(tarballDownloads(s)).toBe(0);
    expect(s.gh.find("GET", /^\/_codeload\//)).toHaveLength(0);
    expect(treeOf(s.dataDir).filter((p) => p.startsWith("snapshots"))).toEqual([]);
  });

  it("a Request info answered after a restart with an empty GATE_DATA_DIR downloads the head again and cites its lines", async () => {
    // The database sits outside the data directory, so the data directory can be lost whole.
    dbDir = tempDir("gate-refetch-db-");
    const s = await start({ env: { GATE_DB: path.join(dbDir, "gate.db") } });
    const pr = serveFixture(s, "003b_auth_change_logs_token");
    const review = await openPr(s, pr);
    expect(review.status).toBe("waiting_for_human");
    const first = await s.server.gate.runner.result(review.id);
    expect(first.investigations).toHaveLength(1);
    expect(first.investigations[0]?.evidence.length).toBeGreaterThan(0);
    expect(tarballDownloads(s)).toBe(1);
    // A waiting review keeps this process's copy.
    expect(fs.existsSync(path.join(s.dataDir, "snapshots", pr.owner, pr.repo, `${pr.headSha}.snapshot`, "tree"))).toBe(
      true,
    );

    // As a replica that never had it: the process restarts with no data directory at all.
    await s.server.close();
    fs.rmSync(s.dataDir, { recursive: true, force: true });
    const second = await s.restart();
    const outcome = await second.gate.runner.decide(review.id, {
      kind: "info",
      by: "alice",
      question: "where is the session token logged?",
    });
    expect(outcome.ok).toBe(true);
    await second.idle();

    expect(tarballDownloads(s)).toBe(2);
    const after = await second.gate.runner.result(review.id);
    expect(after.investigations).toHaveLength(2);
    const answer = defined(after.investigations.at(-1), "the answer");
    expect(answer.question).toBe("where is the session token logged?");
    expect(answer.tool_calls).toBeGreaterThan(0);
    expect(answer.reason ?? "").not.toMatch(/snapshot/);
    // The answer cites lines of the head: the helper outside the diff that logs the token.
    const cited = answer.evidence;
    expect(cited).toContainEqual(expect.objectContaining({ file: "src/audit/audit.ts", line: 6 }));
    const headFile = fs.readFileSync(
      path.join(
        s.dataDir,
        "snapshots",
        pr.owner,
        pr.repo,
        `${pr.headSha}.snapshot`,
        "tree",
        cited[0]?.file ?? "missing",
      ),
      "utf8",
    );
    for (const e of cited) expect(e.line).toBeGreaterThan(0);
    expect(headFile.split("\n")[(cited[0]?.line ?? 0) - 1]).toContain(cited[0]?.excerpt.trim());

    // A settled review frees the copy.
    expect((await second.gate.runner.decide(review.id, { kind: "approve", by: "alice" })).ok).toBe(true);
    await second.idle();
    expect((await second.gate.store.get(review.id))?.status).toBe("done");
    expect(treeOf(s.dataDir).filter((p) => p.includes(pr.headSha))).toEqual([]);
    expect(checkRunsOn(s.gh, pr.headSha).map((r) => r.fields.conclusion)).toEqual(["success"]);
  });

  it("a re-run of the same head keeps the copy the superseded review leaves, and reads it without a second download", async () => {
    const s = await start();
    const pr = serveFixture(s, "003b_auth_change_logs_token");
    const old = await openPr(s, pr);
    const { runner, store } = s.server.gate;
    expect(tarballDownloads(s)).toBe(1);

    const fresh = await runner.registerRerun(old.id, "alice");
    await runner.supersedeForRerun(fresh);
    expect((await store.get(old.id))?.status).toBe("superseded");
    expect(fs.existsSync(path.join(s.dataDir, "snapshots", pr.owner, pr.repo, `${pr.headSha}.snapshot`, "tree"))).toBe(
      true,
    );
    const result = await runner.run(fresh.id);
    expect(result.investigations[0]?.evidence).toContainEqual(
      expect.objectContaining({ file: "src/audit/audit.ts", line: 6 }),
    );
    expect(tarballDownloads(s)).toBe(1);
  });
});
