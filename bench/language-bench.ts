import { defaultLicenseRules } from "../src/gate-file/effective.js";
import { ALL_DETECTORS } from "../src/detectors/index.js";
import { parsePullRequest } from "../src/domain/pull-request.js";
import { type Figure, paired, pairedFigure } from "./stats.js";

/**
 * Ordinary service code in each language the detectors read, the same ten lines in each: a query
 * with parameters, a log line of an id, an outbound call to a URL built from a variable, a comment
 * that names risky words. Nothing in it is a finding, so every detector reads every line to the
 * end. None names `http` (a word that sends a file to the outbound-call reading). `around` is the
 * line before and after the blocks where the language needs one for the file to be valid (PHP's
 * methods live in a class).
 */
export const SERVICE_CODE: Record<string, { path: string; lines: readonly string[]; around?: [string, string] }> = {
  javascript: {
    path: "src/orders/order-service.js",
    lines: [
      "export async function loadOrder(orderId) {",
      '  const order = await db.query("SELECT id, total FROM orders WHERE id = $1", [orderId]);',
      '  logger.info("order loaded", { orderId: order.id });',
      "  const rates = await client.get(`${ratesUrl}/v2/rates`).json();",
      '  if (!rates) throw new Error("rates unavailable");',
      "  // retry with exec or a process call is never needed here; the request is idempotent",
      "  const total = order.total * rates.eur;",
      "  return { id: order.id, total };",
      "}",
      "",
    ],
  },
  java: {
    path: "src/main/java/com/shop/orders/OrderService.java",
    lines: [
      "  public Order loadOrder(long orderId) {",
      '    Order order = jdbc.queryForObject("SELECT id, total FROM orders WHERE id = ?", mapper, orderId);',
      '    log.info("order loaded {}", order.getId());',
      '    RatesResponse rates = restTemplate.getForObject(ratesUrl + "/v2/rates", RatesResponse.class);',
      '    if (rates == null) throw new IllegalStateException("rates unavailable");',
      "    // retry with exec or a process call is never needed here; the request is idempotent",
      "    BigDecimal total = order.getTotal().multiply(rates.getEur());",
      "    return new Order(order.getId(), total);",
      "  }",
      "",
    ],
  },
  kotlin: {
    path: "src/main/kotlin/com/shop/orders/OrderRoutes.kt",
    lines: [
      "suspend fun loadOrder(call: ApplicationCall, orderId: Long): Order {",
      '    val order = db.prepareStatement("SELECT id, total FROM orders WHERE id = ?").apply { setLong(1, orderId) }',
      '    logger.info("order loaded {}", orderId)',
      '    val rates: Rates = client.get("$ratesUrl/v2/rates").body()',
      '    require(rates.eur > 0) { "rates unavailable" }',
      "    // retry with exec or a process call is never needed here; the request is idempotent",
      "    val total = order.total * rates.eur",
      "    return Order(orderId, total)",
      "}",
      "",
    ],
  },
  csharp: {
    path: "src/Shop.Orders/OrderService.cs",
    lines: [
      "    public async Task<Order> LoadOrder(int orderId) {",
      '        var order = await _db.QuerySingleAsync<Order>("SELECT id, total FROM orders WHERE id = @id", new { id = orderId });',
      '        _logger.LogInformation("order loaded {OrderId}", order.Id);',
      '        var rates = await _client.GetFromJsonAsync<Rates>($"{_ratesUrl}/v2/rates");',
      '        if (rates is null) throw new InvalidOperationException("rates unavailable");',
      "        // retry with Process.Start is never needed here; the request is idempotent",
      "        var total = order.Total * rates.Eur;",
      "        return new Order(order.Id, total);",
      "    }",
      "",
    ],
  },
  php: {
    path: "app/Orders/OrderService.php",
    around: ["<?php class OrderService {", "}"],
    lines: [
      "    public function loadOrder(int $orderId): array {",
      '        $stmt = $this->pdo->prepare("SELECT id, total FROM orders WHERE id = ?"); $stmt->execute([$orderId]);',
      "        $this->logger->info('order loaded', ['order_id' => $orderId]);",
      '        $rates = $this->client->get($this->ratesUrl . "/v2/rates")->json();',
      "        if (!$rates) { throw new RuntimeException('rates unavailable'); }",
      "        // retry with exec or shell_exec is never needed here; the request is idempotent",
      "        $total = $stmt->fetch()['total'] * $rates['eur'];",
      "        return ['id' => $orderId, 'total' => $total];",
      "    }",
      "",
    ],
  },
  ruby: {
    path: "app/services/order_loader.rb",
    lines: [
      "  def load_order(order_id)",
      "    order = Order.where(id: order_id).select(:id, :total).first!",
      '    Rails.logger.info("order loaded #{order.id}")',
      '    rates = HTTP.get("#{rates_url}/v2/rates").parse',
      '    raise ArgumentError, "rates unavailable" if rates.nil?',
      "    # retry with system or backticks is never needed here; the request is idempotent",
      '    total = order.total * rates["eur"]',
      "    { id: order.id, total: total }",
      "  end",
      "",
    ],
  },
  rust: {
    path: "src/orders/service.rs",
    lines: [
      "pub async fn load_order(pool: &PgPool, order_id: i64) -> Result<Order, Error> {",
      '    let order = sqlx::query_as::<_, Order>("SELECT id, total FROM orders WHERE id = $1").bind(order_id).fetch_one(pool).await?;',
      '    tracing::info!(order_id, "order loaded");',
      '    let rates: Rates = client.get(format!("{}/v2/rates", rates_url)).send().await?.json().await?;',
      '    if rates.eur <= 0.0 { return Err(Error::msg("rates unavailable")); }',
      "    // retry with Command::new is never needed here; the request is idempotent",
      "    let total = order.total * rates.eur;",
      "    Ok(Order { id: order.id, total })",
      "}",
      "",
    ],
  },
  bash: {
    path: "scripts/load-order.sh",
    lines: [
      "load_order() {",
      '  order="$(psql "$DATABASE_URL" -At -v id="$1" -c "SELECT id, total FROM orders WHERE id = :id")"',
      '  logger -t orders "order loaded $1"',
      '  rates="$(curl -fsS "$rates_url/v2/rates")"',
      '  [ -n "$rates" ] || { echo "rates unavailable" >&2; return 1; }',
      "  # retry with eval or sh -c is never needed here; the request is idempotent",
      '  total="$(echo "$order" | cut -d"|" -f2)"',
      '  printf "%s %s\\n" "$1" "$total"',
      "}",
      "",
    ],
  },
  scala: {
    path: "src/main/scala/shop/orders/OrderService.scala",
    around: ["class OrderService(db: Db, client: Client, ratesUrl: String) {", "}"],
    lines: [
      "  def loadOrder(orderId: Long): Order = {",
      '    val order = db.run(sql"SELECT id, total FROM orders WHERE id = $orderId".as[Order].head)',
      '    logger.info(s"order loaded ${order.id}")',
      '    val rates = client.get(s"$ratesUrl/v2/rates").as[Rates]',
      '    if (rates.eur <= 0) throw new IllegalStateException("rates unavailable")',
      "    // retry with Process or sys.process is never needed here; the request is idempotent",
      "    val total = order.total * rates.eur",
      "    Order(order.id, total)",
      "  }",
      "",
    ],
  },
  swift: {
    path: "Sources/Shop/OrderService.swift",
    around: ["struct OrderService {", "}"],
    lines: [
      "    func loadOrder(_ orderId: Int64) async throws -> Order {",
      '        let order = try await db.fetchOne(sql: "SELECT id, total FROM orders WHERE id = ?", arguments: [orderId])',
      '        logger.info("order loaded \\(orderId)")',
      '        let rates: Rates = try await client.get("\\(ratesUrl)/v2/rates")',
      '        guard rates.eur > 0 else { throw OrderError.ratesUnavailable("rates unavailable") }',
      "        // retry with Process or sqlite3_exec is never needed here; the request is idempotent",
      "        let total = order.total * rates.eur",
      "        return Order(id: order.id, total: total)",
      "    }",
      "",
    ],
  },
  c: {
    path: "src/orders/order_service.c",
    lines: [
      "int load_order(sqlite3 *db, long order_id, struct order *out) {",
      '    sqlite3_stmt *st; sqlite3_prepare_v2(db, "SELECT id, total FROM orders WHERE id = ?", -1, &st, NULL);',
      '    sqlite3_bind_int64(st, 1, order_id); syslog(LOG_INFO, "order loaded %ld", order_id);',
      "    struct rates rates; if (fetch_rates(rates_url, &rates) != 0) return -1;",
      "    if (rates.eur <= 0) { return -2; }",
      "    /* retry with system or popen is never needed here; the request is idempotent */",
      "    out->total = sqlite3_column_double(st, 1) * rates.eur;",
      "    out->id = order_id; sqlite3_finalize(st);",
      "    return 0; }",
      "",
    ],
  },
  cpp: {
    path: "src/orders/order_service.cpp",
    lines: [
      "Order load_order(SQLite::Database& db, int64_t order_id) {",
      '    SQLite::Statement query(db, "SELECT id, total FROM orders WHERE id = ?"); query.bind(1, order_id);',
      '    spdlog::info("order loaded {}", order_id);',
      '    auto rates = client.get(rates_url + "/v2/rates").json<Rates>();',
      '    if (rates.eur <= 0) throw std::runtime_error("rates unavailable");',
      "    // retry with system or popen is never needed here; the request is idempotent",
      "    double total = query.getColumn(1).getDouble() * rates.eur;",
      "    return Order{order_id, total};",
      "}",
      "",
    ],
  },
  dart: {
    path: "lib/src/orders/order_service.dart",
    around: ["class OrderService {", "}"],
    lines: [
      "  Future<Order> loadOrder(int orderId) async {",
      "    final order = await db.query('orders', where: 'id = ?', whereArgs: [orderId]);",
      "    logger.i('order loaded $orderId');",
      "    final rates = await client.get(Uri.parse('$ratesUrl/v2/rates'));",
      "    if (rates.statusCode != 200) throw StateError('rates unavailable');",
      "    // retry with Process.run is never needed here; the request is idempotent",
      "    final total = order.first['total'] * parseEur(rates.body);",
      "    return Order(orderId, total);",
      "  }",
      "",
    ],
  },
  elixir: {
    path: "lib/shop/orders.ex",
    around: ["defmodule Shop.Orders do", "end"],
    lines: [
      "  def load_order(order_id) do",
      '    {:ok, order} = Ecto.Adapters.SQL.query(Repo, "SELECT id, total FROM orders WHERE id = $1", [order_id])',
      '    Logger.info("order loaded #{order_id}")',
      '    {:ok, rates} = Req.get("#{rates_url()}/v2/rates")',
      '    if rates.body["eur"] <= 0, do: raise("rates unavailable")',
      "    # retry with System.cmd is never needed here; the request is idempotent",
      '    total = hd(order.rows) |> Enum.at(1) |> Kernel.*(rates.body["eur"])',
      "    %{id: order_id, total: total}",
      "  end",
      "",
    ],
  },
  lua: {
    path: "lua/shop/orders.lua",
    around: ["local M = {}", "return M"],
    lines: [
      "function M.load_order(db, order_id)",
      '  local order = db:query("SELECT id, total FROM orders WHERE id = " .. ngx.quote_sql_str(order_id))',
      '  ngx.log(ngx.INFO, "order loaded ", order_id)',
      '  local rates = client:get(M.rates_url .. "/v2/rates")',
      '  if not rates then error("rates unavailable") end',
      "  -- retry with os.execute or io.popen is never needed here; the request is idempotent",
      "  local total = order[1].total * rates.eur",
      "  return { id = order_id, total = total }",
      "end",
      "",
    ],
  },
};

/**
 * A patch adding `lines` lines of one language's service code (`around` its blocks when given),
 * each block's names made unique.
 */
export function languagePatch(code: readonly string[], lines: number, around?: readonly [string, string]): string {
  const blocks = around ? lines - 2 : lines;
  const body = Array.from({ length: blocks }, (_, i) => {
    const block = Math.floor(i / code.length);
    return `+${(code[i % code.length] ?? "").replace(/loadOrder|load_order|LoadOrder/g, (m) => `${m}${block}`)}`;
  });
  const added = around ? [`+${around[0]}`, ...body, `+${around[1]}`] : body;
  return [`@@ -0,0 +1,${lines} @@`, ...added].join("\n");
}

export function prOf(path: string, patch: string, lines: number) {
  return parsePullRequest(
    {
      number: 1,
      title: "Bench",
      user: { login: "bench-author" },
      base: { ref: "main", sha: "b".repeat(40), repo: { full_name: "bench/service" } },
      head: { ref: "feature", sha: "a".repeat(40) },
    },
    [{ filename: path, status: "added", additions: lines, deletions: 0, changes: lines, patch }],
  );
}

/** CPU µs per added line of every detector over one file, built fresh (a parse is kept per file object). */
async function detectPerLine(path: string, patch: string, lines: number): Promise<number> {
  const pr = prOf(path, patch, lines);
  const started = process.cpuUsage();
  const ctx = {
    pr,
    head: { read: async () => undefined },
    licenses: { lookup: async () => ({ status: "unknown" as const }) },
    licenseRules: defaultLicenseRules(),
    notRead: () => undefined,
  };
  await Promise.all(ALL_DETECTORS.map((d) => d.detect(ctx)));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / lines;
}

const LINES = 4_000;

/**
 * Detection cost per line in each language against JavaScript's, pair by pair in one run: a file
 * of 4,000 lines of the same service code in each (the goal: within 1.5x of JavaScript).
 */
export async function languageFigures(): Promise<Figure[]> {
  const { javascript, ...others } = SERVICE_CODE;
  if (!javascript) throw new Error("the JavaScript service code is the languages' baseline");
  const jsPatch = languagePatch(javascript.lines, LINES);
  const out: Figure[] = [];
  for (const [lang, { path, lines, around }] of Object.entries(others)) {
    const patch = languagePatch(lines, LINES, around);
    const m = await paired(
      () => detectPerLine(path, patch, LINES),
      () => detectPerLine(javascript.path, jsPatch, LINES),
      { runs: 11, label: `detect ${lang}` },
    );
    out.push(
      pairedFigure(
        `detect_per_line_${lang}`,
        `every detector, CPU µs per added line: ${lang} service code against the same in JavaScript (${LINES.toLocaleString("en-US")} lines each)`,
        { label: lang, unit: "µs CPU/line" },
        { label: "javascript", unit: "µs CPU/line" },
        m,
        { max: 1.5 },
      ),
    );
  }
  return out;
}
