import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** Head lines of SEC-02 findings for one added file. */
async function flagged(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await injectionDetector.detect(detectContext(pr));
  return findings.filter((f) => f.policy === "SEC-02").map((f) => f.line ?? 0);
}

/** An ASP.NET controller action with `body` in it. */
function controller(body: string[]): string[] {
  return [
    "public class OrdersController : Controller {",
    '    private const string Table = "orders";',
    "    public IActionResult Find() {",
    '        var name = Request.Query["name"];',
    ...body.map((l) => `        ${l}`),
    "        return Ok();",
    "    }",
    "}",
  ];
}

describe("SEC-02 by data flow in C#", () => {
  const file = "src/Web/OrdersController.cs";

  it("a request value concatenated into SQL through a local reaches SqlCommand", async () => {
    const lines = controller([
      'var sql = "SELECT * FROM " + Table + " WHERE name = \'" + name + "\'";',
      "var where = sql;",
      "var cmd = new SqlCommand(where, conn);",
    ]);
    expect(await flagged(file, lines)).toEqual([7]);
  });

  it("a constant, a bound parameter and an int conversion raise nothing", async () => {
    const lines = controller([
      'var sql = "SELECT * FROM " + Table + " WHERE kind = \'open\'";',
      "var a = new SqlCommand(sql, conn);",
      'var b = new SqlCommand("SELECT * FROM orders WHERE name = @name", conn);',
      'b.Parameters.AddWithValue("@name", name);',
      "var id = int.Parse(name);",
      'var byId = "SELECT * FROM orders WHERE id = " + id;',
      "var c = new SqlCommand(byId, conn);",
    ]);
    expect(await flagged(file, lines)).toEqual([]);
  });

  it("a shell command line built from request data reaches Process.Start; a constant one does not", async () => {
    const lines = controller([
      'var line = "/c dir " + name;',
      'Process.Start("cmd.exe", line);',
      'var fixedLine = "/c dir C:\\\\temp";',
      'Process.Start("cmd.exe", fixedLine);',
    ]);
    expect(await flagged(file, lines)).toEqual([6]);
  });

  it("the shell program named through a local is followed; a program that is no shell is not a command line", async () => {
    const lines = controller([
      'var shell = "cmd.exe";',
      'Process.Start(shell, "/c type " + name);',
      'Process.Start("notepad.exe", "/c " + name);',
    ]);
    expect(await flagged(file, lines)).toEqual([6]);
  });
});

describe("SEC-02 by data flow in Kotlin", () => {
  const file = "src/main/kotlin/org/acme/OrderController.kt";

  /** A Spring controller method with `body` in it. */
  function spring(body: string[]): string[] {
    return [
      "class OrderController(private val jdbc: JdbcTemplate) {",
      '    @GetMapping("/orders")',
      "    fun find(request: HttpServletRequest): List<Order> {",
      '        val name = request.getParameter("name")',
      ...body.map((l) => `        ${l}`),
      "        return emptyList()",
      "    }",
      "}",
    ];
  }

  it("a request value concatenated into SQL through a local reaches executeQuery", async () => {
    const lines = spring([
      'val sql = "SELECT * FROM orders WHERE name = \'" + name + "\'"',
      "val query = sql",
      "stmt.executeQuery(query)",
    ]);
    expect(await flagged(file, lines)).toEqual([7]);
  });

  it("a constant, a bound parameter and a toInt conversion raise nothing", async () => {
    const lines = spring([
      'val kind = "open"',
      'val sql = "SELECT * FROM orders WHERE kind = \'" + kind + "\'"',
      "stmt.executeQuery(sql)",
      'jdbc.queryForList("SELECT * FROM orders WHERE name = ?", name)',
      "val id = name.toInt()",
      'stmt.executeQuery("SELECT * FROM orders WHERE id = $id")',
    ]);
    expect(await flagged(file, lines)).toEqual([]);
  });

  it("a shell command built from request data reaches Runtime.exec; a constant one does not", async () => {
    const lines = spring([
      'val cmd = "convert " + name + " out.png"',
      "Runtime.getRuntime().exec(cmd)",
      'val fixed = "convert in.png out.png"',
      "Runtime.getRuntime().exec(fixed)",
    ]);
    expect(await flagged(file, lines)).toEqual([6]);
  });
});

describe("SEC-02 by data flow in PHP", () => {
  const file = "public/orders.php";

  it("a $_GET value concatenated into SQL through a local reaches mysqli_query and $db->query", async () => {
    const lines = [
      "<?php",
      "function find($conn, $db) {",
      "    $name = $_GET['name'];",
      '    $sql = "SELECT * FROM orders WHERE name = \'" . $name . "\'";',
      "    $q = $sql;",
      "    mysqli_query($conn, $q);",
      "    $db->query(\"SELECT * FROM orders WHERE owner = '$name'\");",
      "}",
    ];
    expect(await flagged(file, lines)).toEqual([6, 7]);
  });

  it("a constant, a bound parameter, an intval and an escaped value raise nothing", async () => {
    const lines = [
      "<?php",
      "function find($conn, $db) {",
      "    $kind = 'open';",
      '    $sql = "SELECT * FROM orders WHERE kind = \'" . $kind . "\'";',
      "    mysqli_query($conn, $sql);",
      "    $id = intval($_GET['id']);",
      '    mysqli_query($conn, "SELECT * FROM orders WHERE id = " . $id);',
      '    $st = $db->prepare("SELECT * FROM orders WHERE name = ?");',
      "    $st->execute([$_GET['name']]);",
      "    $safe = mysqli_real_escape_string($conn, $_POST['owner']);",
      '    mysqli_query($conn, "SELECT * FROM orders WHERE owner = \'" . $safe . "\'");',
      "}",
    ];
    expect(await flagged(file, lines)).toEqual([]);
  });

  it("a shell command built from request data reaches exec; a constant or escaped one does not", async () => {
    const lines = [
      "<?php",
      "function thumb() {",
      "    $file = $_POST['file'];",
      '    $cmd = "convert " . $file . " out.png";',
      "    exec($cmd);",
      '    $fixed = "convert in.png out.png";',
      "    exec($fixed);",
      '    exec("convert " . escapeshellarg($file) . " out.png");',
      "}",
    ];
    expect(await flagged(file, lines)).toEqual([5]);
  });
});

describe("SEC-02 by data flow in Ruby", () => {
  const file = "app/controllers/orders_controller.rb";

  it("a params value interpolated into SQL through a local reaches find_by_sql", async () => {
    const lines = [
      "class OrdersController < ApplicationController",
      "  def index",
      "    name = params[:name]",
      "    sql = \"SELECT * FROM orders WHERE name = '#{name}'\"",
      "    query = sql",
      "    Order.find_by_sql(query)",
      "  end",
      "end",
    ];
    expect(await flagged(file, lines)).toEqual([6]);
  });

  it("a constant, a bound parameter and a to_i conversion raise nothing", async () => {
    const lines = [
      "class OrdersController < ApplicationController",
      "  def index",
      "    kind = 'open'",
      "    sql = \"SELECT * FROM orders WHERE kind = '#{kind}'\"",
      "    Order.find_by_sql(sql)",
      '    Order.find_by_sql(["SELECT * FROM orders WHERE name = ?", params[:name]])',
      "    id = params[:id].to_i",
      '    q = "SELECT * FROM orders WHERE id = " + id.to_s',
      "    Order.find_by_sql(q)",
      "  end",
      "end",
    ];
    expect(await flagged(file, lines)).toEqual([]);
  });

  it("a shell command built from request data reaches system; a constant or escaped one does not", async () => {
    const lines = [
      "class ThumbsController < ApplicationController",
      "  def create",
      "    file = params[:file]",
      '    cmd = "convert " + file + " out.png"',
      "    system(cmd)",
      '    fixed = "convert in.png out.png"',
      "    system(fixed)",
      '    system("convert " + Shellwords.escape(file) + " out.png")',
      "  end",
      "end",
    ];
    expect(await flagged(file, lines)).toEqual([5]);
  });
});

describe("SEC-02 by data flow in Rust", () => {
  const file = "src/handlers.rs";

  it("an extractor's value formatted into SQL through a local reaches query", async () => {
    const lines = [
      "async fn find(pool: web::Data<PgPool>, name: String) -> HttpResponse {",
      "    let sql = format!(\"SELECT * FROM orders WHERE name = '{}'\", name);",
      "    let q = sql;",
      "    sqlx::query(&q).fetch_all(pool.get_ref()).await;",
      "    HttpResponse::Ok().finish()",
      "}",
    ];
    expect(await flagged(file, lines)).toEqual([4]);
  });

  it("a constant, a bound parameter and a parse::<i64>() raise nothing", async () => {
    const lines = [
      "async fn find(pool: web::Data<PgPool>, name: String) -> HttpResponse {",
      '    let kind = "open";',
      "    let sql = format!(\"SELECT * FROM orders WHERE kind = '{}'\", kind);",
      "    sqlx::query(&sql).fetch_all(pool.get_ref()).await;",
      '    sqlx::query("SELECT * FROM orders WHERE name = $1").bind(&name).fetch_all(pool.get_ref()).await;',
      "    let id = name.parse::<i64>().unwrap();",
      '    let by_id = format!("SELECT * FROM orders WHERE id = {}", id);',
      "    sqlx::query(&by_id).fetch_all(pool.get_ref()).await;",
      "    HttpResponse::Ok().finish()",
      "}",
    ];
    expect(await flagged(file, lines)).toEqual([]);
  });

  it("a shell script built from request data reaches sh -c; a constant one does not", async () => {
    const lines = [
      "async fn thumb(file: String) -> HttpResponse {",
      '    let script = format!("convert {file} out.png");',
      '    Command::new("sh").arg("-c").arg(&script).output();',
      '    let fixed = "convert in.png out.png";',
      '    Command::new("sh").arg("-c").arg(fixed).output();',
      "    HttpResponse::Ok().finish()",
      "}",
    ];
    expect(await flagged(file, lines)).toEqual([3]);
  });

  it("sh with the flag and a request-built script in one args array; constant arrays raise nothing", async () => {
    const lines = [
      "async fn thumb(file: String) -> HttpResponse {",
      '    let script = "convert ".to_string() + &file;',
      '    Command::new("sh").args(["-c", &script]).output();',
      '    Command::new("sh").args(["-c", "uptime"]).output();',
      '    Command::new("convert").args([&file, "out.png"]).output();',
      "    HttpResponse::Ok().finish()",
      "}",
    ];
    expect(await flagged(file, lines)).toEqual([3]);
  });
});

describe("SEC-02 by data flow: assignments in branches and blocks the flow may run are followed", () => {
  it("a Rust match arm, a Ruby do-block, a Kotlin when branch, a C# switch case and a PHP heredoc", async () => {
    expect(
      await flagged("src/a.rs", [
        "fn m(n: String) {",
        '    let mut q = String::from("SELECT 1");',
        '    match n.as_str() { "x" => { q = format!("SELECT * FROM u WHERE n = \'{}\'", n); } _ => {} }',
        "    conn.execute(&q, []);",
        "}",
      ]),
    ).toEqual([4]);
    expect(
      await flagged("app/models/m.rb", [
        "def f",
        "  ids = params[:ids]",
        "  q = nil",
        "  [1].each do |x|",
        '    q = "SELECT * FROM u WHERE id IN (#{ids})"',
        "  end",
        "  User.find_by_sql(q)",
        "end",
      ]),
    ).toEqual([7]);
    expect(
      await flagged("src/main/kotlin/A.kt", [
        "class A {",
        "  fun m(n: String) {",
        '    var col = "a"',
        '    when (n) { "x" -> col = n }',
        '    stmt.executeQuery("SELECT * FROM u ORDER BY " + col)',
        "  }",
        "}",
      ]),
    ).toEqual([5]);
    expect(
      await flagged("src/A.cs", [
        "class A {",
        "  void M(string n) {",
        '    string col = "a";',
        '    switch (n) { case "x": col = n; break; }',
        '    conn.Query("SELECT * FROM u ORDER BY " + col);',
        "  }",
        "}",
      ]),
    ).toEqual([5]);
    expect(
      await flagged("public/a.php", [
        "<?php",
        "function f($db) {",
        "  $n = $_GET['n'];",
        "  $sql = <<<SQL",
        "SELECT * FROM u WHERE n = '$n'",
        "SQL;",
        "  $db->query($sql);",
        "}",
      ]),
    ).toEqual([7]);
  });
});

describe("SEC-02 by data flow through branches the new languages write their own way", () => {
  it("C#: a request value assigned in one case of a switch reaches SqlCommand", async () => {
    expect(
      await flagged("src/A.cs", [
        "public class C : Controller {",
        "  public IActionResult Find(int k) {",
        '    var sql = "SELECT 1";',
        "    switch (k) {",
        '      case 1: sql = "SELECT * FROM t WHERE n = \'" + Request.Query["n"] + "\'"; break;',
        '      default: sql = "SELECT 2"; break;',
        "    }",
        "    var cmd = new SqlCommand(sql, conn);",
        "    return Ok();",
        "  }",
        "}",
      ]),
    ).not.toEqual([]);
  });
  it("PHP: a request value assigned in one case reaches mysqli_query", async () => {
    expect(
      await flagged("src/a.php", [
        "<?php",
        "function f($k) {",
        '  $sql = "SELECT 1";',
        "  switch ($k) {",
        '    case 1: $sql = "SELECT * FROM t WHERE n = \'" . $_GET["n"] . "\'"; break;',
        "  }",
        "  mysqli_query($conn, $sql);",
        "}",
      ]),
    ).not.toEqual([]);
  });
  it("Kotlin: a request value assigned in a try reaches executeQuery", async () => {
    expect(
      await flagged("src/A.kt", [
        "class A {",
        "  fun f(request: HttpServletRequest) {",
        '    var sql = "SELECT 1"',
        "    try {",
        '      sql = "SELECT * FROM t WHERE n = \'" + request.getParameter("n") + "\'"',
        "    } catch (e: Exception) { }",
        "    stmt.executeQuery(sql)",
        "  }",
        "}",
      ]),
    ).not.toEqual([]);
  });
  it("Ruby: a request value assigned under unless reaches execute", async () => {
    expect(
      await flagged("app/a.rb", [
        "class A",
        "  def f",
        '    sql = "SELECT 1"',
        "    unless params[:x].nil?",
        "      sql = \"SELECT * FROM t WHERE n = '#{params[:n]}'\"",
        "    end",
        "    ActiveRecord::Base.connection.execute(sql)",
        "  end",
        "end",
      ]),
    ).not.toEqual([]);
  });
});
describe("SEC-02 by data flow through C# and PHP switches", () => {
  it("PHP: a later default that overwrites the value does not hide the tainted case", async () => {
    expect(
      await flagged("src/a.php", [
        "<?php",
        "function f($k) {",
        '  $sql = "SELECT 1";',
        "  switch ($k) {",
        '    case 1: $sql = "SELECT * FROM t WHERE n = \'" . $_GET["n"] . "\'"; break;',
        '    default: $sql = "SELECT 2";',
        "  }",
        "  mysqli_query($conn, $sql);",
        "}",
      ]),
    ).not.toEqual([]);
  });
  it("PHP: a switch on a constant runs only its case (the tainted one is dead)", async () => {
    expect(
      await flagged("src/a.php", [
        "<?php",
        "function f() {",
        '  $sql = "SELECT 1";',
        "  switch (2) {",
        '    case 1: $sql = "SELECT * FROM t WHERE n = \'" . $_GET["n"] . "\'"; break;',
        '    default: $sql = "SELECT 2";',
        "  }",
        "  mysqli_query($conn, $sql);",
        "}",
      ]),
    ).toEqual([]);
  });
  it("C#: a switch on a constant falls through an empty section into the tainted one", async () => {
    expect(
      await flagged("src/A.cs", [
        "public class C : Controller {",
        "  public IActionResult Find() {",
        '    var sql = "SELECT 1";',
        '    switch ("z") {',
        '      case "z":',
        '      case "y": sql = "SELECT * FROM t WHERE n = \'" + Request.Query["n"] + "\'"; break;',
        '      default: sql = "SELECT 2"; break;',
        "    }",
        "    var cmd = new SqlCommand(sql, conn);",
        "    return Ok();",
        "  }",
        "}",
      ]),
    ).not.toEqual([]);
  });
});
