import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
async function flagged(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await injectionDetector.detect(detectContext(pr));
  expect(findings.every((f) => f.policy === "SEC-02")).toBe(true);
  return findings.map((f) => f.line ?? 0);
}

/** A servlet whose `doGet` body is `body` (its line 6 is the body's first line), with extra members before it. */
function servlet(body: string[], members: string[] = []): string[] {
  return [
    "package org.acme.tools;", // 1
    "", // 2
    "public class ToolServlet extends HttpServlet {", // 3
    ...members.map((m) => `    ${m}`),
    "    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {",
    ...body.map((l) => `        ${l}`),
    "    }",
    "}",
  ];
}

const JAVA = "src/main/java/org/acme/tools/ToolServlet.java";

describe("SEC-02 by data flow in Java: request data reaches a shell or SQL", () => {
  it("a helper called twice: the second call's own added line is reported (its summary is not the first call's)", async () => {
    const patch = [
      "@@ -1,9 +1,9 @@",
      " public class A extends HttpServlet {",
      '   String build(String s) { return "ls " + s; }',
      "   protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {",
      '     String a = build(request.getParameter("a"));',
      "     Runtime.getRuntime().exec(a);",
      '-    String b = "uptime";',
      '+    String b = build(request.getParameter("b"));',
      "     Runtime.getRuntime().exec(b);",
      "   }",
      " }",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: JAVA, patch, status: "modified" }] });
    const findings = await injectionDetector.detect(detectContext(pr));
    expect(findings.map((f) => f.line)).toEqual([6]);
  });

  it("a helper's summary tells apart which element of a list argument carries request data", async () => {
    const lines = [
      "public class A extends HttpServlet {", // 1
      "  String first(java.util.List<String> l) { return l.get(0); }", // 2
      "  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {", // 3
      '    String p = request.getParameter("x");', // 4
      "    java.util.List<String> m = new java.util.ArrayList<>();", // 5
      '    m.add("safe"); m.add(p);', // 6
      '    Runtime.getRuntime().exec("echo " + first(m));', // 7
      "    java.util.List<String> l = new java.util.ArrayList<>();", // 8
      '    l.add(p); l.add("safe");', // 9
      '    Runtime.getRuntime().exec("echo " + first(l));', // 10
      "  }",
      "}",
    ];
    expect(await flagged(JAVA, lines)).toEqual([10]);
  });

  it("Runtime.exec with a concatenated string from a request parameter through a local and a helper method", async () => {
    expect(
      await flagged(JAVA, [
        "package org.acme.tools;",
        "",
        "public class ToolServlet extends HttpServlet {",
        "    private String pingCommand(String host) {",
        '        return "ping -c 1 " + host;',
        "    }",
        "",
        "    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {",
        '        String param = request.getParameter("host");',
        "        String host = param;",
        "        String cmd = pingCommand(host);",
        "        Process p = Runtime.getRuntime().exec(cmd);",
        "        response.getWriter().println(p.waitFor());",
        "    }",
        "}",
      ]),
    ).toEqual([12]);
  });

  it("Runtime.exec with an array element built from a request header, on a Runtime local", async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String param = request.getHeader("X-Dir");', // 5
          "String bar = param;", // 6
          'String[] args = {"sh", "-c", "ls " + bar};', // 7
          "Runtime r = Runtime.getRuntime();", // 8
          "Process p = r.exec(args);", // 9
        ]),
      ),
    ).toEqual([9]);
  });

  it("Runtime.exec(args, envp) with request data in the environment", async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String param = request.getParameter("lang");', // 5
          'String[] args = {"/usr/bin/env"};', // 6
          'String[] envp = {"LANG=" + param};', // 7
          "Runtime r = Runtime.getRuntime();", // 8
          "Process p = r.exec(args, envp);", // 9
        ]),
      ),
    ).toEqual([9]);
  });

  it('new ProcessBuilder("sh", "-c", cmd) with request data in the script', async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String name = request.getParameter("name");', // 5
          'String cmd = "echo " + name;', // 6
          'ProcessBuilder pb = new ProcessBuilder("sh", "-c", cmd);', // 7
          "pb.start();", // 8
        ]),
      ),
    ).toEqual([7]);
  });

  it("pb.command(list) whose list is sh -c (or cmd.exe /c, by the platform) and a request value", async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String param = request.getParameter("msg");', // 5
          "java.util.List<String> argList = new java.util.ArrayList<String>();", // 6
          'String osName = System.getProperty("os.name");', // 7
          'if (osName.indexOf("Windows") != -1) {', // 8
          '    argList.add("cmd.exe");', // 9
          '    argList.add("/c");', // 10
          "} else {", // 11
          '    argList.add("sh");', // 12
          '    argList.add("-c");', // 13
          "}", // 14
          'argList.add("echo " + param);', // 15
          "ProcessBuilder pb = new ProcessBuilder();", // 16
          "pb.command(argList);", // 17
          "pb.start();", // 18
        ]),
      ),
    ).toEqual([17]);
  });

  it('connection.prepareCall("{call " + x + "}") with a request value', async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String proc = request.getParameter("proc");', // 5
          "java.sql.Connection connection = dataSource.getConnection();", // 6
          'java.sql.CallableStatement st = connection.prepareCall("{call " + proc + "}");', // 7
          "st.execute();", // 8
        ]),
      ),
    ).toEqual([7]);
  });

  it("SQL built in a StringBuilder from a request value reaches executeQuery", async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String param = request.getParameter("user");', // 5
          "StringBuilder sb = new StringBuilder();", // 6
          'sb.append("SELECT * FROM users WHERE name = \'").append(param).append("\'");', // 7
          "java.sql.Statement statement = dataSource.getConnection().createStatement();", // 8
          "statement.executeQuery(sb.toString());", // 9
        ]),
      ),
    ).toEqual([9]);
  });

  it("reports the building line when only it is added and the exec call already existed", async () => {
    const patch = [
      "@@ -20,4 +20,4 @@ public class ToolServlet extends HttpServlet {",
      "     protected void doGet(HttpServletRequest request, HttpServletResponse response) throws Exception {",
      '-        String cmd = "uptime";',
      '+        String cmd = "ping -c 1 " + request.getParameter("host");',
      "         Runtime.getRuntime().exec(cmd);",
      "     }",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: JAVA, patch }] });
    expect((await injectionDetector.detect(detectContext(pr))).map((f) => f.line)).toEqual([21]);
  });
});

describe("SEC-02 by data flow in Java: the same shapes with constants raise nothing", () => {
  it("Runtime.exec with a constant, a static final constant, a final field and a ternary of constants", async () => {
    expect(
      await flagged(
        JAVA,
        servlet(
          [
            'String param = request.getParameter("v");',
            'Runtime.getRuntime().exec("ping -c 1 " + HOST);',
            'Runtime.getRuntime().exec("/usr/bin/" + tool);',
            'String bar = (7 * 42) - 106 > 200 ? param : "uptime";',
            'Runtime.getRuntime().exec("sh -c " + bar);',
            'String cmd = "df";',
            'cmd += " -h";',
            "Runtime.getRuntime().exec(cmd);",
          ],
          ['private static final String HOST = "localhost";', 'private final String tool = "uptime";'],
        ),
      ),
    ).toEqual([]);
  });

  it("a choice between two literals, and a value that a dead branch would have tainted", async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String param = request.getParameter("v");',
          'String tool = param.isEmpty() ? "uptime" : "df -h";',
          "Runtime.getRuntime().exec(tool);",
          'String bar = "safe";',
          'if ((7 * 18) + 106 > 200) bar = "always"; else bar = param;',
          'Runtime.getRuntime().exec("echo " + bar);',
        ]),
      ),
    ).toEqual([]);
  });

  it("an exec array whose elements are constants, and one whose request value was removed from a list", async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String param = request.getParameter("v");',
          "java.util.List<String> valuesList = new java.util.ArrayList<String>();",
          'valuesList.add("safe");',
          "valuesList.add(param);",
          'valuesList.add("moresafe");',
          "valuesList.remove(0);",
          "String bar = valuesList.get(1);",
          'String[] args = {"sh", "-c", "echo " + bar};',
          "Runtime r = Runtime.getRuntime();",
          "r.exec(args);",
          'r.exec(new String[] {"sh", "-c", "uptime"}, new String[] {"LANG=C"});',
        ]),
      ),
    ).toEqual([]);
  });

  it("ProcessBuilder with an argv list and no shell, request data as a plain argument", async () => {
    expect(
      await flagged(
        JAVA,
        servlet([
          'String host = request.getParameter("host");',
          'ProcessBuilder pb = new ProcessBuilder("ping", "-c", "1", host);',
          "pb.start();",
          "java.util.List<String> argv = new java.util.ArrayList<String>();",
          'argv.add("ls");',
          "argv.add(host);",
          "pb.command(argv);",
          'new ProcessBuilder("sh", "-c", "uptime").start();',
        ]),
      ),
    ).toEqual([]);
  });

  it("prepareCall with a constant procedure, and SQL that takes a number converted by Integer.parseInt", async () => {
    expect(
      await flagged(
        JAVA,
        servlet(
          [
            'String param = request.getParameter("id");',
            "java.sql.Connection connection = dataSource.getConnection();",
            'connection.prepareCall("{call " + PROC + "}").execute();',
            "int id = Integer.parseInt(param);",
            'connection.createStatement().executeQuery("SELECT * FROM users WHERE id = " + id);',
          ],
          ['private static final String PROC = "refresh_totals";'],
        ),
      ),
    ).toEqual([]);
  });
});

describe("SEC-02 in JavaScript: a library function concatenates its parameter into child_process.exec", () => {
  const imports: Array<[string, string, string]> = [
    ["var a = require('fs'), exec = require('child_process').exec", "exec", "lib/pdf.js"],
    ["const { exec: run } = require('node:child_process')", "run", "lib/zip.js"],
    ["import { execSync as sh } from 'child_process'", "sh", "src/git.mjs"],
    ["import * as cp from 'child_process'", "cp.exec", "src/convert.mjs"],
    ["const proc = require('child_process')", "proc.exec", "lib/proc.js"],
  ];

  it.each(imports)("%s: the call is SEC-02", async (importLine, call, filename) => {
    expect(
      await flagged(filename, [
        `${importLine};`, // 1
        "", // 2
        "function fill(sourceFile, destFile, cb) {", // 3
        `  return ${call}('pdftk ' + sourceFile + ' output ' + destFile, cb);`, // 4
        "}", // 5
        "", // 6
        "module.exports = { fill: fill };", // 7
      ]),
    ).toEqual([4]);
  });

  it("execFile with the program and an argument array is not", async () => {
    expect(
      await flagged("lib/list.js", [
        "const { execFile } = require('child_process');",
        "",
        "function list(dir, cb) {",
        "  execFile('ls', [dir], cb);",
        "}",
        "",
        "module.exports = { list };",
      ]),
    ).toEqual([]);
  });
});
