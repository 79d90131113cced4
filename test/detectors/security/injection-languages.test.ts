import { describe, expect, it } from "vitest";
import { injectionDetector } from "../../../src/detectors/security/injection.js";
import { STRING_SYNTAX } from "../../../src/detectors/security/string-syntax.js";
import { addedFilePatch, buildPr, detectContext } from "../pr-builder.js";

/** The lines of SEC-02 injection findings for one added file, each checked for its shape. */
async function flagged(filename: string, lines: string[]): Promise<number[]> {
  const pr = buildPr({ files: [{ filename, patch: addedFilePatch(lines) }] });
  const findings = await injectionDetector.detect(detectContext(pr));
  for (const f of findings)
    expect(f).toMatchObject({ policy: "SEC-02", severity: "high", blocking: true, file: filename });
  return findings.map((f) => f.line ?? 0);
}

// One row per language and behaviour: a risky form and its safe look-alike, each a few lines of
// the code that language's teams write. `flags` lists the lines that must be reported.
const CASES: Array<{ name: string; file: string; lines: string[]; flags: number[] }> = [
  {
    name: "Java SQL: concatenation into JDBC, JPA and JdbcTemplate",
    file: "src/main/java/shop/OrderDao.java",
    lines: [
      "class OrderDao {",
      "  List<Order> find(String customer, String sort) throws SQLException {",
      '    String sql = "SELECT * FROM orders WHERE customer = \'" + customer + "\'";',
      "    ResultSet rs = conn.createStatement().executeQuery(sql);",
      '    em.createNativeQuery("DELETE FROM carts WHERE owner = \'" + customer + "\'").executeUpdate();',
      '    return jdbc.query(String.format("SELECT * FROM orders ORDER BY %s", sort), mapper);',
      "  }",
      "}",
    ],
    flags: [4, 5, 6],
  },
  {
    name: "Java SQL clean: prepared statements, named parameters, bound JdbcTemplate arguments",
    file: "src/main/java/shop/OrderDao.java",
    lines: [
      "class OrderDao {",
      "  List<Order> find(String customer) throws SQLException {",
      '    PreparedStatement ps = conn.prepareStatement("SELECT * FROM orders WHERE customer = ?");',
      "    ps.setString(1, customer);",
      '    em.createQuery("from Order o where o.customer = :c").setParameter("c", customer);',
      '    return jdbc.query("SELECT * FROM orders WHERE customer = ?", mapper, customer);',
      "  }",
      "}",
    ],
    flags: [],
  },
  {
    name: "Java shell: Runtime.exec of built text, ProcessBuilder through sh -c",
    file: "src/main/java/ops/Archiver.java",
    lines: [
      "class Archiver {",
      "  void run(String dir) throws IOException {",
      '    Runtime.getRuntime().exec("tar czf /tmp/out.tgz " + dir);',
      '    new ProcessBuilder("sh", "-c", "du -sh " + dir).start();',
      "  }",
      "}",
    ],
    flags: [3, 4],
  },
  {
    name: "Java shell clean: a program and separate arguments",
    file: "src/main/java/ops/Archiver.java",
    lines: [
      "class Archiver {",
      "  void run(String dir) throws IOException {",
      '    new ProcessBuilder("tar", "czf", "/tmp/out.tgz", dir).start();',
      '    Runtime.getRuntime().exec(new String[] {"du", "-sh", dir});',
      "  }",
      "}",
    ],
    flags: [],
  },
  {
    name: "Kotlin SQL: string templates into JDBC and Exposed exec",
    file: "src/main/kotlin/app/Users.kt",
    lines: [
      "fun findUser(conn: Connection, name: String) {",
      "    val sql = \"SELECT * FROM users WHERE name = '$name'\"",
      "    conn.createStatement().executeQuery(sql)",
      "    transaction { exec(\"DELETE FROM sessions WHERE owner = '${name}'\") }",
      "}",
    ],
    flags: [3, 4],
  },
  {
    name: "Kotlin SQL clean: a constant table and a placeholder",
    file: "src/main/kotlin/app/Users.kt",
    lines: [
      "fun findUser(conn: Connection, name: String) {",
      '    val sql = "SELECT * FROM $TABLE WHERE name = ?"',
      "    conn.prepareStatement(sql).apply { setString(1, name) }.executeQuery()",
      "}",
    ],
    flags: [],
  },
  {
    name: "Kotlin shell: Runtime.exec and ProcessBuilder with sh -c",
    file: "src/main/kotlin/app/Backup.kt",
    lines: [
      "fun backup(path: String) {",
      '    Runtime.getRuntime().exec("tar czf /tmp/b.tgz $path")',
      '    ProcessBuilder(listOf("bash", "-c", "rsync -a " + path + " /backup")).start()',
      "}",
    ],
    flags: [2, 3],
  },
  {
    name: "Kotlin shell clean: ProcessBuilder with a program and arguments",
    file: "src/main/kotlin/app/Backup.kt",
    lines: [
      "fun backup(path: String) {",
      '    ProcessBuilder("tar", "czf", "/tmp/b.tgz", path).start()',
      '    ProcessBuilder(listOf("rsync", "-a", path, "/backup")).start()',
      "}",
    ],
    flags: [],
  },
  {
    name: "C# SQL: SqlCommand, CommandText, FromSqlRaw and Dapper with built text",
    file: "Api/Data/CustomerRepository.cs",
    lines: [
      "public class CustomerRepository {",
      "  public void Find(string name) {",
      "    var sql = $\"SELECT * FROM Customers WHERE Name = '{name}'\";",
      "    using var cmd = new SqlCommand(sql, _conn);",
      '    cmd.CommandText = "DELETE FROM Carts WHERE Owner = \'" + name + "\'";',
      "    var list = _db.Customers.FromSqlRaw($\"SELECT * FROM Customers WHERE Name = '{name}'\").ToList();",
      '    var rows = _conn.Query<Customer>("SELECT * FROM Customers WHERE Name = \'" + name + "\'");',
      "  }",
      "}",
    ],
    flags: [4, 5, 6, 7],
  },
  {
    name: "C# SQL clean: parameters, FromSqlInterpolated",
    file: "Api/Data/CustomerRepository.cs",
    lines: [
      "public class CustomerRepository {",
      "  public void Find(string name) {",
      '    using var cmd = new SqlCommand("SELECT * FROM Customers WHERE Name = @name", _conn);',
      '    cmd.Parameters.AddWithValue("@name", name);',
      '    var list = _db.Customers.FromSqlInterpolated($"SELECT * FROM Customers WHERE Name = {name}").ToList();',
      '    var rows = _conn.Query<Customer>("SELECT * FROM Customers WHERE Name = @name", new { name });',
      "  }",
      "}",
    ],
    flags: [],
  },
  {
    name: "C# shell: Process.Start through cmd /c, ProcessStartInfo with sh -c arguments",
    file: "Api/Services/Converter.cs",
    lines: [
      "public class Converter {",
      "  public void Convert(string file) {",
      '    Process.Start("cmd.exe", "/c convert " + file + " out.png");',
      '    var psi = new ProcessStartInfo { FileName = "/bin/sh", Arguments = $"-c \\"convert {file} out.png\\"" };',
      "  }",
      "}",
    ],
    flags: [3, 4],
  },
  {
    name: "C# shell clean: ArgumentList and a program without a shell",
    file: "Api/Services/Converter.cs",
    lines: [
      "public class Converter {",
      "  public void Convert(string file) {",
      '    var psi = new ProcessStartInfo { FileName = "convert" };',
      "    psi.ArgumentList.Add(file);",
      '    psi.ArgumentList.Add("out.png");',
      "    Process.Start(psi);",
      "  }",
      "}",
    ],
    flags: [],
  },
  {
    name: "PHP SQL: mysqli_query, PDO query and Laravel raw fragments with request data",
    file: "public/orders.php",
    lines: [
      "<?php",
      "$id = $_GET['id'];",
      "$r = mysqli_query($conn, \"SELECT * FROM orders WHERE id = \" . $_GET['id']);",
      '$rows = $pdo->query("SELECT * FROM orders WHERE id = $id");',
      "$q = Order::whereRaw(\"status = '\" . $request->input('status') . \"'\")->get();",
      "$s = Order::orderByRaw($request->input('sort'))->get();",
    ],
    flags: [3, 4, 5, 6],
  },
  {
    name: "PHP SQL clean: prepare with placeholders, DB::select with bindings",
    file: "public/orders.php",
    lines: [
      "<?php",
      "$id = $_GET['id'];",
      '$stmt = $pdo->prepare("SELECT * FROM orders WHERE id = ?");',
      "$stmt->execute([$id]);",
      '$named = $pdo->prepare("SELECT * FROM orders WHERE id = :id");',
      "$named->execute(['id' => $id]);",
      '$orders = DB::select("select * from orders where id = ?", [$id]);',
    ],
    flags: [],
  },
  {
    name: "PHP shell: exec, shell_exec and backticks with variables",
    file: "public/thumb.php",
    lines: [
      "<?php",
      "$name = $_POST['name'];",
      "exec(\"convert \" . $_FILES['img']['tmp_name'] . \" out.png\");",
      '$size = shell_exec("du -sh uploads/$name");',
      "$list = `ls uploads/$name`;",
    ],
    flags: [3, 4, 5],
  },
  {
    name: "PHP shell clean: escapeshellarg and constant commands",
    file: "public/thumb.php",
    lines: [
      "<?php",
      "$name = $_POST['name'];",
      "exec(\"convert \" . escapeshellarg($_FILES['img']['tmp_name']) . \" out.png\");",
      '$size = shell_exec("du -sh uploads/" . escapeshellarg($name));',
      '$load = shell_exec("uptime");',
    ],
    flags: [],
  },
  {
    // Sink calls given only literals are not read further; a `$`, `{$`, `.` or escaped `\$` is read.
    name: "PHP literal arguments: a constant passes unread, one that splices or joins does not",
    file: "public/report.php",
    lines: [
      "<?php",
      "$rows = $db->query('SELECT id FROM orders WHERE paid = 1');",
      '$n = exec("ls -la /var/spool", "x");',
      '$rows = $db->query("SELECT * FROM orders WHERE id = $id");',
      '$rows = $db->query("SELECT * FROM orders WHERE id = {$req->id}");',
      "exec('ls ' . $dir);",
      'exec("tar czf backup.tgz \\$HOME $dir");',
    ],
    flags: [4, 5, 6, 7],
  },
  {
    name: "Ruby SQL: interpolated where, find_by_sql, execute and order(params)",
    file: "app/controllers/orders_controller.rb",
    lines: [
      "class OrdersController < ApplicationController",
      "  def index",
      "    @orders = Order.where(\"status = '#{params[:status]}'\")",
      "    @mine = Order.find_by_sql(\"SELECT * FROM orders WHERE owner = '#{current_user.name}'\")",
      '    ActiveRecord::Base.connection.execute("DELETE FROM carts WHERE id = #{params[:id]}")',
      "    @sorted = Order.order(params[:sort])",
      "  end",
      "end",
    ],
    flags: [3, 4, 5, 6],
  },
  {
    name: "Ruby SQL clean: hash conditions, placeholders, to_i and symbol order",
    file: "app/controllers/orders_controller.rb",
    lines: [
      "class OrdersController < ApplicationController",
      "  def index",
      "    @orders = Order.where(status: params[:status])",
      '    @mine = Order.where("owner_id = ?", params[:owner_id])',
      '    @one = Order.where("id = #{params[:id].to_i}")',
      "    @sorted = Order.order(created_at: :desc)",
      "  end",
      "end",
    ],
    flags: [],
  },
  {
    name: "Ruby shell: system with interpolation, backticks, %x and Open3",
    file: "app/jobs/archive_job.rb",
    lines: [
      "class ArchiveJob",
      "  def perform(dir)",
      '    system("tar czf /tmp/out.tgz #{dir}")',
      "    size = `du -sh #{dir}`",
      "    list = %x(ls #{dir})",
      '    Open3.capture2("git log #{dir}")',
      "  end",
      "end",
    ],
    flags: [3, 4, 5, 6],
  },
  {
    name: "Ruby shell clean: argument lists and Shellwords",
    file: "app/jobs/archive_job.rb",
    lines: [
      "class ArchiveJob",
      "  def perform(dir)",
      '    system("tar", "czf", "/tmp/out.tgz", dir)',
      '    Open3.capture2("git", "log", dir)',
      '    IO.popen(["du", "-sh", dir])',
      '    system("ls #{Shellwords.escape(dir)}")',
      "  end",
      "end",
    ],
    flags: [],
  },
  {
    name: "Rust SQL: format! into sqlx, rusqlite and diesel",
    file: "src/db/users.rs",
    lines: [
      "pub async fn find(pool: &PgPool, conn: &Connection, name: &str) -> Result<()> {",
      "    let sql = format!(\"SELECT * FROM users WHERE name = '{}'\", name);",
      "    let rows = sqlx::query(&sql).fetch_all(pool).await?;",
      "    conn.execute(&format!(\"DELETE FROM sessions WHERE owner = '{name}'\"), [])?;",
      '    diesel::sql_query(format!("SELECT * FROM users ORDER BY {}", name)).load::<User>(&mut c)?;',
      "    Ok(())",
      "}",
    ],
    flags: [3, 4, 5],
  },
  {
    name: "Rust SQL clean: query! macro, bind and params!",
    file: "src/db/users.rs",
    lines: [
      "pub async fn find(pool: &PgPool, conn: &Connection, name: &str) -> Result<()> {",
      '    let a = sqlx::query!("SELECT * FROM users WHERE name = $1", name).fetch_all(pool).await?;',
      '    let b = sqlx::query("SELECT * FROM users WHERE name = $1").bind(name).fetch_all(pool).await?;',
      '    conn.execute("DELETE FROM sessions WHERE owner = ?1", params![name])?;',
      "    Ok(())",
      "}",
    ],
    flags: [],
  },
  {
    name: "Rust shell: Command through sh -c with built text",
    file: "src/ops/backup.rs",
    lines: [
      "pub fn backup(dir: &str) -> std::io::Result<()> {",
      '    Command::new("sh").arg("-c").arg(format!("tar czf /tmp/b.tgz {}", dir)).status()?;',
      '    let cmd = format!("du -sh {}", dir);',
      '    Command::new("bash").args(["-c", &cmd]).output()?;',
      "    Ok(())",
      "}",
    ],
    flags: [2, 4],
  },
  {
    name: "Rust shell clean: the program with separate arguments",
    file: "src/ops/backup.rs",
    lines: [
      "pub fn backup(dir: &str) -> std::io::Result<()> {",
      '    Command::new("tar").arg("czf").arg("/tmp/b.tgz").arg(dir).status()?;',
      '    Command::new("du").args(["-sh", dir]).output()?;',
      "    Ok(())",
      "}",
    ],
    flags: [],
  },
  {
    name: "PHP SQL: a heredoc that splices a variable, its braces form too, into query()",
    file: "app/Reports/RegionReport.php",
    lines: [
      "<?php",
      "function byRegion(PDO $db, string $region, string $sort) {",
      "    $sql = <<<SQL",
      "        SELECT id, total FROM orders WHERE region = '$region'",
      "        SQL;",
      "    $db->query($sql);",
      "    return $db->query(<<<SQL",
      "        SELECT id FROM orders ORDER BY {$sort}",
      "        SQL);",
      "}",
    ],
    flags: [6, 7],
  },
  {
    name: "PHP SQL (clean): a heredoc with placeholders, and a nowdoc (which splices nothing)",
    file: "app/Reports/RegionReportSafe.php",
    lines: [
      "<?php",
      "function byRegion(PDO $db, string $region) {",
      "    $sql = <<<SQL",
      "        SELECT id, total FROM orders WHERE region = ?",
      "        SQL;",
      "    $st = $db->prepare($sql); $st->execute([$region]);",
      "    $raw = <<<'SQL'",
      "        SELECT id FROM orders WHERE note = '$region'",
      "        SQL;",
      "    return $db->query($raw);",
      "}",
    ],
    flags: [],
  },
  {
    name: "Ruby SQL: a squiggly heredoc interpolating params, executed; each heredoc paired with its own body",
    file: "app/models/region_report.rb",
    lines: [
      "class RegionReport",
      "  def run(params)",
      "    header = <<~SQL",
      "      SELECT count(*) FROM orders",
      "    SQL",
      "    sql = <<~SQL",
      "      SELECT * FROM orders WHERE region = '#{params[:region]}'",
      "    SQL",
      "    ActiveRecord::Base.connection.execute(header)",
      "    ActiveRecord::Base.connection.execute(sql)",
      "  end",
      "end",
    ],
    flags: [10],
  },
  {
    name: "Ruby SQL (clean): a heredoc with a bind placeholder",
    file: "app/models/region_report_safe.rb",
    lines: [
      "class RegionReport",
      "  def run(params)",
      "    sql = <<~SQL",
      "      SELECT * FROM orders WHERE region = $1",
      "    SQL",
      "    ActiveRecord::Base.connection.exec_query(sql, 'report', [params[:region]])",
      "  end",
      "end",
    ],
    flags: [],
  },
];

describe("SEC-02 injection in Java, Kotlin, C#, PHP, Ruby and Rust", () => {
  it.each(CASES)("$name", async ({ file, lines, flags }) => {
    expect(await flagged(file, lines)).toEqual(flags);
  });

  it("PHP's pre-check passes only argument lists of literals that splice nothing", () => {
    const plain = STRING_SYNTAX.php.literalArguments;
    for (const args of ["('SELECT 1')", '("ls -la")', "('it\\'s', \"x\")", "( \"a\" , 'b', )"])
      expect(plain?.test(args), args).toBe(true);
    for (const args of [
      '("$x")',
      '("id = {$r->id}")',
      '("a" . $b)',
      '("\\\\$HOME")',
      "($sql)",
      "(getSql())",
      "('a', $b)",
    ])
      expect(plain?.test(args), args).toBe(false);
  });

  it("reports a flow once, where the PR adds the building, when the query call was already there", async () => {
    const patch = [
      "@@ -1,4 +1,5 @@",
      " class OrderDao {",
      "   List<Order> find(String customer) throws SQLException {",
      '+    String sql = "SELECT * FROM orders WHERE customer = \'" + customer + "\'";',
      "     ResultSet rs = conn.createStatement().executeQuery(sql);",
      "   }",
    ].join("\n");
    const pr = buildPr({ files: [{ filename: "src/main/java/OrderDao.java", patch }] });
    const findings = await injectionDetector.detect(detectContext(pr));
    expect(findings.map((f) => f.line)).toEqual([3]);
  });

  it("reads the six languages by behaviour (the coverage ledger counts them read)", () => {
    const pr = buildPr({
      files: ["A.java", "a.kt", "A.cs", "a.php", "a.rb", "a.rs"].map((filename) => ({
        filename,
        patch: "@@ -0,0 +1 @@\n+x",
      })),
    });
    for (const file of pr.files) expect(injectionDetector.reads(file), file.filename).toBe(true);
  });
});
