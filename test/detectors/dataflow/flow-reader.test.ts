import { describe, expect, it } from "vitest";
import { callSites } from "../../../src/detectors/code/call-sites.js";
import { syntaxOfPatch } from "../../../src/detectors/code/syntax-tree.js";
import { FlowReader } from "../../../src/detectors/dataflow/flow-reader.js";
import {
  anyItem,
  CONSTANT,
  carried,
  choicesOf,
  concat,
  derived,
  join,
  known,
  OUTSIDE,
  SOURCE,
  type FlowValue,
} from "../../../src/detectors/dataflow/flow-value.js";
import { addedFilePatch, buildPr } from "../pr-builder.js";

/**
 * The values the flow gives each argument of every call whose callee ends with `callee`, for a Java
 * file added by a pull request (parsed the way the detectors parse it).
 */
function argumentsAt(lines: string[], callee: string, filename = "src/main/java/org/acme/Probe.java"): FlowValue[][] {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const file = pr.files[0];
  const syntax = file ? syntaxOfPatch(file) : undefined;
  if (!syntax) throw new Error("the Java file did not parse");
  const flow = FlowReader.of(syntax);
  if (!flow) throw new Error("Java has no flow table");
  const calls = callSites(syntax).filter((c) => c.callee === callee || c.callee.endsWith(`.${callee}`));
  if (calls.length === 0) throw new Error(`no call of ${callee}`);
  return calls.map((c) =>
    c.args.map((a) => {
      const v = flow.valueAt(a);
      if (!v) throw new Error(`the flow did not reach ${a.text()}`);
      return v;
    }),
  );
}

/** The first argument of the only call of `callee` (`sink` by default) in a servlet method's body. */
function sinkArgument(body: string[], callee = "sink", members: string[] = []): FlowValue {
  const lines = [
    "package org.acme;",
    "",
    "public class Probe extends HttpServlet {",
    ...members.map((m) => `    ${m}`),
    "    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {",
    '        String param = request.getParameter("q");',
    ...body.map((l) => `        ${l}`),
    "    }",
    "}",
  ];
  const calls = argumentsAt(lines, callee);
  expect(calls).toHaveLength(1);
  const first = calls[0]?.[0];
  if (!first) throw new Error(`${callee} has no argument`);
  return first;
}

describe("FlowReader on Java: what reaches a call", () => {
  it("a request parameter through a local and a helper method's return reaches Runtime.getRuntime().exec", () => {
    const lines = [
      "public class Ping extends HttpServlet {",
      "    private String buildCmd(String host) {",
      '        return "ping -c 1 " + host;',
      "    }",
      "    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {",
      '        String host = request.getParameter("host");',
      "        String target = host;",
      "        String cmd = buildCmd(target);",
      "        Process p = Runtime.getRuntime().exec(cmd);",
      "    }",
      "}",
    ];
    const [[cmd]] = argumentsAt(lines, "Runtime.getRuntime().exec") as [[FlowValue]];
    expect(cmd.outside).toBe(true);
    expect(cmd.source).toBe(true);
    expect(cmd.known).toBeUndefined();
    expect(cmd.literal).toBe("ping -c 1 ");
    // Rows (0-based) of the helper's return, the source, the local, the helper's call and the sink.
    expect([...cmd.rows].sort((a, b) => a - b)).toEqual([2, 5, 6, 7, 8]);
  });

  it("a method parameter is outside data but not a request source; an annotated one is a source", () => {
    const lines = [
      "public class Api {",
      "    public void run(String dir, @RequestParam String name) throws IOException {",
      '        Runtime.getRuntime().exec("ls " + dir);',
      '        Runtime.getRuntime().exec("ls " + name);',
      "    }",
      "}",
    ];
    const [[dir], [name]] = argumentsAt(lines, "Runtime.getRuntime().exec") as [[FlowValue], [FlowValue]];
    expect([dir.outside, dir.source]).toEqual([true, false]);
    expect([name.outside, name.source]).toEqual([true, true]);
  });

  it("a constant concatenated through locals is one known string", () => {
    const v = sinkArgument(['String tool = "ls";', 'String cmd = tool + " -l " + "/tmp";', "sink(cmd);"]);
    expect(v).toMatchObject({ outside: false, source: false, known: "ls -l /tmp" });
  });

  it("a final field is its initial value; a static final ALL_CAPS field is a constant; any other field is outside", () => {
    const members = [
      'private final String tool = "uptime";',
      'private static final String HOST = "localhost";',
      "private String mutable;",
    ];
    expect(sinkArgument(['sink("/usr/bin/" + tool);'], "sink", members)).toMatchObject({
      outside: false,
      known: "/usr/bin/uptime",
    });
    expect(sinkArgument(['sink("ping " + HOST);'], "sink", members)).toMatchObject({
      outside: false,
      known: "ping localhost",
    });
    expect(sinkArgument(['sink("ping " + this.HOST);'], "sink", members).outside).toBe(false);
    expect(sinkArgument(['sink("ping " + mutable);'], "sink", members).outside).toBe(true);
  });

  it("a ternary with a constant condition takes only its live branch", () => {
    const dead = sinkArgument(['String bar = (7 * 42) - 106 > 200 ? param : "ls";', "sink(bar);"]);
    expect(dead).toMatchObject({ outside: false, known: "ls" });
    const live = sinkArgument(['String bar = (7 * 42) - 106 < 200 ? param : "ls";', "sink(bar);"]);
    expect([live.outside, live.source]).toEqual([true, true]);
  });

  it("a ternary on an unknown condition joins both branches", () => {
    const both = sinkArgument(['String bar = param.isEmpty() ? "sh" : "cmd.exe";', "sink(bar);"]);
    expect(both.outside).toBe(false);
    expect(both.known).toBeUndefined();
    expect(choicesOf(both)).toEqual(["sh", "cmd.exe"]);
    const tainted = sinkArgument(['String bar = param.isEmpty() ? "none" : param;', "sink(bar);"]);
    expect([tainted.outside, tainted.source]).toEqual([true, true]);
  });

  it("an if with a constant condition runs only its live branch", () => {
    const safe = sinkArgument([
      "String bar;",
      "int num = 106;",
      'if ((7 * 18) + num > 200) bar = "This_should_always_happen";',
      "else bar = param;",
      "sink(bar);",
    ]);
    expect(safe).toMatchObject({ outside: false, known: "This_should_always_happen" });
    const tainted = sinkArgument([
      'String bar = "safe";',
      "int num = 86;",
      "if ((7 * 42) - num > 200) bar = param;",
      "sink(bar);",
    ]);
    expect([tainted.outside, tainted.source]).toEqual([true, true]);
  });

  it("a switch on a constant char ('ABC'.charAt(n)) runs only the matching case, falling through to its break", () => {
    const body = (index: number) => [
      "String bar;",
      'String guess = "ABC";',
      `char switchTarget = guess.charAt(${index});`,
      "switch (switchTarget) {",
      "    case 'A':",
      "        bar = param;",
      "        break;",
      "    case 'B':",
      '        bar = "bobs_your_uncle";',
      "        break;",
      "    case 'C':",
      "    case 'D':",
      "        bar = param;",
      "        break;",
      "    default:",
      '        bar = "bobs_your_uncle";',
      "        break;",
      "}",
      "sink(bar);",
    ];
    expect(sinkArgument(body(1))).toMatchObject({ outside: false, known: "bobs_your_uncle" });
    const c = sinkArgument(body(2));
    expect([c.outside, c.source]).toEqual([true, true]);
  });

  it("a list with add, remove(0) and get(i) keeps each element (the Benchmark's valuesList)", () => {
    const body = (index: number) => [
      "java.util.List<String> valuesList = new java.util.ArrayList<String>();",
      'valuesList.add("safe");',
      "valuesList.add(param);",
      'valuesList.add("moresafe");',
      "valuesList.remove(0);",
      `String bar = valuesList.get(${index});`,
      "sink(bar);",
    ];
    const first = sinkArgument(body(0));
    expect([first.outside, first.source]).toEqual([true, true]);
    expect(sinkArgument(body(1))).toMatchObject({ outside: false, known: "moresafe" });
  });

  it("a list read at an unknown index carries what any element carries", () => {
    const v = sinkArgument([
      "java.util.List<String> items = new java.util.ArrayList<>();",
      'items.add("a");',
      "items.add(param);",
      "int i = param.length();",
      "sink(items.get(i));",
    ]);
    expect(v.outside).toBe(true);
  });

  it("a map put and read by a constant key gives the value put under that key", () => {
    const body = (key: string) => [
      "java.util.HashMap<String, Object> map = new java.util.HashMap<String, Object>();",
      'map.put("keyA-1", "a-Value");',
      'map.put("keyB-1", param);',
      `String bar = (String) map.get("${key}");`,
      "sink(bar);",
    ];
    expect(sinkArgument(body("keyA-1"))).toMatchObject({ outside: false, known: "a-Value" });
    const b = sinkArgument(body("keyB-1"));
    expect([b.outside, b.source]).toEqual([true, true]);
  });

  it("a StringBuilder's append chain carries what was appended, with its literal text", () => {
    const tainted = sinkArgument(
      [
        "StringBuilder sb = new StringBuilder();",
        'sb.append("SELECT * FROM users WHERE name = \'").append(param);',
        'sb.append("\'");',
        "statement.executeQuery(sb.toString());",
      ],
      "statement.executeQuery",
    );
    expect([tainted.outside, tainted.source]).toEqual([true, true]);
    expect(tainted.literal).toContain("SELECT * FROM users WHERE name = '");
    const clean = sinkArgument(
      [
        "StringBuilder sb = new StringBuilder();",
        'sb.append("SELECT id FROM users").append(" WHERE active = 1");',
        "statement.executeQuery(sb.toString());",
      ],
      "statement.executeQuery",
    );
    expect(clean.outside).toBe(false);
    expect(clean.literal).toContain("SELECT id FROM users");
  });

  it("Integer.parseInt is a sanitizer: its result carries no text", () => {
    const v = sinkArgument(["int port = Integer.parseInt(param);", 'sink("nc -z localhost " + port);']);
    expect(v.outside).toBe(false);
    expect(v.source).toBe(false);
  });

  it("a choice between sh and cmd.exe in an argv list is a choice of two shells, element by element", () => {
    const v = sinkArgument(
      [
        "java.util.List<String> argList = new java.util.ArrayList<String>();",
        'String osName = System.getProperty("os.name");',
        'if (osName.indexOf("Windows") != -1) {',
        '    argList.add("cmd.exe");',
        '    argList.add("/c");',
        "} else {",
        '    argList.add("sh");',
        '    argList.add("-c");',
        "}",
        'argList.add("echo " + param);',
        "pb.command(argList);",
      ],
      "pb.command",
    );
    expect(v.items).toHaveLength(3);
    const [program, flag, script] = v.items ?? [];
    expect(program && [...choicesOf(program)].sort()).toEqual(["cmd.exe", "sh"]);
    expect(flag && [...choicesOf(flag)].sort()).toEqual(["-c", "/c"]);
    expect(script && [script.outside, script.source]).toEqual([true, true]);
    expect(carried(v).source).toBe(true);
  });

  it("an array initializer keeps its elements in order", () => {
    const v = sinkArgument(['String[] args = {"sh", "-c", "ls " + param};', "sink(args);"]);
    expect(v.items?.map((i) => i.known)).toEqual(["sh", "-c", undefined]);
    expect(v.items?.[2]?.source).toBe(true);
  });

  it("a method of another class is outside data: the reader follows only the file's own functions", () => {
    const v = sinkArgument(['String bar = new SeparateClassRequest(request).getTheValue("q");', 'sink("ls " + bar);']);
    expect(v.outside).toBe(true);
  });

  it("gives no value to an expression no run reached", () => {
    const pr = buildPr({
      files: [
        {
          filename: "src/main/java/org/acme/Probe.java",
          patch: addedFilePatch(["public class Probe {", "    void f() { sink(1); }", "}"]),
        },
      ],
    });
    const syntax = pr.files[0] ? syntaxOfPatch(pr.files[0]) : undefined;
    const flow = syntax ? FlowReader.of(syntax) : undefined;
    expect(flow).toBeDefined();
    expect(syntax && flow?.valueAt(syntax.root)).toBeUndefined();
    // One reader per tree.
    expect(syntax && FlowReader.of(syntax)).toBe(flow);
  });
});

/** The first argument of the one call of `callee` in a Python or JavaScript file. */
function firstArgument(filename: string, lines: string[], callee: string): FlowValue {
  const calls = argumentsAt(lines, callee, filename);
  expect(calls).toHaveLength(1);
  const first = calls[0]?.[0];
  if (!first) throw new Error(`${callee} has no argument`);
  return first;
}

describe("FlowReader on Python: the same reader by its table", () => {
  const view = (body: string[]) => ["from flask import request", "", "def view():", ...body.map((l) => `    ${l}`)];

  it("Flask's imported request is a source; an f-string and a list built with append carry it", () => {
    const v = firstArgument(
      "app/views.py",
      view([
        'param = request.args.get("q")',
        "argv = []",
        'argv.append("sh")',
        'argv.append("-c")',
        'argv.append(f"echo {param}")',
        "sink(argv)",
      ]),
      "sink",
    );
    expect(v.items?.map((i) => i.known)).toEqual(["sh", "-c", undefined]);
    expect(v.items?.[2]?.source).toBe(true);
  });

  it("elif chains, conditions on constants (`in`, `not`) and match on a constant run only the live branch", () => {
    const v = firstArgument(
      "app/views.py",
      view([
        'param = request.form.get("q")',
        'bar = "This should never happen"',
        "if 'should' not in bar:",
        "    bar = param",
        "elif 1 > 2:",
        "    bar = param",
        "guess = 'ABC'[1]",
        "match guess:",
        "    case 'A':",
        "        bar = param",
        "    case 'B':",
        "        pass",
        "    case _:",
        "        bar = param",
        "sink(bar)",
      ]),
      "sink",
    );
    expect(carried(v).outside).toBe(false);
    expect(v.known).toBe("This should never happen");
  });

  it("a dict read by a constant key, tuple assignment and `%` formatting follow the matching value", () => {
    const v = firstArgument(
      "app/views.py",
      view([
        'd = {"safe": "x", "p": request.args.get("q")}',
        `label, sql = "x", "SELECT id FROM t WHERE name = '%s'" % d["p"]`,
        'sink(label + d["safe"])',
      ]),
      "sink",
    );
    expect(carried(v).outside).toBe(false);
    const sql = firstArgument(
      "app/views.py",
      view([
        'd = {"safe": "x", "p": request.args.get("q")}',
        `label, sql = "x", "SELECT id FROM t WHERE name = '%s'" % d["p"]`,
        "sink(sql)",
      ]),
      "sink",
    );
    expect(sql.source).toBe(true);
    expect(sql.literal).toContain("SELECT id FROM t");
  });
});

describe("FlowReader on JavaScript and TypeScript", () => {
  it("a route handler's parameter through a template and `??` reaches the call; a constant table name does not", () => {
    const lines = [
      "export function handler(req, res) {",
      '  const sort = String(req.query.sort ?? "name");',
      '  const table = process.env.NODE_ENV === "test" ? "users_test" : "users";',
      "  sink(`SELECT * FROM ${table} ORDER BY ${sort}`);",
      "  sink(`SELECT * FROM ${table}`);",
      "}",
    ];
    const [withSort, withTable] = argumentsAt(lines, "sink", "src/routes/users.ts").map((args) => args[0]);
    expect(withSort && carried(withSort).outside).toBe(true);
    expect(withTable && carried(withTable).outside).toBe(false);
    expect(withTable?.choices).toEqual(["SELECT * FROM users_test", "SELECT * FROM users"]);
  });

  it("an object spread from a parameter carries it into a helper's command; mysql.format keeps the text's value", () => {
    const command = firstArgument(
      "src/index.ts",
      [
        "function createCommand(options: any) {",
        '  let command = "git log ";',
        "  command += `-n ${options.number}`;",
        "  return command;",
        "}",
        "export function gitlog(userOptions: any) {",
        "  const options = { ...defaults, ...userOptions };",
        "  sink(createCommand(options));",
        "}",
      ],
      "sink",
    );
    expect(carried(command).outside).toBe(true);
    expect(command.literal).toContain("git log");
    const sql = firstArgument(
      "app.js",
      [
        "app.post('/voter', function (req, res) {",
        '  var sql = "SELECT botName FROM bot WHERE voterName = ?";',
        "  sql = mysql.format(sql, [req.body.voter]);",
        "  sink(sql);",
        "});",
      ],
      "sink",
    );
    expect(carried(sql).outside).toBe(false);
  });

  it("an arrow function given to a name returns what its body builds from its argument", () => {
    const v = firstArgument(
      "lib/pdf.js",
      ["const build = (file) => 'pdftk ' + file;", "function fill() {", "  sink(build('a.pdf'));", "}"],
      "sink",
    );
    expect(v.known).toBe("pdftk a.pdf");
  });
});

describe("FlowReader on Go", () => {
  it("a request decoded into a struct (`Decode(&req)`) reaches the script; a switch on a constant keeps the command constant", () => {
    const lines = [
      "package main",
      "",
      "func handle(w http.ResponseWriter, r *http.Request) {",
      "\tvar req releaseRequest",
      "\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil {",
      "\t\treturn",
      "\t}",
      '\tscript := "docker pull " + req.Service',
      "\tsink(script)",
      '\tmode := "status"',
      '\tcmd := "uptime"',
      "\tswitch mode {",
      '\tcase "status", "health":',
      '\t\tcmd = "systemctl status app"',
      "\tdefault:",
      "\t\tcmd = req.Service",
      "\t}",
      "\tsink(cmd)",
      "}",
    ];
    const [script, cmd] = argumentsAt(lines, "sink", "cmd/deployer/release.go").map((args) => args[0]);
    expect(script && carried(script).outside).toBe(true);
    expect(script?.literal).toContain("docker pull");
    expect(cmd && carried(cmd).outside).toBe(false);
    expect(cmd?.known).toBe("systemctl status app");
  });

  it("a slice literal and append keep their elements; q, n := ... gives each name its value", () => {
    const lines = [
      "package main",
      "",
      "func run(name string) {",
      '\targs := []string{"sh", "-c"}',
      '\targs = append(args, "echo "+name)',
      "\tsink(args)",
      '\tq, n := "SELECT 1", name',
      "\tsink(q)",
      "\tsink(n)",
      "}",
    ];
    const [args, q, n] = argumentsAt(lines, "sink", "internal/run.go").map((a) => a[0]);
    expect(args?.items?.map((i) => i.known)).toEqual(["sh", "-c", undefined]);
    expect(args?.items?.[2] && carried(args.items[2]).outside).toBe(true);
    expect(q?.known).toBe("SELECT 1");
    expect(n && carried(n).outside).toBe(true);
  });
});

describe("flow values: join and concat", () => {
  it("join keeps a known value only when both paths know the same one", () => {
    expect(join(known("a"), known("a")).known).toBe("a");
    const either = join(known("sh", 1), known("cmd.exe", 2));
    expect(either.known).toBeUndefined();
    expect(either.choices).toEqual(["sh", "cmd.exe"]);
    expect(either.outside).toBe(false);
    expect(either.rows).toEqual([1, 2]);
  });

  it("join is outside (and a source) when either path is; it then keeps no choices", () => {
    const j = join(known("a"), SOURCE);
    expect([j.outside, j.source, j.known, j.choices]).toEqual([true, true, undefined, undefined]);
    expect(join(OUTSIDE, known("a")).source).toBe(false);
  });

  it("join of choices unions them, up to eight; past that a constant of no known value", () => {
    const three = join(join(known("a"), known("b")), known("c"));
    expect(choicesOf(three)).toEqual(["a", "b", "c"]);
    const many = ["a", "b", "c", "d", "e", "f", "g", "h", "i"].map((s) => known(s)).reduce(join);
    expect(many.outside).toBe(false);
    expect(choicesOf(many)).toEqual([]);
    // A constant of unknown value joined with a known one is no choice.
    expect(choicesOf(join(CONSTANT, known("a")))).toEqual([]);
  });

  it("join lines up the elements of two lists of the same length; otherwise lifts what they carried", () => {
    const a: FlowValue = { ...CONSTANT, items: [known("sh"), known("-c")] };
    const b: FlowValue = { ...CONSTANT, items: [known("cmd.exe"), known("/c")] };
    const j = join(a, b);
    expect(j.items?.map((i) => choicesOf(i))).toEqual([
      ["sh", "cmd.exe"],
      ["-c", "/c"],
    ]);
    const uneven = join({ ...CONSTANT, items: [known("ls")] }, { ...CONSTANT, items: [known("ls"), SOURCE] });
    expect(uneven.items).toBeUndefined();
    expect([uneven.outside, uneven.source]).toEqual([true, true]);
  });

  it("join of maps keeps every key, joining the values of keys both have", () => {
    const a: FlowValue = { ...CONSTANT, entries: new Map([["k", known("x")]]) };
    const b: FlowValue = {
      ...CONSTANT,
      entries: new Map([
        ["k", SOURCE],
        ["other", known("y")],
      ]),
    };
    const j = join(a, b);
    expect([...(j.entries?.keys() ?? [])]).toEqual(["k", "other"]);
    expect(j.entries?.get("k")?.source).toBe(true);
    expect(j.outside).toBe(false);
    expect(carried(j).source).toBe(true);
  });

  it("concat folds two known strings into one and otherwise keeps the literal text in order", () => {
    const k = concat(known("ls "), known("-l"));
    expect(k).toMatchObject({ known: "ls -l", literal: "ls -l", outside: false });
    const c = concat(known("SELECT * FROM t WHERE id = ", 3), SOURCE, 4);
    expect(c).toMatchObject({ outside: true, source: true, literal: "SELECT * FROM t WHERE id = " });
    expect(c.known).toBeUndefined();
    expect(c.rows).toEqual([3, 4]);
    expect(concat(OUTSIDE, known("x")).source).toBe(false);
  });

  it("derived, carried and anyItem: a call's result and a collection carry what went into them", () => {
    expect(derived([known("a"), OUTSIDE]).outside).toBe(true);
    expect(derived([known("a"), known("b")]).known).toBeUndefined();
    expect(derived([{ ...CONSTANT, items: [SOURCE] }]).source).toBe(true);
    expect(carried({ ...CONSTANT, items: [known("a"), OUTSIDE] })).toEqual({ outside: true, source: false });
    expect(anyItem({ ...CONSTANT, items: [known("a"), SOURCE] }).source).toBe(true);
  });
});
