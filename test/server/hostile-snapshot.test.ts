import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { deepTarball, gzipBomb, manyFilesTarball } from "../fakes/hostile-tarballs.js";
import { postWebhook, pullRequestEvent, record, serveFixture, startStack, treeOf, type Stack } from "./helpers.js";

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(): Promise<Stack> {
  stack = await startStack();
  return stack;
}

/** A correctness bound, not a speed goal: an answer this late means the event loop was blocked. */
const ANSWER_WITHIN_MS = 1000;

interface Probe {
  what: "healthz" | "webhook";
  status: number;
  ms: number;
  /** Sent after the tarball was served and before the review settled: during extraction. */
  during: boolean;
}

/**
 * Asks `/healthz` and sends a signed webhook (a ping), one after the other, until `settled()`;
 * each answer's latency is recorded.
 */
async function probeUntil(s: Stack, extracting: () => boolean, settled: () => Promise<boolean>): Promise<Probe[]> {
  const probes: Probe[] = [];
  while (!(await settled())) {
    const during = extracting() && !(await settled());
    let started = Date.now();
    const health = await fetch(`${s.base}/healthz`);
    await health.text();
    probes.push({ what: "healthz", status: health.status, ms: Date.now() - started, during });
    started = Date.now();
    const ping = await postWebhook(s.base, JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 }), {
      event: "ping",
    });
    probes.push({ what: "webhook", status: ping.status, ms: ping.ms, during: during && extracting() });
    await new Promise((r) => setTimeout(r, 10));
  }
  return probes;
}

/**
 * Reviews a PR whose head is a hostile tarball. The PR's review must read its head, or nothing is
 * downloaded: by default one whose detectors read its dependency manifest.
 */
async function reviewHostileHead(s: Stack, tarball: (top: string) => Buffer, fixture = "002_new_dependency") {
  const pr = serveFixture(s, fixture);
  const top = `${pr.owner}-${pr.repo}-${pr.headSha.slice(0, 7)}`;
  s.gh.setTarball(pr.owner, pr.repo, pr.headSha, tarball(top));
  const key = `${pr.owner}/${pr.repo}#${pr.number}`;
  expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)))).status).toBe(202);
  const served = () => s.gh.find("GET", /^\/_codeload\//).length > 0;
  const settled = async () => (await s.server.gate.store.latestForPr(key))?.status === "waiting_for_human";
  const probes = await probeUntil(s, served, settled);
  await s.server.idle();
  const review = await s.server.gate.store.latestForPr(key);
  expect(review?.status).toBe("waiting_for_human");
  const result = await s.server.gate.runner.result(review?.id ?? "");
  const [run] = s.gh.checkRuns.values();
  return { pr, probes, result, run };
}

describe("hostile head snapshots, on the real server", () => {
  it("refuses a 1 GiB gzip bomb at GATE_SNAPSHOT_MAX_BYTES, hands the review to a person, and keeps answering", async () => {
    const s = await start();
    const { probes, result, run, pr } = await reviewHostileHead(s, (top) => gzipBomb(top, { files: 128, fileMiB: 8 }));
    expect(result.route).toBe("human");
    expect(result.escalation?.reason).toBe("not_inspected");
    expect(result.escalation?.detail).toContain("GATE_SNAPSHOT_MAX_BYTES");
    expect(run?.fields.conclusion).toBe("action_required");
    expect(JSON.stringify(record(run?.fields.output))).toContain("GATE_SNAPSHOT_MAX_BYTES");
    expect(probes.filter((p) => p.during).length).toBeGreaterThan(0);
    for (const p of probes) {
      expect(p.status, p.what).toBe(200);
      expect(p.ms, `${p.what} answered in ${p.ms} ms`).toBeLessThan(ANSWER_WITHIN_MS);
    }
    // Nothing of the snapshot is left.
    expect(treeOf(s.dataDir).filter((p) => p.includes(pr.headSha))).toEqual([]);
  });

  it("refuses a 100,000-file tarball at GATE_SNAPSHOT_MAX_FILES before writing a file, and keeps answering", async () => {
    const s = await start();
    const { probes, result, run, pr } = await reviewHostileHead(s, (top) => manyFilesTarball(top, 100_000));
    expect(result.escalation?.reason).toBe("not_inspected");
    expect(result.escalation?.detail).toContain("more than 50000 entries");
    expect(result.escalation?.detail).toContain("GATE_SNAPSHOT_MAX_FILES");
    expect(run?.fields.conclusion).toBe("action_required");
    expect(probes.filter((p) => p.during).length).toBeGreaterThan(0);
    for (const p of probes) {
      expect(p.status, p.what).toBe(200);
      expect(p.ms, `${p.what} answered in ${p.ms} ms`).toBeLessThan(ANSWER_WITHIN_MS);
    }
    expect(fs.existsSync(s.dataDir)).toBe(true);
    expect(treeOf(s.dataDir).filter((p) => p.includes(pr.headSha))).toEqual([]);
  });

  it("a head only the investigator reads, over GATE_SNAPSHOT_MAX_DEPTH: the investigation is inconclusive and a person decides", async () => {
    const s = await start();
    const { result, run, pr } = await reviewHostileHead(s, (top) => deepTarball(top, 100), "003_auth_change");
    expect(s.gh.find("GET", /\/tarball\//)).toHaveLength(1);
    expect(result.route).toBe("human");
    expect(result.escalation?.reason).toBe("inconclusive");
    expect(result.escalation?.detail).toContain("was refused");
    expect(result.escalation?.detail).toContain("GATE_SNAPSHOT_MAX_DEPTH");
    expect(run?.fields.conclusion).toBe("action_required");
    expect(treeOf(s.dataDir).filter((p) => p.includes(pr.headSha))).toEqual([]);
  });
});
