import { describe, expect, it } from "vitest";
import { INVESTIGATOR_TOOLS, toToolCall } from "../../../src/claude/investigator/tools.js";

describe("toToolCall", () => {
  it("declares exactly the three read-only tools", () => {
    expect(INVESTIGATOR_TOOLS.map((t) => t.name)).toEqual(["read_file", "grep_repo", "list_dir"]);
  });

  it("maps valid calls and refuses unknown tools or bad arguments with a message", () => {
    expect(toToolCall({ id: "a", name: "read_file", input: { path: "src/a.ts", offset: 3 } })).toEqual({
      id: "a",
      tool: "read_file",
      args: { path: "src/a.ts", offset: 3 },
    });
    expect(toToolCall({ id: "b", name: "grep_repo", input: { pattern: "x", glob: "*.ts" } })).toEqual({
      id: "b",
      tool: "grep_repo",
      args: { pattern: "x", glob: "*.ts" },
    });
    expect(toToolCall({ id: "c", name: "write_file", input: { path: "x" } })).toMatch(/unknown tool/);
    expect(toToolCall({ id: "d", name: "read_file", input: { path: 42 } })).toMatch(/invalid arguments/);
    expect(toToolCall({ id: "e", name: "list_dir", input: { path: ".", recursive: true } })).toMatch(
      /invalid arguments/,
    );
  });
});
