import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFileFindingLines } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
const flagged = (filename: string, lines: string[]) => addedFileFindingLines(injectionDetector, filename, lines);

describe("a module's own names read in a function hold what the module gives them", () => {
  it("Python: a module global given only constants is a constant in a function's shell command and SQL", async () => {
    expect(
      await flagged("simc.py", [
        "import os, sqlite3",
        "tool = 'simc'",
        "outdir = '/var/out'",
        "if os.name == 'nt':",
        "    tool = 'simc.exe'",
        "table = 'reports'",
        "def check():",
        "    os.system(tool + ' > ' + outdir + '/version.txt')",
        "def count(db):",
        "    return db.execute('SELECT count(*) FROM ' + table).fetchone()",
      ]),
    ).toEqual([]);
  });

  it("Python: a module global given outside data, rebound through `global`, or unknown stays outside data", async () => {
    expect(
      await flagged("simc.py", [
        "import os, sys",
        "tool = sys.argv[1]",
        "mode = 'fast'",
        "def check():",
        "    os.system(tool + ' --version')",
        "def configure(value):",
        "    global mode",
        "    mode = value",
        "def run():",
        "    os.system('simc ' + mode)",
        "def other():",
        "    os.system('simc ' + elsewhere)",
      ]),
    ).toEqual([5, 10, 12]);
  });

  it("JavaScript: a top-level const given a constant is a constant in a function's query; one given outside data or reassigned is not", async () => {
    expect(
      await flagged("store.js", [
        "const table = 'users';",
        "let order = 'ASC';",
        "let column = 'name';",
        "const prefix = process.argv[2];",
        "function setColumn(c) { column = c; }",
        "function all(db) {",
        "  return db.query('SELECT * FROM ' + table + ' ORDER BY id ' + order);",
        "}",
        "function sorted(db) {",
        "  return db.query('SELECT * FROM ' + table + ' ORDER BY ' + column);",
        "}",
        "function named(db) {",
        "  return db.query('SELECT * FROM ' + prefix + '_users');",
        "}",
      ]),
    ).toEqual([10, 13]);
  });
});
