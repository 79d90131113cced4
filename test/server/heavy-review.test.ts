import { describe, expect, it } from "vitest";
import { syntheticPrJson } from "../../bench/synthetic.js";
import { CONFIG_MAX_BYTES } from "../../src/gate-file/config-caps.js";
import { rawTarball } from "../fakes/github-api.js";
import * as stack from "./helpers.js";
import { p99, probeWhile } from "./probes.js";

const start = stack.stacksClosedAfterEach();
const CONFIG = ".github/gate.yml";

/** Serves a PR of `files` added TypeScript files (ordinary service code) as acme/big#number. */
function serveLargePr(s: stack.Stack, number: number, files: number): stack.ServedPr {
  const { pr, files: list } = syntheticPrJson({ files, linesPerFile: 20, number });
  const owner = "acme";
  const repo = "big";
  const url = `https://github.com/${owner}/${repo}/pull/${number}`;
  s.gh.setPull(owner, repo, number, {
    pr: { ...pr, html_url: url, base: { ...pr.base, repo: { full_name: `${owner}/${repo}` } }, changed_files: files },
    files: list,
  });
  s.gh.setInstallation(owner, repo, stack.INSTALLATION_ID);
  const top = `${owner}-${repo}-${pr.head.sha.slice(0, 7)}`;
  s.gh.setTarball(
    owner,
    repo,
    pr.head.sha,
    rawTarball([
      { path: `${top}/`, type: "Directory" },
      { path: `${top}/README.md`, type: "File", body: "# big\n" },
    ]),
  );
  return { owner, repo, number, headSha: pr.head.sha, title: pr.title, author: pr.user.login, url };
}

/** A configuration file of about `bytes` bytes: valid YAML, many exceptions. */
function largeConfig(bytes: number): string {
  const lines = ["version: 1", "exceptions:"];
  for (let i = 0; lines.join("\n").length < bytes; i++)
    lines.push(
      "  - policy: LIC-02",
      `    package: vendored-package-number-${i}@^1`,
      `    reason: reviewed by legal in ticket LEGAL-${i} and found acceptable for this service`,
      '    granted_by: "@legal"',
      "    expires: 2099-01-01",
    );
  return `${lines.join("\n")}\n`;
}

describe("heavy reviews off the answering thread", { timeout: 300_000 }, () => {
  it("while a 3,000-file PR, a repository with a 1 MB .github/gate.yml and one with a file just under the cap are reviewed, /healthz and signed webhooks answer within 1 s at p99; the 1 MB file is refused naming its line, the review goes to a person", async () => {
    const s = await start({ env: { GATE_CONCURRENCY: "3", GATE_WORKERS: "1" } });
    const big = serveLargePr(s, 7001, 3_000);
    const huge = stack.serveFixture(s, "001_readme_typo");
    const large = stack.serveFixture(s, "017_version_bump");
    // Each PR's base commit carries the configuration file intake reads.
    s.gh.setContent(huge.owner, huge.repo, "1".repeat(40), CONFIG, largeConfig(1024 * 1024));
    const underCap = largeConfig(CONFIG_MAX_BYTES - 2_000);
    s.gh.setContent(large.owner, large.repo, "d6d969d1010bfbbef9174cbd12768fc81dc5f8ae", CONFIG, underCap);

    // Idle first: the same probes with nothing to review.
    let idleProbes = 0;
    const idle = await probeWhile(s.base, () => idleProbes++ < 40);
    let settled = false;
    const probing = probeWhile(s.base, () => !settled);
    for (const pr of [big, huge, large])
      expect((await stack.postWebhook(s.base, JSON.stringify(stack.pullRequestEvent("opened", pr)))).status).toBe(202);
    await s.server.idle();
    settled = true;
    const busy = await probing;

    const results = await Promise.all(
      [big, huge, large].map(async (pr) => s.server.gate.runner.result((await stack.latestReview(s, pr)).id)),
    );
    const [bigResult, hugeResult, largeResult] = results;
    expect(bigResult?.pr).toBe("acme/big#7001");
    // The 1 MB file is refused before it is parsed, naming the line the cap crosses; a person decides.
    expect(hugeResult?.route).toBe("human");
    expect(hugeResult?.escalation?.detail).toMatch(
      new RegExp(
        `gate\\.yml@111111111111:\\d+:1: \\(file\\): the file is \\d+ bytes; at most ${CONFIG_MAX_BYTES} are read`,
      ),
    );
    // The file under the cap was parsed (on the worker) and used: its exceptions are in the review's configuration.
    const config = await s.server.gate.reviewConfig((await stack.latestReview(s, large)).id);
    expect(config?.sources.at(-1)).toMatch(/^acme\/web-dashboard:\.github\/gate\.yml@/);
    expect(largeResult).toBeDefined();
    for (const pr of [big, huge, large]) {
      const runs = stack.checkRunsOn(s.gh, pr.headSha);
      expect(runs).toHaveLength(1);
      expect(runs[0]?.fields.status).toBe("completed");
    }

    expect(busy.health.length).toBeGreaterThan(10);
    const figures = {
      idle: { health: p99(idle.health), webhook: p99(idle.webhook) },
      busy: { health: p99(busy.health), webhook: p99(busy.webhook), probes: busy.health.length },
    };
    process.stdout.write(`heavy review probes (ms p99): ${JSON.stringify(figures)}\n`);
    expect(figures.busy.health).toBeLessThan(1_000);
    expect(figures.busy.webhook).toBeLessThan(1_000);
  });
});
