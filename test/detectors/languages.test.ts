import { describe, expect, it } from "vitest";
import { buildCoverage } from "../../src/coverage/ledger.js";
import { sanitizeCode } from "../../src/detectors/code-lines.js";
import { GRAMMARS, type SyntaxLanguage, syntaxLanguageOf } from "../../src/detectors/code/grammars.js";
import { parseSource, syntaxOfPatch } from "../../src/detectors/code/syntax-tree.js";
import { ALL_DETECTORS } from "../../src/detectors/index.js";
import type { Finding } from "../../src/domain/finding.js";
import { addedFilePatch, buildPr, detectContext } from "./pr-builder.js";

/**
 * The contract every language the gate reads by its syntax tree meets, one row per language:
 * its files are known, a clean change raises nothing and is read (not `not_inspected`), a comment
 * and a string are what the grammar and the line family say they are, each policy sample raises
 * its policy at its line, and a hunk cut from a file's middle still parses and is judged.
 */
interface Contract {
  file: string;
  /** Ordinary code of the language: no detector finds anything in it. */
  clean: string[];
  /** A line holding a comment and a string: the comment is dropped, the string emptied. */
  commentAndString: { line: string; comment: string; string: string; code: string };
  /** Risky samples: each raises `policy` at `line` (1-based, in the sample). */
  risky: Array<{ policy: string; line: number; lines: string[] }>;
  /** A line holding a token in a string (SEC-01 reads every file's text). */
  secret: string;
  /** A hunk from the middle of a file (its first line closes a block it did not open): `policy` at `line` of the head file. */
  middle: { policy: string; start: number; lines: string[]; line: number };
}

/** A token of GitHub's format, fake (the same the credentials tests use). */
const TOKEN = "ghp_FAKE0fixture0token0for0tests00000001";

const CONTRACTS: Partial<Record<SyntaxLanguage, Contract>> = {
  bash: {
    file: "deploy/release.sh",
    secret: `export GITHUB_TOKEN="${TOKEN}"`,
    clean: [
      "#!/usr/bin/env bash",
      "set -euo pipefail",
      'version="$(git describe --tags)"',
      'echo "releasing $version"',
      'eval "$(ssh-agent -s)"',
      'sh -c "npm ci && npm run build"',
      'tar czf "dist-$version.tgz" dist/',
      // A password piped into a command, a key written to a file, a secret captured: not logs.
      'echo "$DOCKER_PASSWORD" | docker login -u ci --password-stdin',
      'echo "$DEPLOY_KEY" > deploy_key',
      'auth="$(printf "%s:%s" "$USER_NAME" "$API_TOKEN" | base64)"',
    ],
    commentAndString: {
      line: 'echo "to $target" # eval "$x"',
      comment: '# eval "$x"',
      string: '"to $target"',
      code: 'echo " target " ',
    },
    risky: [
      { policy: "SEC-02", line: 3, lines: ["#!/bin/sh", 'target="$1"', 'sh -c "rsync -a build/ $target"'] },
      { policy: "SEC-02", line: 2, lines: ["#!/bin/sh", 'eval "$1"'] },
      { policy: "DATA-01", line: 2, lines: ["#!/bin/sh", 'echo "db password: $DB_PASSWORD" >> /var/log/deploy.log'] },
      { policy: "DATA-01", line: 2, lines: ["#!/bin/sh", 'echo "token $API_TOKEN" | tee -a "$LOG_FILE"'] },
      { policy: "DATA-01", line: 2, lines: ["#!/bin/sh", 'printf "user %s\\n" "$USER_EMAIL" >&2'] },
      { policy: "SEC-05", line: 2, lines: ["#!/bin/sh", "curl -k https://internal.example/health"] },
    ],
    middle: { policy: "SEC-02", start: 40, line: 42, lines: ["fi", 'host="$2"', 'bash -c "ping -c 1 $host"'] },
  },
  scala: {
    file: "app/controllers/Users.scala",
    secret: `  val token = "${TOKEN}"`,
    clean: [
      "package controllers",
      "",
      "object Slugs {",
      '  // SQL(s"SELECT $x") in a comment is no call',
      '  def slug(s: String): String = s.toLowerCase.replaceAll("[^a-z0-9]+", "-")',
      '  def byName(name: String) = sql"SELECT id FROM users WHERE name = $name".query[Long]',
      '  def find(id: Long) = SQL("SELECT * FROM users WHERE id = {id}").on("id" -> id)',
      "}",
    ],
    commentAndString: {
      line: 'val q = s"to $name" // SQL(x)',
      comment: "// SQL(x)",
      string: 's"to $name"',
      code: 'val q = s" name " ',
    },
    risky: [
      {
        policy: "SEC-02",
        line: 4,
        lines: [
          "class Users(db: Database) {",
          "  def find = Action { request =>",
          '    val name = request.getQueryString("name").getOrElse("")',
          "    db.withConnection { implicit c => SQL(s\"SELECT * FROM users WHERE name = '$name'\").as(p.*) }",
          "  }",
          "}",
        ],
      },
      {
        policy: "DATA-01",
        line: 2,
        lines: ["object Signup {", '  def log(user: User) = logger.info(s"signup ${user.email}")', "}"],
      },
      {
        policy: "SEC-02",
        line: 3,
        lines: [
          "object Ops {",
          "  def list(dir: String) = {",
          '    val out = Seq("sh", "-c", s"ls $dir").!!',
          "    out",
          "  }",
          "}",
        ],
      },
    ],
    middle: {
      policy: "SEC-02",
      start: 20,
      line: 21,
      lines: ["  }", '  def drop(t: String) = stmt.executeUpdate("DELETE FROM " + t + " WHERE id = 1")'],
    },
  },
  swift: {
    file: "Sources/App/Signup.swift",
    secret: `let token = "${TOKEN}"`,
    clean: [
      "import Foundation",
      "",
      "struct Util {",
      "    // logger.info(user.email) in a comment is no call",
      "    static func slug(_ s: String) -> String {",
      "        return s.lowercased()",
      "    }",
      '    static func greet(_ name: String) -> String { "hello \\(name.count)" }',
      "}",
    ],
    commentAndString: {
      line: 'let s = "to \\(user.name)" // NSLog(x)',
      comment: "// NSLog(x)",
      string: '"to \\(user.name)"',
      code: 'let s = " user.name " ',
    },
    risky: [
      {
        policy: "DATA-01",
        line: 3,
        lines: ["import os", "func signup(user: User) {", '    logger.info("new signup: \\(user.email)")', "}"],
      },
      {
        policy: "SEC-02",
        line: 3,
        lines: [
          "func find(db: OpaquePointer, name: String) {",
          "    let sql = \"SELECT * FROM users WHERE name = '\\(name)'\"",
          "    sqlite3_exec(db, sql, nil, nil, nil)",
          "}",
        ],
      },
    ],
    middle: { policy: "DATA-01", start: 30, line: 31, lines: ["    }", '    NSLog("reset for %@", user.email)'] },
  },
  c: {
    file: "src/users.c",
    secret: `static const char *token = "${TOKEN}";`,
    clean: [
      "#include <string.h>",
      "",
      "/* system(cmd) in a comment is no call */",
      "int count_spaces(const char *s) {",
      "    int n = 0;",
      "    for (; *s; s++) if (*s == ' ') n++;",
      '    printf("%d spaces\\n", n);',
      "    return n;",
      "}",
    ],
    commentAndString: {
      line: 'printf("to %s", name); // system(x)',
      comment: "// system(x)",
      string: '"to %s"',
      code: 'printf("", name); ',
    },
    risky: [
      {
        policy: "SEC-02",
        line: 4,
        lines: [
          "void find(MYSQL *conn, const char *name) {",
          "    char q[256];",
          "    sprintf(q, \"SELECT * FROM users WHERE name = '%s'\", name);",
          "    mysql_query(conn, q);",
          "}",
        ],
      },
      {
        policy: "DATA-01",
        line: 2,
        lines: ["void audit(struct user *u) {", '    syslog(LOG_INFO, "login %s", u->email);', "}"],
      },
      {
        policy: "SEC-05",
        line: 2,
        lines: [
          "void digest(const char *pw, unsigned char *out) {",
          "    MD5((const unsigned char *)pw, strlen(pw), out);",
          "}",
        ],
      },
    ],
    middle: {
      policy: "SEC-02",
      start: 100,
      line: 102,
      lines: [
        "}",
        'void ping(const char *host) { char cmd[128]; snprintf(cmd, 128, "ping %s", host);',
        "  system(cmd); }",
      ],
    },
  },
  cpp: {
    file: "src/users.cpp",
    secret: `const std::string token = "${TOKEN}";`,
    clean: [
      "#include <string>",
      "",
      "// popen(cmd) in a comment is no call",
      "std::string greet(const std::string& name) {",
      '    std::string out = "hello ";',
      "    out.append(std::to_string(name.size()));",
      "    return out;",
      "}",
    ],
    commentAndString: {
      line: 'auto s = std::string("to ") + name; // system(x)',
      comment: "// system(x)",
      string: '"to "',
      code: 'auto s = std::string("") + name; ',
    },
    risky: [
      {
        policy: "SEC-02",
        line: 3,
        lines: [
          "void find(sqlite3 *db, const std::string& name) {",
          '    std::string q = "SELECT * FROM users WHERE name = \'" + name + "\'";',
          "    sqlite3_exec(db, q.c_str(), nullptr, nullptr, nullptr);",
          "}",
        ],
      },
      {
        policy: "DATA-01",
        line: 2,
        lines: ["void audit(const User& user) {", '    spdlog::info("login {}", user.email);', "}"],
      },
    ],
    middle: {
      policy: "DATA-01",
      start: 12,
      line: 13,
      lines: ["}", '  printf("reset for %s\\n", user.email.c_str());'],
    },
  },
  dart: {
    file: "lib/src/users.dart",
    secret: `const token = '${TOKEN}';`,
    clean: [
      "import 'dart:io';",
      "",
      "// Process.run('sh', ['-c', x]) in a comment is no call",
      "Future<void> build(String dir) async {",
      "  final result = await Process.run('ls', ['-la', dir]);",
      "  print('listed ${result.exitCode}');",
      "}",
    ],
    commentAndString: {
      line: "var s = 'to $name'; // print(x)",
      comment: "// print(x)",
      string: "'to $name'",
      code: "var s = ' name '; ",
    },
    risky: [
      {
        policy: "SEC-02",
        line: 2,
        lines: [
          "Future<void> archive(String dir) async {",
          "  await Process.run('sh', ['-c', 'tar czf out.tgz $dir']);",
          "}",
        ],
      },
      {
        policy: "DATA-01",
        line: 2,
        lines: ["void signup(User user) {", "  print('new signup ${user.email}');", "}"],
      },
    ],
    middle: {
      policy: "SEC-02",
      start: 50,
      line: 51,
      lines: [
        "}",
        "Future<List<Map>> find(Database db, String name) => db.rawQuery(\"SELECT * FROM users WHERE name = '$name'\");",
      ],
    },
  },
  elixir: {
    file: "lib/app/users.ex",
    secret: `  @token "${TOKEN}"`,
    clean: [
      "defmodule App.Users do",
      '  # System.cmd("sh", ["-c", x]) in a comment is no call',
      '  def slug(s), do: s |> String.downcase() |> String.replace(~r/[^a-z0-9]+/, "-")',
      '  def find(id), do: Ecto.Adapters.SQL.query(Repo, "SELECT * FROM users WHERE id = $1", [id])',
      '  def list(dir), do: System.cmd("ls", ["-la", dir])',
      "end",
    ],
    commentAndString: {
      line: 'msg = "to #{user.name}" # IO.puts(x)',
      comment: "# IO.puts(x)",
      string: '"to #{user.name}"',
      code: 'msg = " user.name " ',
    },
    risky: [
      {
        policy: "SEC-02",
        line: 3,
        lines: [
          "defmodule App.Users do",
          "  def find(name) do",
          "    Ecto.Adapters.SQL.query(Repo, \"SELECT * FROM users WHERE name = '#{name}'\", [])",
          "  end",
          "end",
        ],
      },
      {
        policy: "DATA-01",
        line: 3,
        lines: [
          "defmodule App.Signup do",
          "  require Logger",
          '  def done(user), do: Logger.info("signup #{user.email}")',
          "end",
        ],
      },
    ],
    middle: {
      policy: "SEC-02",
      start: 70,
      line: 71,
      lines: ["  end", '  def ping(host), do: System.cmd("sh", ["-c", "ping -c 1 #{host}"])'],
    },
  },
  lua: {
    file: "lua/app/users.lua",
    secret: `local token = "${TOKEN}"`,
    clean: [
      "local M = {}",
      "-- os.execute(cmd) in a comment is no call",
      "function M.slug(s)",
      '  return (s:lower():gsub("[^a-z0-9]+", "-"))',
      "end",
      "return M",
    ],
    commentAndString: {
      line: 'local s = "to " .. name -- print(x)',
      comment: "-- print(x)",
      string: '"to "',
      code: 'local s = "" .. name ',
    },
    risky: [
      {
        policy: "SEC-02",
        line: 2,
        lines: ["function M.archive(dir)", '  os.execute("tar czf out.tgz " .. dir)', "end"],
      },
      {
        policy: "DATA-01",
        line: 2,
        lines: ["function M.signup(user)", '  ngx.log(ngx.INFO, "signup ", user.email)', "end"],
      },
    ],
    middle: { policy: "SEC-02", start: 9, line: 10, lines: ["end", 'local f = io.popen("ls " .. ngx.var.arg_dir)'] },
  },
};

async function findings(filename: string, patch: string): Promise<Finding[]> {
  const pr = buildPr({ files: [{ filename, patch }] });
  const ctx = detectContext(pr, { notRead: [] });
  return (await Promise.all(ALL_DETECTORS.map((d) => d.detect(ctx)))).flat();
}

const ROWS = Object.entries(CONTRACTS) as Array<[SyntaxLanguage, Contract]>;

describe("every language read: the same contract", () => {
  it("covers each grammar added after the first eleven", () => {
    expect(ROWS.map(([lang]) => lang)).toEqual(["bash", "scala", "swift", "c", "cpp", "dart", "elixir", "lua"]);
  });

  describe.each(ROWS)("%s", (lang, contract) => {
    it("its files are read with its grammar", () => {
      expect(syntaxLanguageOf(contract.file)).toBe(lang);
    });

    it("a clean change parses without an error, raises nothing, and is read (not `not_inspected`)", async () => {
      expect(parseSource(lang, contract.clean.join("\n")).findAll({ rule: { kind: "ERROR" } })).toHaveLength(0);
      const patch = addedFilePatch(contract.clean);
      expect(await findings(contract.file, patch)).toEqual([]);
      const files = buildPr({ files: [{ filename: contract.file, patch }] }).files;
      const coverage = await buildCoverage(files, ALL_DETECTORS, [], []);
      expect(coverage.unread).toBeUndefined();
      expect(Object.values(coverage.read).flat()).toEqual([contract.file]);
    });

    it("its comments and strings are what the grammar and the line family say", () => {
      const { line, comment, string, code } = contract.commentAndString;
      const root = parseSource(lang, line);
      const grammar = GRAMMARS[lang];
      const texts = (kinds: readonly string[]) =>
        root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } }).map((n) => n.text());
      expect(texts(grammar.commentKinds)).toEqual([comment]);
      expect(texts(grammar.stringKinds)).toContain(string);
      expect(sanitizeCode(line, grammar.family)).toBe(code);
    });

    it.each(contract.risky)("raises $policy at line $line", async ({ policy, line, lines }) => {
      const found = await findings(contract.file, addedFilePatch(lines));
      expect(found.filter((f) => f.policy === policy).map((f) => f.line)).toEqual([line]);
    });

    it("a token in a string raises SEC-01 at its line", async () => {
      const found = await findings(contract.file, addedFilePatch(["", contract.secret]));
      expect(found.filter((f) => f.policy === "SEC-01").map((f) => f.line)).toEqual([2]);
    });

    it("a hunk from a file's middle parses and is judged at the head file's line", async () => {
      const { policy, start, lines, line } = contract.middle;
      const [first, ...added] = lines;
      const patch = [`@@ -${start},1 +${start},${lines.length} @@`, ` ${first}`, ...added.map((l) => `+${l}`)].join(
        "\n",
      );
      const file = buildPr({ files: [{ filename: contract.file, patch }] }).files[0];
      expect(file && syntaxOfPatch(file)?.lang).toBe(lang);
      const found = await findings(contract.file, patch);
      expect(found.filter((f) => f.policy === policy).map((f) => f.line)).toEqual([line]);
    });
  });
});
