import { describe, expect, it } from "vitest";
import { reviewFixture, testGate } from "../helpers/gate.js";
import {
  checkRunsOn,
  latestReview,
  postWebhook,
  prKey,
  pullRequestEvent,
  record,
  serveFixture,
  stacksClosedAfterEach,
} from "./helpers.js";
import { rerequestedEvent } from "./slack-helpers.js";

/** Starts a stack (GitHub, the registries and OSV as loopback fakes), closed after its test. */
const start = stacksClosedAfterEach();

describe("known vulnerabilities on a live review (SEC-07 against the OSV fake)", () => {
  it("an added vulnerable dependency waits for a person: action_required, an annotation at the manifest line, the same finding as the fixture's osv.json gives", async () => {
    const s = await start();
    const pr = serveFixture(s, "018_vulnerable_dependency");
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)));
    await s.server.idle();
    const result = await s.server.gate.runner.result((await latestReview(s, pr)).id);
    expect(result.escalation?.reason).toBe("blocking_finding");
    expect(s.osv.requests).toEqual(["POST /v1/querybatch", "GET /v1/vulns/GHSA-35jh-r3h4-6jhm"]);
    const [run] = checkRunsOn(s.gh, pr.headSha);
    expect(run?.fields.conclusion).toBe("action_required");
    expect(run?.annotations).toEqual([
      expect.objectContaining({
        path: "package.json",
        start_line: 19,
        annotation_level: "failure",
        title: expect.stringContaining("SEC-07"),
        message: expect.stringContaining("GHSA-35jh-r3h4-6jhm"),
      }),
    ]);
    // The embedded default, reading the fixture's osv.json, concludes the same.
    const g = await testGate();
    try {
      const offline = await reviewFixture(g, "018_vulnerable_dependency");
      expect(result.findings).toEqual(offline.findings);
    } finally {
      await g.close();
    }
  });

  it("OSV answering 500 sends the review to a person (lookup_failed, naming OSV and the error); a re-run after it recovers succeeds, without a restart", async () => {
    const s = await start();
    const pr = serveFixture(s, "018_vulnerable_dependency");
    s.osv.mode = "fail";
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)));
    await s.server.idle();
    const review = await latestReview(s, pr);
    expect(review.status).toBe("waiting_for_human");
    const failed = await s.server.gate.runner.result(review.id);
    expect(failed.escalation).toEqual({
      reason: "lookup_failed",
      detail: `advisory lookup failed, so known vulnerabilities are not known: lodash@4.17.20 (npm): OSV ${s.osv.url} querybatch answered 500 (3 attempts)`,
    });
    expect(failed.findings.filter((f) => f.policy === "SEC-07")).toEqual([]);
    const [run] = checkRunsOn(s.gh, pr.headSha);
    expect(run?.fields.conclusion).toBe("action_required");
    expect(JSON.stringify(record(run?.fields.output))).toMatch(/lookup_failed.*lodash@4\.17\.20.*OSV.*answered 500/);
    // Nothing was cached from the outage.
    expect(await s.server.gate.store.cachedLicense("osv:query:npm:lodash@4.17.20")).toBeUndefined();

    s.osv.mode = "ok";
    const body = JSON.stringify(rerequestedEvent("check_run", pr, review.id));
    expect((await postWebhook(s.base, body, { event: "check_run" })).status).toBe(202);
    await s.server.idle();
    const reviews = await s.server.gate.store.allForPr(prKey(pr));
    expect(reviews).toHaveLength(2);
    const fresh = await s.server.gate.runner.result((await latestReview(s, pr)).id);
    expect(fresh.escalation?.reason).toBe("blocking_finding");
    expect(fresh.findings).toEqual([expect.objectContaining({ policy: "SEC-07", blocking: true, line: 19 })]);
  });

  it("OSV that does not answer in time is a failed lookup too", async () => {
    const s = await start();
    const pr = serveFixture(s, "018_vulnerable_dependency");
    s.osv.mode = "hang";
    await postWebhook(s.base, JSON.stringify(pullRequestEvent("opened", pr)));
    await s.server.idle();
    const result = await s.server.gate.runner.result((await latestReview(s, pr)).id);
    expect(result.escalation?.reason).toBe("lookup_failed");
    expect(result.escalation?.detail).toMatch(/OSV .* querybatch timed out after 5000 ms \(3 attempts\)$/);
  }, 60_000);
});
