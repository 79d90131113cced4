import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ModelCallAborted, ModelOutputError } from "../../src/claude/model-output-error.js";
import { describeError, describeIssues, ERROR_ADVICE, GateError, type GateErrorCode } from "../../src/domain/errors.js";
import { parsePullRequest } from "../../src/domain/pull-request.js";
import { ZERO_USAGE } from "../../src/domain/usage.js";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { defined } from "../helpers/defined.js";

const CODES = Object.keys(ERROR_ADVICE) as GateErrorCode[];
const readme = fs.readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
const sources = fs
  .readdirSync(path.join(PACKAGE_ROOT, "src"), { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts") && f !== path.join("domain", "errors.ts"))
  .map((f) => fs.readFileSync(path.join(PACKAGE_ROOT, "src", f), "utf8"))
  .join("\n");

describe("describeIssues", () => {
  it("names each field path with its message, capped", () => {
    const err = z.object({ a: z.string(), b: z.object({ c: z.number() }) }).safeParse({ a: 1, b: { c: "x" } }).error;
    if (!err) throw new Error("the schema accepted bad input");
    expect(describeIssues(err)).toMatch(/^a: .+; b\.c: .+$/);
    expect(describeIssues(err, { max: 1 })).toMatch(/^a: [^;]+$/);
    expect(describeIssues(defined(z.string().safeParse(1).error, "an error"), { root: "(input)" })).toMatch(
      /^\(input\): /,
    );
  });
});

describe("describeError", () => {
  it("adds the advice of a coded error, and passes other errors through", () => {
    expect(describeError(new GateError("REVIEW_NOT_FOUND", "no review r-1"))).toBe(
      "no review r-1 (`gate status <owner/repo#n>` lists the reviews of a PR)",
    );
    expect(describeError(new Error("plain"))).toBe("plain");
    expect(describeError("text")).toBe("text");
  });

  it("shows the code's advice for the errors that carry more than a message", () => {
    const usage = { ...ZERO_USAGE };
    expect(new ModelOutputError("no usable answer", { usage })).toBeInstanceOf(GateError);
    expect(describeError(new ModelOutputError("no usable answer", { usage }))).toContain(
      ERROR_ADVICE.MODEL_OUTPUT_INVALID,
    );
    expect(describeError(new ModelCallAborted("aborted", { usage }))).toContain(ERROR_ADVICE.MODEL_CALL_ABORTED);
    let shape: unknown;
    try {
      parsePullRequest({}, []);
    } catch (error) {
      shape = error;
    }
    expect(shape).toBeInstanceOf(GateError);
    expect((shape as GateError).code).toBe("PULL_REQUEST_MALFORMED");
  });
});

describe("the error codes", () => {
  it("all carry advice", () => {
    expect(CODES.length).toBeGreaterThan(10);
    for (const code of CODES) expect(ERROR_ADVICE[code].length, code).toBeGreaterThan(20);
  });

  it("are each raised somewhere in src/ (no code that is never thrown)", () => {
    for (const code of CODES) expect(sources, code).toContain(`"${code}"`);
  });

  it("point only at README sections and files that exist in the repository", () => {
    for (const [code, advice] of Object.entries(ERROR_ADVICE)) {
      for (const [, section] of advice.matchAll(/\(README, ([^)]+)\)/g)) {
        expect(readme, `${code}: README section "${section}"`).toMatch(new RegExp(`^#+ ${section}`, "m"));
      }
      for (const [file] of advice.matchAll(/\b(?:docs|src|test)\/[\w./-]*\w/g)) {
        expect(fs.existsSync(path.join(PACKAGE_ROOT, file)), `${code}: ${file}`).toBe(true);
      }
      for (const [name] of advice.matchAll(/\b[A-Z]+\.md\b/g)) {
        expect(name, `${code} names ${name}, which is outside the repository`).toBe("README.md");
      }
    }
  });

  it("leave no Error subclass outside the hierarchy", () => {
    const strays = [...sources.matchAll(/class (\w+) extends Error\b/g)].map((m) => m[1]);
    expect(strays).toEqual([]);
  });
});
