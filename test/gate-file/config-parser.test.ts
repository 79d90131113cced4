import { afterAll, describe, expect, it } from "vitest";
import { CONFIG_MAX_BYTES, CONFIG_MAX_ENTRIES } from "../../src/gate-file/config-caps.js";
import { configParser, inThreadParser } from "../../src/gate-file/config-parser.js";
import { ConfigFileError, describeProblem, parseConfigText } from "../../src/gate-file/load.js";

const FILE = "acme/web:.github/gate.yml@abc";
const parsers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(parsers.map((p) => p.close()));
});

/** The problems `parse` rejects with, as they are printed. */
async function refusal(parse: Promise<unknown>): Promise<string[]> {
  const error = await parse.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ConfigFileError)) throw new Error(`expected a ConfigFileError, got ${String(error)}`);
  return error.problems.map(describeProblem);
}

/** A valid file of `n` exception entries, each of three keys (a map in a list). */
function manyExceptions(n: number): string {
  const lines = ["version: 1", "exceptions:"];
  for (let i = 0; i < n; i++)
    lines.push(
      `  - policy: LIC-02`,
      `    package: pkg-${i}@^1`,
      `    reason: vetted ${i}`,
      `    granted_by: "@legal"`,
      `    expires: 2099-01-01`,
    );
  return `${lines.join("\n")}\n`;
}

describe("configuration caps", () => {
  it("a file over the size cap is refused before it is parsed, naming the line the cap crosses", async () => {
    const line = `# ${"x".repeat(98)}\n`; // 101 bytes a line
    const text = `version: 1\n${line.repeat(Math.ceil((CONFIG_MAX_BYTES * 1.5) / line.length))}`;
    const [problem, ...rest] = await refusal(inThreadParser.parse(text, FILE));
    expect(rest).toEqual([]);
    const crossed = Math.floor((CONFIG_MAX_BYTES - 11) / line.length) + 2;
    expect(problem).toBe(
      `${FILE}:${crossed}:1: (file): the file is ${Buffer.byteLength(text)} bytes; at most ${CONFIG_MAX_BYTES} are read, a cap this line crosses, so none of it was used`,
    );
  });

  it("a file with more entries than the cap is refused at the first entry past it; one just under is read", async () => {
    // Each exception is one list item and five keys: six entries, plus the two top-level keys.
    const under = Math.floor((CONFIG_MAX_ENTRIES - 2) / 6);
    expect(parseConfigText(manyExceptions(under), FILE).exceptions).toHaveLength(under);
    const [problem] = await refusal(inThreadParser.parse(manyExceptions(under + 10), FILE));
    expect(problem).toMatch(new RegExp(`^${FILE}:\\d+:\\d+: \\(file\\): more than ${CONFIG_MAX_ENTRIES} entries`));
    const line = Number(problem?.split(":")[2]);
    // Past the entries the cap allows, inside the file.
    expect(line).toBeGreaterThan(2 + under * 5 - 10);
    expect(line).toBeLessThanOrEqual(2 + (under + 10) * 5);
  });
});

describe("the config parser's worker threads", () => {
  it("parse on a worker thread what the main thread would, with the same line-named problems", async () => {
    const parser = configParser(2);
    parsers.push(parser);
    expect(parser.where).toBe("workers");
    const good = "version: 1\nrisk:\n  threshold: 55\n";
    expect(await parser.parse(good, FILE)).toEqual(parseConfigText(good, FILE));
    const bad = "version: 1\nlicenses:\n  denny: [GPL-3.0-only]\n";
    expect(await refusal(parser.parse(bad, FILE))).toEqual(await refusal(inThreadParser.parse(bad, FILE)));
  });

  it("keep the main thread free while a large file is parsed: timers fire on time meanwhile", async () => {
    const parser = configParser(1);
    parsers.push(parser);
    await parser.parse("version: 1\n", FILE); // the worker started and warm
    const text = manyExceptions(Math.floor((CONFIG_MAX_ENTRIES - 2) / 6));
    const started = performance.now();
    const inThread = performance.now();
    parseConfigText(text, FILE);
    const parseMs = performance.now() - inThread;
    let worstLateMs = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstLateMs = Math.max(worstLateMs, now - last - 5);
      last = now;
    }, 5);
    try {
      for (let i = 0; i < 3; i++) await parser.parse(text, FILE);
    } finally {
      clearInterval(timer);
    }
    expect(performance.now() - started).toBeGreaterThan(parseMs);
    // A parse on the main thread blocks it for the whole parse; on the worker, timers keep their pace.
    expect(worstLateMs).toBeLessThan(Math.max(50, parseMs / 2));
  });

  it("size 0 parses in-thread", () => {
    expect(configParser(0).where).toBe("in-thread");
  });
});
