import { describe, expect, it } from "vitest";
import { KeyedLock } from "../../src/review/keyed-lock.js";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("KeyedLock", () => {
  it("runs work for one key one at a time, in order, and work for other keys beside it", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (key: string, name: string) =>
      lock.run(key, async () => {
        log.push(`${name}:start`);
        await tick();
        log.push(`${name}:end`);
        return name;
      });
    const results = await Promise.all([job("r-1", "a"), job("r-1", "b"), job("r-2", "c")]);
    expect(results).toEqual(["a", "b", "c"]);
    // b starts only after a ended; c (another key) started while a ran.
    expect(log.indexOf("b:start")).toBeGreaterThan(log.indexOf("a:end"));
    expect(log.indexOf("c:start")).toBeLessThan(log.indexOf("a:end"));
    expect(lock.size).toBe(0);
  });

  it("a failure reaches its caller only; the next work for the key still runs", async () => {
    const lock = new KeyedLock();
    const failed = lock.run("r-1", async () => {
      throw new Error("boom");
    });
    const next = lock.run("r-1", async () => "ran");
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("ran");
    expect(lock.size).toBe(0);
  });
});
