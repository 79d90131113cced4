import { describe, expect, it } from "vitest";
import { stripStrings } from "../../../src/investigator/deterministic/tool-text.js";

describe("stripStrings", () => {
  it("blanks string literals and drops comments, keeping template parts", () => {
    expect(stripStrings('log("token expired", { id })')).toBe('log("", { id })');
    expect(stripStrings("log(`hi ${user.token}`) // the token")).toBe("log(` user.token `) ");
  });

  it("reads a file in its own language: a Python comment is not code", () => {
    expect(stripStrings("log.info(user_id)  # never the token", "app/views.py")).not.toContain("token");
    expect(stripStrings('log.info(f"{session_token}")', "app/views.py")).toContain("session_token");
  });
});
