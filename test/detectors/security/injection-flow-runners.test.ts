import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFileFindingLines } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
const flagged = (filename: string, lines: string[]) => addedFileFindingLines(injectionDetector, filename, lines);

/** A compressor that builds its command in one method and runs it in another (Curtail's shape). */
const compressor = (name: string) => [
  "import subprocess",
  "from shlex import quote",
  "class Compressor():",
  "    def __init__(self, items, settings):",
  "        self.items = items",
  "        self.level = settings.get_int('level')",
  "    def compress(self):",
  "        for item in self.items:",
  "            command = self.build(item)",
  "            self.run_command(command)",
  "    def run_command(self, command):",
  "        subprocess.run(command, shell=True)",
  "    def build(self, item):",
  `        return 'pngquant --quality=0-{} {}'.format(self.level, ${name})`,
];

describe("a shell runner only its file calls is judged by the commands its callers build", () => {
  it("Python: a method run on `self` with a quoted file name passes; the same with the name unquoted is flagged", async () => {
    expect(await flagged("compressor.py", compressor("quote(item.filename)"))).toEqual([]);
    expect(await flagged("compressor.py", compressor("item.filename"))).toEqual([12]);
  });

  it("Python: a runner also handed on as a value, called by keyword, or called with fewer arguments than it takes keeps its parameter outside data", async () => {
    const withCall = (extra: string) =>
      compressor("quote(item.filename)").flatMap((l) => (l.includes("self.run_command(command)") ? [l, extra] : [l]));
    expect(
      await flagged("compressor.py", withCall("            Thread(target=self.run_command, args=(item,)).start()")),
    ).toEqual([13]);
    expect(await flagged("compressor.py", withCall("            self.run_command(command=item.filename)"))).toEqual([
      13,
    ]);
    const defaulted = compressor("quote(item.filename)").map((l) =>
      l.includes("def run_command(self, command)") ? "    def run_command(self, command, timeout=10):" : l,
    );
    expect(await flagged("compressor.py", defaulted)).toEqual([12]);
  });

  it("Python: `quote` imported from `urllib.parse` is no shell quoting; a field set by `setattr` or among several targets is outside data", async () => {
    const urlQuoted = compressor("quote(item.filename)").map((l) =>
      l === "from shlex import quote" ? "from urllib.parse import quote" : l,
    );
    expect(await flagged("compressor.py", urlQuoted)).toEqual([12]);
    const bySetattr = compressor("quote(item.filename)").map((l) =>
      l.includes("self.items = items") ? "        setattr(self, 'items', items)" : l,
    );
    expect(await flagged("compressor.py", bySetattr)).toEqual([12]);
    const tuple = compressor("quote(item.filename)").map((l) =>
      l.includes("self.level =") ? "        self.level, self.mode = settings.get_string('level'), 1" : l,
    );
    expect(await flagged("compressor.py", tuple)).toEqual([12]);
  });

  it("Python: a method written to be overridden (`@abstractmethod`) is not read for what a subclass builds", async () => {
    const base = (decorator: string, body: string) => [
      "import subprocess",
      "class Compressor:",
      decorator,
      "    def build_command(self, item):",
      `        ${body}`,
      "    def run(self, item):",
      "        command = self.build_command(item)",
      "        subprocess.run(command, shell=True)",
    ];
    expect(await flagged("compressor.py", base("    @abstractmethod", 'return ""'))).toEqual([8]);
    expect(await flagged("compressor.py", base("", "raise NotImplementedError"))).toEqual([8]);
    expect(await flagged("compressor.py", base("", 'return "ls -l"'))).toEqual([]);
  });

  it("JavaScript: a runner the module does not export, called with a constant, passes; exported or never called, its parameter is outside data", async () => {
    const runner = (exported: string, call: string) => [
      "const { exec } = require('child_process');",
      "function run(cmd) {",
      "  exec(cmd);",
      "}",
      call,
      exported,
    ];
    expect(await flagged("tool.js", runner("", "run('git status');"))).toEqual([]);
    expect(await flagged("tool.js", runner("", "run('git log ' + process.argv[2]);"))).toEqual([3]);
    expect(await flagged("tool.js", runner("module.exports = { run };", "run('git status');"))).toEqual([3]);
    expect(await flagged("tool.js", runner("", ""))).toEqual([3]);
  });
});

describe("a query runner only its file calls is judged by the SQL its callers build", () => {
  /** A database module whose routes run SQL through one helper (project-happening-atm's shape). */
  const dbModule = (declare: string, caller: string) => [
    "const { Client } = require('pg');",
    "module.exports = async (logger) => {",
    "  const module = {};",
    "  const client = new Client();",
    declare,
    "    logger.debug(`running query: ${text}`);",
    "    return client.query(text, values);",
    "  };",
    `  module.getMeeting = async (id) => ${caller};`,
    "  return module;",
    "};",
  ];
  const arrow = "  const query = async (text, values) => {";
  const declared = "  async function query(text, values) {";

  it("SQL a caller splices a parameter into is flagged at the runner; SQL with placeholders passes", async () => {
    for (const declare of [arrow, declared]) {
      const spliced = "query(`SELECT * FROM meeting WHERE id = ${id}`, [])";
      expect(await flagged("db.js", dbModule(declare, spliced)), declare).toEqual([7]);
      const bound = "query('SELECT * FROM meeting WHERE id = $1', [id])";
      expect(await flagged("db.js", dbModule(declare, bound)), declare).toEqual([]);
    }
  });

  it("a runner the file also hands on (`module.query = query`) or names in a string alone keeps its parameter outside data", async () => {
    const spliced = "query(`SELECT * FROM meeting WHERE id = ${id}`, [])";
    const handed = dbModule(arrow, spliced).map((l) =>
      l === "  return module;" ? "  module.query = query;\n  return module;" : l,
    );
    const lines = handed.join("\n").split("\n");
    // Its parameter is outside data with no SQL text of its own: nothing can be said at the runner.
    expect(await flagged("db.js", lines)).toEqual([]);
    const byName = dbModule(arrow, spliced).map((l) =>
      l === "  return module;" ? "  module.run = module['query'];\n  return module;" : l,
    );
    expect(await flagged("db.js", byName.join("\n").split("\n"))).toEqual([]);
  });
});
