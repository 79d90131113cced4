import { describe, expect, it } from "vitest";
import { rawTarball } from "../fakes/github-api.js";
import * as stack from "./helpers.js";
import { p99 } from "./probes.js";

const start = stack.stacksClosedAfterEach();

/** Asks `/healthz` about every 50 ms until `busy()` is false; each answer's latency (ms). */
async function healthWhile(base: string, busy: () => boolean): Promise<number[]> {
  const took: number[] = [];
  while (busy()) {
    const started = performance.now();
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    await res.text();
    took.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 50));
  }
  return took;
}

/** Opens the PR, probes `/healthz` until the server is idle; the review's result and the probes. */
async function reviewWhileProbing(s: stack.Stack, pr: stack.ServedPr) {
  let settled = false;
  const probing = healthWhile(s.base, () => !settled);
  expect((await stack.postWebhook(s.base, JSON.stringify(stack.pullRequestEvent("opened", pr)))).status).toBe(202);
  await s.server.idle();
  settled = true;
  const health = await probing;
  const review = await stack.latestReview(s, pr);
  return { review, result: await s.server.gate.runner.result(review.id), health };
}

/** Serves acme/huge#number adding one TypeScript file of `lines` lines (in the diff and in the head tarball). */
function serveHugeFile(s: stack.Stack, number: number, lines: number): stack.ServedPr {
  const owner = "acme";
  const repo = "huge";
  const headSha = "c".repeat(40);
  const file = "src/generated/table.ts";
  const body = Array.from({ length: lines }, (_, i) => `export const v${i} = ${i};`);
  const patch = `@@ -0,0 +1,${lines} @@\n${body.map((l) => `+${l}`).join("\n")}`;
  const url = `https://github.com/${owner}/${repo}/pull/${number}`;
  s.gh.setPull(owner, repo, number, {
    pr: {
      number,
      title: "Add the generated table",
      body: "",
      html_url: url,
      user: { login: "dev" },
      base: { ref: "main", sha: "b".repeat(40), repo: { full_name: `${owner}/${repo}` } },
      head: { ref: "table", sha: headSha },
      changed_files: 1,
    },
    files: [{ filename: file, status: "added", additions: lines, deletions: 0, changes: lines, patch }],
  });
  s.gh.setInstallation(owner, repo, stack.INSTALLATION_ID);
  const top = `${owner}-${repo}-${headSha.slice(0, 7)}`;
  s.gh.setTarball(
    owner,
    repo,
    headSha,
    rawTarball([
      { path: `${top}/`, type: "Directory" },
      { path: `${top}/README.md`, type: "File", body: "# huge\n" },
      { path: `${top}/${file}`, type: "File", body: Buffer.from(`${body.join("\n")}\n`) },
    ]),
  );
  return { owner, repo, number, headSha, title: "Add the generated table", author: "dev", url };
}

describe("answers and files too large to read: the server keeps answering, a person decides", {
  timeout: 300_000,
}, () => {
  it("a 100 MB OSV answer is read as a stream and cut at GATE_MAX_ANSWER_BYTES: /healthz within 1 s at p99, the review goes to a person naming what was not read", async () => {
    const s = await start();
    const pr = stack.serveFixture(s, "018_vulnerable_dependency");
    s.osv.mode = "huge";
    const { review, result, health } = await reviewWhileProbing(s, pr);

    expect(review.status).toBe("waiting_for_human");
    expect(result.route).toBe("human");
    expect(result.escalation?.reason).toBe("lookup_failed");
    expect(result.escalation?.detail).toMatch(
      /known vulnerabilities are not known: lodash@4\.17\.20 \(npm\): .*querybatch sent an answer of more than 33554432 bytes; at most 33554432 are read \(GATE_MAX_ANSWER_BYTES\), so it was not read/,
    );
    // Read no further than the cap (plus what was in flight), and asked once: a cap is not retried.
    expect(s.osv.hugeSent).toBeLessThan(60 * 1024 * 1024);
    expect(s.osv.requests).toEqual(["POST /v1/querybatch"]);
    const [run] = stack.checkRunsOn(s.gh, pr.headSha);
    expect(run?.fields.conclusion).toBe("action_required");

    expect(health.length).toBeGreaterThan(3);
    process.stdout.write(`100 MB OSV answer: /healthz p99 ${p99(health).toFixed(0)} ms over ${health.length} probes\n`);
    expect(p99(health)).toBeLessThan(1_000);
  });

  it("a 1,000,000-line file in the PR is not read past GATE_MAX_FILE_LINES: /healthz within 1 s at p99, the review goes to a person naming the file", async () => {
    const s = await start();
    const pr = serveHugeFile(s, 9001, 1_000_000);
    const { review, result, health } = await reviewWhileProbing(s, pr);

    expect(review.status).toBe("waiting_for_human");
    expect(result.route).toBe("human");
    // The coverage ledger names the file and the cap; intake's note says the same (and is logged).
    expect(result.escalation).toEqual({
      reason: "not_inspected",
      detail:
        "not read by the detectors: src/generated/table.ts (its diff is 1000001 lines; at most 100000 are read " +
        "(GATE_MAX_FILE_LINES), so it was not read)",
    });
    const [run] = stack.checkRunsOn(s.gh, pr.headSha);
    expect(run?.fields.conclusion).toBe("action_required");
    expect(run?.annotations).toContainEqual(
      expect.objectContaining({
        path: "src/generated/table.ts",
        message: expect.stringContaining("GATE_MAX_FILE_LINES"),
      }),
    );

    expect(health.length).toBeGreaterThan(3);
    process.stdout.write(
      `1,000,000-line file: /healthz p99 ${p99(health).toFixed(0)} ms over ${health.length} probes\n`,
    );
    expect(p99(health)).toBeLessThan(1_000);
  });

  it("a page of GitHub's file list larger than GATE_MAX_ANSWER_BYTES is not read: the review goes to a person naming the page and the cap", async () => {
    const s = await start({ env: { GATE_MAX_ANSWER_BYTES: "1048576" } });
    // 60,000 lines (about 1.6 MB of diff): under the file caps, over this answer cap.
    const pr = serveHugeFile(s, 9002, 60_000);
    const { review, result } = await reviewWhileProbing(s, pr);

    expect(review.status).toBe("waiting_for_human");
    expect(result.escalation?.reason).toBe("intake_failed");
    expect(result.escalation?.detail).toBe(
      "could not load the pull request: cannot read pull request acme/huge#9002: GitHub's list of its changed files " +
        "(page 1) sent an answer of more than 1048576 bytes; at most 1048576 are read (GATE_MAX_ANSWER_BYTES), so it was not read",
    );
    const [run] = stack.checkRunsOn(s.gh, pr.headSha);
    expect(run?.fields.conclusion).toBe("action_required");
  });
});
