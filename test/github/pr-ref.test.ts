import { describe, expect, it } from "vitest";
import { GateError } from "../../src/domain/errors.js";
import { formatPrRef, parsePrRef } from "../../src/github/pr-ref.js";

describe("parsePrRef", () => {
  it.each([
    ["acme/web#123", undefined, { owner: "acme", repo: "web", number: 123 }],
    ["  acme-co/web.app_2#7  ", undefined, { owner: "acme-co", repo: "web.app_2", number: 7 }],
    ["https://github.com/acme/web/pull/123", undefined, { owner: "acme", repo: "web", number: 123 }],
    ["https://github.com/acme/web/pull/123/files", undefined, { owner: "acme", repo: "web", number: 123 }],
    [
      "https://github.com/acme/web/pull/5/commits/abc?diff=split#r1",
      undefined,
      { owner: "acme", repo: "web", number: 5 },
    ],
    ["https://ghe.corp.example/acme/web/pull/9", undefined, { owner: "acme", repo: "web", number: 9 }],
    ["<https://github.com/acme/web/pull/8|acme/web#8>", undefined, { owner: "acme", repo: "web", number: 8 }],
    ["#42", "acme/web", { owner: "acme", repo: "web", number: 42 }],
  ])("reads %j", (text, defaultRepo, expected) => {
    expect(parsePrRef(text, defaultRepo)).toEqual(expected);
  });

  it.each([
    ["", "empty"],
    ["acme/web", "no number"],
    ["acme/web#", "empty number"],
    ["acme/web#0", "zero"],
    ["acme/web#12a", "not a number"],
    ["acme/web#99999999999", "too large"],
    ["-acme/web#1", "owner starts with a hyphen"],
    ["ac--me/web#1", "double hyphen in owner"],
    ["acme/we b#1", "space in repo"],
    ["acme/..#1", "dot-dot repo"],
    ["../etc#1", "dot-dot owner"],
    ["#42", "hash form without a default repo"],
    ["https://github.com/acme/web/issues/3", "an issue URL"],
    ["https://github.com/acme/web/pull/x", "URL without a number"],
    ["ftp://github.com/acme/web/pull/3", "not http"],
    ["https://github.com/acme%2F..%2Fx/web/pull/3", "encoded slash in owner"],
  ])("refuses %j (%s)", (text) => {
    let error: unknown;
    try {
      parsePrRef(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GateError);
    expect(error).toMatchObject({ code: "PR_REF_INVALID" });
    expect((error as Error).message).not.toContain("\n");
  });

  it("refuses a default repository that is not owner/name", () => {
    expect(() => parsePrRef("#1", "acme")).toThrow(/default repository/);
  });

  it("round-trips through formatPrRef", () => {
    expect(parsePrRef(formatPrRef({ owner: "acme", repo: "web", number: 3 }))).toEqual({
      owner: "acme",
      repo: "web",
      number: 3,
    });
  });
});
