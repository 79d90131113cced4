import { generateKeyPairSync } from "node:crypto";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCheckPublisher } from "../../src/github/check-publisher.js";
import { createGitHubAuth } from "../../src/github/client.js";
import type { ResultFinding, ReviewResult } from "../../src/domain/review-result.js";
import type { ReviewRecord } from "../../src/domain/review.js";
import { startFakeGitHub, type FakeGitHub } from "../fakes/github-api.js";

const HEAD = "f".repeat(40);
/** Retries in milliseconds instead of seconds, writes unpaced: the same logic, fast. */
const FAST = { baseMs: 1, writeSpacingMs: 0 };
const log = pino({ level: "silent" });
const { privateKey, publicKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

function record(over: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
    id: "r-1",
    pr: "acme/web#7",
    repo: "acme/web",
    number: 7,
    headSha: HEAD,
    title: "Add login",
    url: "https://github.com/acme/web/pull/7",
    author: "dev",
    status: "waiting_for_human",
    source: "github",
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    installationId: 77,
    ...over,
  };
}

function findings(n: number): ResultFinding[] {
  return Array.from({ length: n }, (_, i) => ({
    specialty: "security" as const,
    policy: "SEC-02",
    severity: "high" as const,
    blocking: i % 2 === 0,
    needs_more_context: false,
    file: `src/f${i}.ts`,
    line: i + 1,
    message: `finding ${i}`,
  }));
}

function result(over: Partial<ReviewResult> = {}): ReviewResult {
  return {
    pr: "acme/web#7",
    route: "human",
    status: "waiting_for_human",
    risk: { score: 80, class: "code", reasons: [] },
    findings: findings(120),
    escalation: { reason: "blocking_finding", detail: "SEC-02" },
    budget: {
      cycles_used: 0,
      cycles_max: 2,
      tool_calls: 0,
      model_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cost_usd: 0,
    },
    investigations: [],
    coverage: null,
    review_id: "r-1",
    ...over,
  };
}

function annotationCount(body: unknown): number {
  const output = typeof body === "object" && body !== null && "output" in body ? body.output : undefined;
  const list =
    typeof output === "object" && output !== null && "annotations" in output ? output.annotations : undefined;
  return Array.isArray(list) ? list.length : 0;
}

describe("check publisher, GitHub App mode", () => {
  let gh: FakeGitHub;
  beforeAll(async () => {
    gh = await startFakeGitHub({ appPublicKeyPem: publicKey });
  });
  afterAll(() => gh.close());

  it("creates one check run, then updates it; 120 annotations go out 50 at a time, never twice", async () => {
    const auth = createGitHubAuth({ apiUrl: gh.url, appId: "123", privateKey, retry: FAST });
    expect(auth.mode).toBe("app");
    const publisher = createCheckPublisher({ auth, log, askedWho: () => "#security" });

    const first = await publisher.publish(record(), result());
    expect(first.checkRunId).toBeTypeOf("number");
    expect(gh.tokensIssued).toEqual([77]);
    const creates = gh.find("POST", /\/repos\/acme\/web\/check-runs$/);
    const updates = gh.find("PATCH", /\/repos\/acme\/web\/check-runs\/\d+$/);
    expect(creates).toHaveLength(1);
    expect(creates[0]?.authorization).toBe("token ghs_fake_installation_77");
    expect(creates[0]?.body).toMatchObject({
      name: "compliance-gate",
      head_sha: HEAD,
      status: "completed",
      conclusion: "action_required",
      output: { title: "Waiting for a person: #security" },
    });
    expect([...creates, ...updates].map((r) => annotationCount(r.body))).toEqual([50, 50, 20]);
    const run = gh.checkRuns.get(first.checkRunId ?? -1);
    expect(run?.annotations).toHaveLength(120);

    // A person approves: the same run is updated, no second run, no duplicated annotations.
    const approved = result({
      route: "human_approved",
      status: "done",
      decision: { kind: "approve", by: "alice", at: "2026-01-02T00:00:00Z" },
    });
    const second = await publisher.publish(record({ checkRunId: first.checkRunId, status: "done" }), approved);
    expect(second.checkRunId).toBe(first.checkRunId);
    expect(gh.find("POST", /\/check-runs$/)).toHaveLength(1);
    expect(gh.checkRuns.size).toBe(1);
    expect(run?.annotations).toHaveLength(120);
    expect(run?.fields).toMatchObject({ conclusion: "success", output: { title: "Approved by alice" } });
    expect(gh.tokensIssued).toEqual([77]); // the installation token is cached
  });

  it("creates a new run when the recorded one is gone", async () => {
    const auth = createGitHubAuth({ apiUrl: gh.url, appId: "123", privateKey, retry: FAST });
    const publisher = createCheckPublisher({ auth, log });
    const before = gh.checkRuns.size;
    const receipt = await publisher.publish(
      record({ id: "r-gone", checkRunId: 424242 }),
      result({ review_id: "r-gone", findings: findings(2) }),
    );
    expect(receipt.checkRunId).not.toBe(424242);
    expect(gh.checkRuns.size).toBe(before + 1);
  });

  it("refuses app mode without an installation id, and finds one per repository", async () => {
    const auth = createGitHubAuth({ apiUrl: gh.url, appId: "123", privateKey, retry: FAST });
    await expect(auth.forInstallation(undefined)).rejects.toMatchObject({ code: "GITHUB_INTAKE" });
    gh.setInstallation("acme", "api", 88);
    const octokit = await auth.forRepo("acme", "api");
    await octokit.rest.repos.createCommitStatus({ owner: "acme", repo: "api", sha: HEAD, state: "success" });
    expect(gh.find("GET", /\/repos\/acme\/api\/installation$/)[0]?.authorization).toMatch(/^bearer /i);
    expect(gh.tokensIssued).toContain(88);
    await expect(auth.forRepo("acme", "not-installed")).rejects.toMatchObject({ code: "GITHUB_INTAKE" });
  });

  it("is rejected by a GitHub that does not know the App's key", async () => {
    const other = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const auth = createGitHubAuth({ apiUrl: gh.url, appId: "123", privateKey: other.privateKey });
    const publisher = createCheckPublisher({ auth, log });
    await expect(publisher.publish(record({ installationId: 99 }), result())).rejects.toThrow();
    expect(gh.tokensIssued).not.toContain(99);
  });
});

describe("check publisher, when GitHub fails or limits the rate", () => {
  let gh: FakeGitHub;
  beforeEach(async () => {
    gh = await startFakeGitHub({ appPublicKeyPem: publicKey });
  });
  afterEach(() => gh.close());

  const appAuth = () => createGitHubAuth({ apiUrl: gh.url, appId: "123", privateKey, retry: FAST });
  const publisher = () => createCheckPublisher({ auth: appAuth(), log, retry: { baseMs: 1 } });
  const creates = () => gh.find("POST", /\/repos\/acme\/web\/check-runs$/);

  it("a 502 then a 201 on the create ends with one check run, within the same publish", async () => {
    gh.failNext("POST", /\/check-runs$/, 1);
    const receipt = await publisher().publish(record(), result({ findings: findings(3) }));
    expect(creates()).toHaveLength(2);
    expect(gh.checkRuns.size).toBe(1);
    expect(receipt.checkRunId).toBe([...gh.checkRuns.keys()][0]);
    expect(gh.checkRuns.get(receipt.checkRunId ?? -1)?.fields).toMatchObject({
      head_sha: HEAD,
      conclusion: "action_required",
      external_id: "r-1",
    });
  });

  it("a create GitHub applied but whose answer was a 502 is found again, not made twice", async () => {
    gh.failNext("POST", /\/check-runs$/, 1, { afterApplying: true });
    const receipt = await publisher().publish(record(), result({ findings: findings(3) }));
    expect(creates()).toHaveLength(1);
    expect(gh.checkRuns.size).toBe(1);
    expect(receipt.checkRunId).toBe([...gh.checkRuns.keys()][0]);
    // The second attempt looked the run up by head, name and review id, and updated it.
    expect(gh.find("GET", /\/commits\/f{40}\/check-runs$/).at(-1)?.query).toMatchObject({
      check_name: "compliance-gate",
    });
    expect(gh.find("PATCH", /\/check-runs\/\d+$/)).toHaveLength(1);
    expect(gh.checkRuns.get(receipt.checkRunId ?? -1)?.annotations).toHaveLength(3);
  });

  it("two publishers that both found no run (replicas that lost their shared lock) leave one run under the check's name; the later one is retired", async () => {
    // Slow look-ups: both publishers look before either creates, so both create.
    const undo = gh.slow("GET", /\/commits\/f{40}\/check-runs$/, 150);
    const [a, b] = await Promise.all([
      publisher().publish(record(), result({ findings: findings(3) })),
      publisher().publish(record(), result({ findings: findings(3) })),
    ]);
    undo();
    expect(creates()).toHaveLength(2);
    const runs = [...gh.checkRuns.values()].sort((x, y) => x.id - y.id);
    expect(runs.map((r) => r.fields.name)).toEqual(["compliance-gate", "compliance-gate (duplicate)"]);
    expect(runs[1]?.fields).toMatchObject({ status: "completed", conclusion: "neutral", actions: [] });
    // Both receipts name the first run, which shows the review.
    expect(a.checkRunId).toBe(runs[0]?.id);
    expect(b.checkRunId).toBe(runs[0]?.id);
    expect(runs[0]?.fields.status).toBe("completed");
  });

  it("updates retried by the client: two 503s then a 200 on the PATCH, one run", async () => {
    const first = await publisher().publish(record(), result({ findings: [] }));
    gh.failNext("PATCH", /\/check-runs\/\d+$/, 2, { status: 503 });
    const approved = result({
      route: "human_approved",
      status: "done",
      findings: [],
      decision: { kind: "approve", by: "alice", at: "2026-01-02T00:00:00Z" },
    });
    await publisher().publish(record({ checkRunId: first.checkRunId, status: "done" }), approved);
    expect(gh.find("PATCH", /\/check-runs\/\d+$/)).toHaveLength(3);
    expect(gh.checkRuns.size).toBe(1);
    expect(gh.checkRuns.get(first.checkRunId ?? -1)?.fields).toMatchObject({ conclusion: "success" });
  });

  it("waits out a primary and a secondary rate limit, then publishes", async () => {
    const reset = String(Math.floor(Date.now() / 1000));
    gh.failNext("POST", /\/check-runs$/, 1, {
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset },
      body: { message: "API rate limit exceeded" },
    });
    gh.failNext("POST", /\/check-runs$/, 1, {
      status: 403,
      headers: { "retry-after": "1" },
      body: { message: "You have exceeded a secondary rate limit" },
    });
    const receipt = await publisher().publish(record(), result({ findings: [] }));
    expect(creates()).toHaveLength(3);
    expect(gh.checkRuns.size).toBe(1);
    expect(receipt.checkRunId).toBeTypeOf("number");
  });

  it("gives up after three attempts when GitHub keeps failing; nothing is created", async () => {
    gh.failNext("POST", /\/check-runs$/, 10);
    await expect(publisher().publish(record(), result({ findings: [] }))).rejects.toMatchObject({ status: 502 });
    expect(creates()).toHaveLength(3);
    expect(gh.checkRuns.size).toBe(0);
  });

  it("never retries a refusal (422)", async () => {
    gh.failNext("POST", /\/check-runs$/, 1, { status: 422, body: { message: "Validation Failed" } });
    await expect(publisher().publish(record(), result({ findings: [] }))).rejects.toMatchObject({ status: 422 });
    expect(creates()).toHaveLength(1);
  });

  it("token mode: a commit status answered 502 then 201 is set once", async () => {
    const auth = createGitHubAuth({ apiUrl: gh.url, token: "ghp_token", retry: FAST });
    gh.failNext("POST", /\/statuses\/f{40}$/, 1);
    await createCheckPublisher({ auth, log, retry: { baseMs: 1 } }).publish(
      record({ installationId: undefined }),
      result(),
    );
    expect(gh.find("POST", /\/statuses\//)).toHaveLength(2);
    expect(gh.statuses).toHaveLength(1);
  });
});

describe("check publisher, token mode", () => {
  let gh: FakeGitHub;
  beforeAll(async () => {
    gh = await startFakeGitHub();
  });
  afterAll(() => gh.close());

  it("sets a commit status instead of a check run", async () => {
    const auth = createGitHubAuth({ apiUrl: gh.url, token: "ghp_token" });
    expect(auth.mode).toBe("token");
    const receipt = await createCheckPublisher({ auth, log, detailsUrl: () => "https://gate.example/r-1" }).publish(
      record({ installationId: undefined }),
      result(),
    );
    expect(receipt).toEqual({});
    expect(gh.find("POST", /\/check-runs/)).toHaveLength(0);
    expect(gh.statuses).toHaveLength(1);
    expect(gh.statuses[0]).toMatchObject({
      owner: "acme",
      repo: "web",
      sha: HEAD,
      body: { state: "pending", context: "compliance-gate", target_url: "https://gate.example/r-1" },
    });
    expect(gh.statuses[0]?.body).toHaveProperty("description", expect.stringMatching(/^Waiting for a person/));
    expect(gh.requests[0]?.authorization).toBe("token ghp_token");
  });

  it("fails at start without any credentials", () => {
    expect(() => createGitHubAuth({ apiUrl: gh.url })).toThrow(/GITHUB_TOKEN/);
  });
});
