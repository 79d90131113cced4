import { describe, expect, it } from "vitest";
import { callSites } from "../../../src/detectors/code/call-sites.js";
import { syntaxOfPatch } from "../../../src/detectors/code/syntax-tree.js";
import { FlowReader } from "../../../src/detectors/dataflow/flow-reader.js";
import { carried, type FlowValue } from "../../../src/detectors/dataflow/flow-value.js";
import { addedFilePatch, buildPr } from "../pr-builder.js";

/** The flow's value of the first argument of each call of `sink` in an added file. */
function sinkValues(filename: string, lines: string[], sink = "sink"): FlowValue[] {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const file = pr.files[0];
  const syntax = file ? syntaxOfPatch(file) : undefined;
  if (!syntax) throw new Error(`${filename} did not parse`);
  const flow = FlowReader.of(syntax);
  if (!flow) throw new Error(`${syntax.lang} has no flow table`);
  const calls = callSites(syntax).filter((c) => c.method === sink);
  if (calls.length === 0) throw new Error(`no call of ${sink}`);
  return calls.map((c) => {
    const arg = c.args[0];
    const v = arg ? flow.valueAt(arg) : undefined;
    if (!v) throw new Error(`the flow did not reach ${c.node.text()}`);
    return v;
  });
}

/** Whether each value carries request data, outside data, and its known text. */
function shapes(values: FlowValue[]): Array<{ source: boolean; outside: boolean; known?: unknown }> {
  return values.map((v) => ({ source: carried(v).source, outside: carried(v).outside, known: v.known }));
}

const SOURCE = { source: true, outside: true, known: undefined };
const PARAM = { source: false, outside: true, known: undefined };
const constant = (known?: unknown) => ({ source: false, outside: false, known });

describe("the data flow in C#", () => {
  it("follows Request.Query through locals, concatenation, interpolation and a StringBuilder; int.Parse and constants carry nothing", () => {
    const values = sinkValues("src/Web/Probe.cs", [
      "public class Probe : Controller {",
      '    private const string Table = "orders";',
      "    public string Owner { get; set; }",
      "    public void Get(string id) {",
      '        var q = Request.Query["q"];',
      '        var a = "SELECT * FROM t WHERE a = \'" + q + "\'";',
      "        sink(a);",
      '        sink($"SELECT * FROM {Table} WHERE b = {id}");',
      '        var sb = new StringBuilder("SELECT * FROM t WHERE c = ");',
      "        sb.Append(q);",
      "        sink(sb.ToString());",
      "        var n = int.Parse(q);",
      '        sink("SELECT * FROM t WHERE d = " + n);',
      '        sink("SELECT * FROM " + Table);',
      '        var pick = true ? "x" : q;',
      "        sink(pick);",
      "        sink(Owner);",
      "    }",
      "}",
    ]);
    expect(shapes(values)).toEqual([
      SOURCE,
      PARAM,
      SOURCE,
      constant(),
      constant("SELECT * FROM orders"),
      constant("x"),
      PARAM,
    ]);
  });
});

describe("the data flow in PHP", () => {
  it("follows $_GET through `.`, `.=`, interpolation, arrays and a helper's return; intval and escaping carry nothing", () => {
    const values = sinkValues("public/probe.php", [
      "<?php",
      'function where($v) { return " WHERE name = \'" . $v . "\'"; }',
      "function get($conn) {",
      "    $q = $_GET['q'];",
      '    $sql = "SELECT * FROM t";',
      "    $sql .= where($q);",
      "    sink($sql);",
      '    sink("SELECT * FROM t WHERE a = {$q}");',
      "    $n = intval($_POST['n']);",
      '    sink("SELECT * FROM t WHERE b = " . $n);',
      "    sink('SELECT ' . mysqli_real_escape_string($conn, $q));",
      "    $args = ['ls', $q];",
      "    sink($args[0]);",
      "    sink($args[1]);",
      "    if (false) { $sql = $q; } else { $sql = 'x'; }",
      "    sink($sql);",
      "}",
    ]);
    expect(shapes(values)).toEqual([SOURCE, SOURCE, constant(), constant(), constant("ls"), SOURCE, constant("x")]);
  });
});

describe("the data flow in Ruby", () => {
  it("follows params through interpolation, +, << and a helper's last expression; to_i, constants and dead branches carry nothing", () => {
    const values = sinkValues("app/models/probe.rb", [
      "class Probe",
      "  def where(v)",
      "    \" WHERE name = '#{v}'\"",
      "  end",
      "  def get",
      "    q = params[:q]",
      '    sql = "SELECT * FROM t"',
      "    sql << where(q)",
      "    sink(sql)",
      '    sink("SELECT * FROM t WHERE a = " + q)',
      '    sink("SELECT * FROM t WHERE b = #{q.to_i}")',
      "    if false",
      "      sql = q",
      "    else",
      "      sql = 'x'",
      "    end",
      "    sink(sql)",
      "    sink(@name)",
      "  end",
      "end",
    ]);
    expect(shapes(values)).toEqual([SOURCE, SOURCE, constant(), constant("x"), PARAM]);
  });
});

describe("the data flow in Rust", () => {
  it("follows a handler's parameters through format!, push_str, += and a helper's tail expression; parse::<i64>() carries nothing", () => {
    const values = sinkValues("src/probe.rs", [
      "fn clause(v: &str) -> String { format!(\" WHERE name = '{}'\", v) }",
      "async fn get(name: String) {",
      '    let mut sql = String::from("SELECT * FROM t");',
      "    sql.push_str(&clause(&name));",
      "    sink(&sql);",
      '    let captured = format!("SELECT * FROM t WHERE a = {name}");',
      "    sink(&captured);",
      '    let mut more = "SELECT * FROM t WHERE b = ".to_string();',
      "    more += &name;",
      "    sink(&more);",
      "    let id = name.parse::<i64>().unwrap();",
      '    sink(&format!("SELECT * FROM t WHERE c = {}", id));',
      '    let fixed = if true { "x" } else { "y" };',
      '    sink("SELECT 1");',
      "}",
    ]);
    expect(shapes(values)).toEqual([PARAM, PARAM, PARAM, constant(), constant("SELECT 1")]);
  });
});

describe("the data flow in Kotlin", () => {
  it("follows getParameter through templates, a helper's expression body, a StringBuilder, if and buildString; toInt and constants carry nothing", () => {
    const values = sinkValues("src/main/kotlin/Probe.kt", [
      "class Probe(private val jdbc: JdbcTemplate) {",
      '    companion object { const val TABLE = "orders" }',
      '    fun where(v: String) = " WHERE name = \'" + v + "\'"',
      "    fun get(request: HttpServletRequest) {",
      '        val q = request.getParameter("q")',
      '        sink("SELECT * FROM t" + where(q))',
      "        sink(\"SELECT * FROM t WHERE a = '$q'\")",
      '        val sb = StringBuilder("SELECT * FROM t WHERE b = ")',
      "        sb.append(q)",
      "        sink(sb.toString())",
      "        val n = q.toInt()",
      '        sink("SELECT * FROM t WHERE c = ${n}")',
      '        sink("SELECT * FROM $TABLE")',
      '        val pick = if (true) "x" else q',
      "        sink(pick)",
      '        var cmd = "ls"',
      "        cmd += q",
      "        sink(cmd)",
      "        val built = buildString { append(q) }",
      "        sink(built)",
      "    }",
      "}",
    ]);
    expect(shapes(values)).toEqual([
      SOURCE,
      SOURCE,
      SOURCE,
      constant(),
      constant("SELECT * FROM orders"),
      constant("x"),
      SOURCE,
      SOURCE,
    ]);
  });
});
