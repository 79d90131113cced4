import { afterEach, describe, expect, it } from "vitest";
import type { InboxEntry } from "../../src/domain/review-store.js";
import { loadFixturePullRequest } from "../../src/fixture/fixture.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { fixtureRegistration, openedGates, reviewFixture, wiredJobs as wired } from "../helpers/gate.js";

const gates = openedGates();
afterEach(() => gates.closeAll());
const open = (dir?: string) => gates.open({}, dir);

/** What a webhook delivery of a bundled fixture's PR asks for. */
const fixtureEntry = (name: string, baseChanged = false): InboxEntry => ({
  review: fixtureRegistration(name),
  baseChanged,
});

describe("the delivery inbox", () => {
  it("a register job registers the review its delivery asked for, queues its run, and does nothing a second time", async () => {
    const g = await open();
    const { handle, jobs } = wired(g);
    const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, "001_readme_typo");
    expect(await g.store.recordDelivery("d-1", "pull_request", fixtureEntry("001_readme_typo"))).toBe(true);
    expect(await g.store.inboxDeliveries()).toEqual(["d-1"]);
    await handle({ kind: "register", deliveryId: "d-1" });
    expect(await g.store.inboxDeliveries()).toEqual([]);
    await jobs.idle();
    const reviews = await g.store.allForPr(`${pr.repo}#${pr.number}`);
    expect(reviews.map((r) => [r.headSha, r.status])).toEqual([[pr.headSha, "done"]]);
    await handle({ kind: "register", deliveryId: "d-1" });
    await jobs.idle();
    expect(await g.store.allForPr(`${pr.repo}#${pr.number}`)).toHaveLength(1);
  });

  it("a register job for a head already under review registers nothing, unless the PR's base changed", async () => {
    const g = await open();
    const { handle, jobs } = wired(g);
    const waiting = await reviewFixture(g, "002_new_dependency");
    expect(waiting.status).toBe("waiting_for_human");
    const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, "002_new_dependency");
    await g.store.recordDelivery("reopened", "pull_request", fixtureEntry("002_new_dependency"));
    await handle({ kind: "register", deliveryId: "reopened" });
    await jobs.idle();
    expect((await g.store.allForPr(`${pr.repo}#${pr.number}`)).map((r) => r.id)).toEqual([waiting.review_id]);
    await g.store.recordDelivery("base-moved", "pull_request", fixtureEntry("002_new_dependency", true));
    await handle({ kind: "register", deliveryId: "base-moved" });
    await jobs.idle();
    const all = await g.store.allForPr(`${pr.repo}#${pr.number}`);
    expect(all).toHaveLength(2);
    expect((await g.store.get(waiting.review_id))?.status).toBe("superseded");
  });

  it("recover registers and runs the deliveries whose review was never registered (a crash after the answer)", async () => {
    const first = await open();
    await first.store.recordDelivery("before-crash", "pull_request", fixtureEntry("001_readme_typo"));
    // A second process on the same database, as a restart is.
    const second = await open(first.dir);
    const { handle, jobs } = wired(second);
    await handle({ kind: "recover" });
    await jobs.idle();
    const pr = loadFixturePullRequest(BUNDLED_FIXTURES_DIR, "001_readme_typo");
    expect((await second.store.allForPr(`${pr.repo}#${pr.number}`)).map((r) => r.status)).toEqual(["done"]);
    expect(await second.store.inboxDeliveries()).toEqual([]);
  });
});
