import { describe, expect, it } from "vitest";
import { callSites } from "../../../src/detectors/code/call-sites.js";
import { GRAMMARS, type SyntaxLanguage } from "../../../src/detectors/code/grammars.js";
import { grammarReader, parseSource, syntaxLanguageOf } from "../../../src/detectors/code/syntax-tree.js";

function calls(lang: SyntaxLanguage, text: string) {
  return callSites({ lang, root: parseSource(lang, text) }).map((c) => ({
    callee: c.callee,
    method: c.method,
    receiver: c.receiver,
    args: c.args.map((a) => a.text()),
  }));
}

describe("the grammar table", () => {
  it.each([
    ["src/main/java/app/UserDao.java", "java"],
    ["app/src/main/kotlin/Routes.kt", "kotlin"],
    ["build.gradle.kts", "kotlin"],
    ["Api/Controllers/UsersController.cs", "csharp"],
    ["public/index.php", "php"],
    ["templates/page.phtml", "php"],
    ["app/models/user.rb", "ruby"],
    ["lib/tasks/db.rake", "ruby"],
    ["src/main.rs", "rust"],
    ["web/App.tsx", "tsx"],
    ["src/a.ts", "typescript"],
    ["cgi-bin/run.pl", undefined],
  ])("%s is read as %s", (path, lang) => {
    expect(syntaxLanguageOf(path)).toBe(lang);
  });

  it("names node kinds each grammar really has: a rule with a kind the grammar lacks fails here", () => {
    for (const [lang, grammar] of Object.entries(GRAMMARS) as Array<
      [SyntaxLanguage, (typeof GRAMMARS)[SyntaxLanguage]]
    >) {
      const root = parseSource(lang, "");
      const kinds = [
        ...grammar.callKinds.map((c) => c.kind),
        ...grammar.commentKinds,
        ...grammar.stringKinds,
        ...grammar.assignmentKinds,
      ];
      for (const kind of kinds) expect(() => root.findAll({ rule: { kind } }), `${lang}: ${kind}`).not.toThrow();
    }
  });
});

describe("calls in the languages read through `before-arguments`", () => {
  it("Java: member calls, bare calls and constructors, in source order, not in strings or comments", () => {
    const found = calls(
      "java",
      'class A { void f() { stmt.executeQuery("q" + id); run(x); /* log.info(y) */ new ObjectInputStream(in); String s = "exec(z)"; } }',
    );
    expect(found).toEqual([
      { callee: "stmt.executeQuery", method: "executeQuery", receiver: "stmt", args: ['"q" + id'] },
      { callee: "run", method: "run", receiver: undefined, args: ["x"] },
      { callee: "ObjectInputStream", method: "ObjectInputStream", receiver: undefined, args: ["in"] },
    ]);
  });

  it("Kotlin: calls with a call suffix, a trailing lambda as the argument", () => {
    const found = calls(
      "kotlin",
      'fun f() { Runtime.getRuntime().exec("ls $d") // log(x)\n items.forEach { println(it) } }',
    );
    expect(found.map((c) => c.callee)).toEqual([
      "Runtime.getRuntime().exec",
      "Runtime.getRuntime",
      "items.forEach",
      "println",
    ]);
    expect(found[0]?.args).toEqual(['"ls $d"']);
  });

  it("C#: invocations and object creation, named arguments unwrapped", () => {
    const found = calls(
      "csharp",
      "class A { void F() { var f = new BinaryFormatter(); f.Deserialize(stream); Log.Info(user.Email); } }",
    );
    expect(found).toEqual([
      { callee: "BinaryFormatter", method: "BinaryFormatter", receiver: undefined, args: [] },
      { callee: "f.Deserialize", method: "Deserialize", receiver: "f", args: ["stream"] },
      { callee: "Log.Info", method: "Info", receiver: "Log", args: ["user.Email"] },
    ]);
  });

  it("PHP: functions, ->, ?-> and :: calls, member access written as a dot", () => {
    const found = calls(
      "php",
      '<?php unserialize($_COOKIE["a"]); $db->query($sql); $o?->run(1); DB::select($q); // exec($x)\n',
    );
    expect(found.map((c) => [c.callee, c.method, c.receiver])).toEqual([
      ["unserialize", "unserialize", undefined],
      ["$db.query", "query", "$db"],
      ["$o.run", "run", "$o"],
      ["DB.select", "select", "DB"],
    ]);
    expect(found[0]?.args).toEqual(['$_COOKIE["a"]']);
  });

  it("a comment between a callee and its arguments is no part of the callee (a sink is not hidden by one)", () => {
    const php = calls("php", "<?php exec /* run */ ($cmd); $db->query/**/($sql); new PDO /* x */ ($dsn);\n");
    expect(php.map((c) => [c.callee, c.args])).toEqual([
      ["exec", ["$cmd"]],
      ["$db.query", ["$sql"]],
      ["PDO", ["$dsn"]],
    ]);
    expect(calls("java", "class A { void f() { rt.exec /* c */ (cmd); } }").map((c) => c.callee)).toEqual(["rt.exec"]);
    expect(calls("typescript", "db.query /* c */ (sql);").map((c) => c.callee)).toEqual(["db.query"]);
  });

  it("Ruby: calls with and without parentheses; a bare name with no arguments is no call", () => {
    const found = calls("ruby", 'Marshal.load(cookies[:s])\nsystem "ls #{params[:d]}"\nuser.name\n# exec(x)\n');
    expect(found).toEqual([
      { callee: "Marshal.load", method: "load", receiver: "Marshal", args: ["cookies[:s]"] },
      { callee: "system", method: "system", receiver: undefined, args: ['"ls #{params[:d]}"'] },
    ]);
  });

  it("Rust: calls and macros, paths written with dots", () => {
    const found = calls("rust", 'fn f() { Command::new("sh").arg(x); let q = format!("{}", id); // exec(y)\n }');
    expect(found.map((c) => c.callee)).toEqual(['Command.new("sh").arg', "Command.new", "format!"]);
    expect(found[2]?.args).toContain("id");
  });
});

describe("grammarReader", () => {
  it("reads only the languages it is given", () => {
    const reader = grammarReader(["python", "go"]);
    expect(reader.reads({ filename: "a.py" })).toBe(true);
    expect(reader.reads({ filename: "A.java" })).toBe(false);
    const file = {
      filename: "A.java",
      status: "added" as const,
      additions: 1,
      deletions: 0,
      changes: 1,
      patch: "@@ -0,0 +1 @@\n+x();",
    };
    expect(reader.languageOf(file)).toBeUndefined();
    expect(grammarReader(["java"]).languageOf(file)).toBe("java");
  });
});
