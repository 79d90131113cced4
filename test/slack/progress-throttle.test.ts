import { describe, expect, it } from "vitest";
import { throttleProgress } from "../../src/slack/progress-throttle.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("throttleProgress", () => {
  it("sends the first value at once, then at most one per interval, the latest", async () => {
    const sent: { v: number; at: number }[] = [];
    const start = Date.now();
    const t = throttleProgress<number>({
      intervalMs: 60,
      send: async (v) => void sent.push({ v, at: Date.now() - start }),
    });
    t.push(1);
    t.push(2);
    t.push(3);
    await sleep(100);
    expect(sent.map((s) => s.v)).toEqual([1, 3]);
    expect((sent[1]?.at ?? 0) - (sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(55);
    await t.finish();
  });

  it("sends nothing after finish and waits for a send in flight", async () => {
    const sent: number[] = [];
    let release: () => void = () => undefined;
    const t = throttleProgress<number>({
      intervalMs: 1000,
      send: (v) =>
        new Promise<void>((resolve) => {
          release = () => {
            sent.push(v);
            resolve();
          };
        }),
    });
    t.push(1);
    t.push(2);
    const finished = t.finish().then(() => "finished");
    await sleep(10);
    release();
    expect(await finished).toBe("finished");
    t.push(3);
    await sleep(10);
    expect(sent).toEqual([1]);
  });

  it("reports a failed send and keeps going", async () => {
    const errors: unknown[] = [];
    const t = throttleProgress<number>({
      intervalMs: 0,
      send: async () => Promise.reject(new Error("rate_limited")),
      onError: (e) => errors.push(e),
    });
    t.push(1);
    await t.finish();
    expect(errors).toHaveLength(1);
  });
});
