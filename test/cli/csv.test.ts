import { describe, expect, it } from "vitest";
import { csvField, csvRecord } from "../../src/cli/csv.js";
import { parseCsv } from "./evidence-cases.js";

describe("CSV as RFC 4180 writes it", () => {
  it("quotes a field holding a comma, a quote or a line break, doubling its quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\r")).toBe('"cr\r"');
  });

  it("ends each record with CRLF; lists joined, booleans as words, null empty; a reader gets the values back", () => {
    const line = csvRecord(["acme/web#7", ["SEC-01", "LIC-02"], true, null, 'POL (a "b", until 2026-04-01)']);
    expect(line).toBe('acme/web#7,SEC-01; LIC-02,true,,"POL (a ""b"", until 2026-04-01)"\r\n');
    expect(parseCsv(line)).toEqual([["acme/web#7", "SEC-01; LIC-02", "true", "", 'POL (a "b", until 2026-04-01)']]);
  });
});
