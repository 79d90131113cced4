import { describe, expect, it } from "vitest";
import type { ChangedFile } from "../../../src/domain/pull-request.js";
import { callSites } from "../../../src/detectors/code/call-sites.js";
import { codeRows } from "../../../src/detectors/code/code-text.js";
import { parseSource, syntaxLanguageOf, syntaxOfPatch } from "../../../src/detectors/code/syntax-tree.js";

function file(filename: string, patch: string): ChangedFile {
  return { filename, status: "modified", additions: 1, deletions: 0, changes: 1, patch };
}

describe("syntaxLanguageOf", () => {
  it.each([
    ["src/a.ts", "typescript"],
    ["web/App.tsx", "tsx"],
    ["lib/x.mjs", "javascript"],
    ["api/views.py", "python"],
    ["cmd/main.go", "go"],
    ["README.md", undefined],
  ])("%s -> %s", (path, lang) => {
    expect(syntaxLanguageOf(path)).toBe(lang);
  });
});

describe("callSites", () => {
  it("finds calls in code, never in strings or comments, in each language", () => {
    const ts = callSites({
      lang: "typescript",
      root: parseSource("typescript", "console.log(req.body); const s = 'console.log(user)'; // log.info(x)\n"),
    });
    expect(ts.map((c) => c.callee)).toEqual(["console.log"]);
    expect(ts[0]?.receiver).toBe("console");
    expect(ts[0]?.argumentList.text()).toBe("(req.body)");
    expect(ts[0]?.args.map((a) => a.text())).toEqual(["req.body"]);

    const py = callSites({
      lang: "python",
      root: parseSource("python", 'logging.info("%s", request.headers)\ndoc = """\nlogging.info(user)\n"""\n'),
    });
    expect(py.map((c) => c.callee)).toEqual(["logging.info"]);
    expect(py[0] && codeRows(py[0].argumentList, "python")).toEqual([{ row: 0, code: '("", request.headers)' }]);
    expect(py[0]?.args.map((a) => String(a.kind()))).toEqual(["string", "attribute"]);

    const go = callSites({
      lang: "go",
      root: parseSource("go", 'func f() {\n\tlog.Printf("%+v", user) // log.Println(token)\n}\n'),
    });
    expect(go.map((c) => [c.receiver, c.method])).toEqual([["log", "Printf"]]);
  });
});

describe("callSites with a callee filter", () => {
  it("keeps only calls whose callee matches, and splits receiver and method at the last top-level dot", () => {
    const root = parseSource(
      "go",
      'func f() {\n\tlog.WithFields(logrus.Fields{"a": b}).Info("x")\n\tstrings.Join(parts, ",")\n}\n',
    );
    const calls = callSites({ lang: "go", root }, /[lL]og/);
    expect(calls.map((c) => [c.receiver, c.method])).toEqual([
      ['log.WithFields(logrus.Fields{"a":b})', "Info"],
      ["log", "WithFields"],
    ]);
  });

  it("takes a test of the callee's parts, and reads a Kotlin call's arguments from its suffix", () => {
    const root = parseSource(
      "kotlin",
      'fun f() {\n    db.prepareStatement("SELECT 1").apply { setLong(1, id) }\n    log.info("x {}", id)\n}\n',
    );
    const calls = callSites({ lang: "kotlin", root }, (c) => c.method !== "info");
    expect(calls.map((c) => [c.callee, c.method, c.argumentList.text(), c.row])).toEqual([
      ['db.prepareStatement("SELECT1").apply', "apply", "{ setLong(1, id) }", 1],
      ["db.prepareStatement", "prepareStatement", '("SELECT 1")', 1],
      ["setLong", "setLong", "(1, id)", 1],
    ]);
    expect(calls[2]?.args.map((a) => a.text())).toEqual(["1", "id"]);
  });
});

describe("syntaxOfPatch", () => {
  it("maps parsed rows back to head lines and tells added lines, across hunks", () => {
    const f = file(
      "svc/user.go",
      '@@ -10,2 +10,3 @@ func a() {\n \tx := 1\n+\tlog.Printf("%+v", user)\n }\n@@ -40,1 +41,2 @@\n func b() {\n+\tfmt.Println(token)\n',
    );
    const syntax = syntaxOfPatch(f);
    expect(syntax?.lang).toBe("go");
    const calls = syntax ? callSites(syntax) : [];
    expect(calls.map((c) => [c.callee, syntax?.lineAt(c.row), syntax?.isAdded(c.row)])).toEqual([
      ["log.Printf", 11, true],
      ["fmt.Println", 42, true],
    ]);
    // One parse per file object: the same tree comes back.
    expect(syntaxOfPatch(f)).toBe(syntax);
  });

  it("gives nothing for a file without a grammar or a patch", () => {
    expect(syntaxOfPatch(file("notes.md", "@@ -0,0 +1 @@\n+hi"))).toBeUndefined();
    expect(syntaxOfPatch({ ...file("a.py", ""), patch: undefined })).toBeUndefined();
  });
});
