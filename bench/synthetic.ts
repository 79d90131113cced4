import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parsePullRequest, type PullRequest } from "../src/domain/pull-request.js";

/**
 * Lines shaped like an ordinary service file: queries with parameters, logging of ids, outbound
 * calls, and the bare words (request, fetch, got, ky) that real code is full of. Nothing in it is a
 * finding, so every detector reads every line to the end.
 */
const CODE = [
  "export async function loadOrder(request, response) {",
  '  const order = await db.query("SELECT id, total FROM orders WHERE id = $1", [request.params.id]);',
  '  logger.info("order loaded", { orderId: order.id });',
  '  const rates = await fetch(`${RATES_URL}/v2/rates`, { method: "GET" });',
  '  if (!rates.ok) throw new Error("rates unavailable");',
  "  // retry with got or ky when the fetch above fails; the request is idempotent",
  "  const total = order.total * (await rates.json()).eur;",
  "  return response.json({ id: order.id, total });",
  "}",
  "",
];

/** A deterministic pseudo-random word per line, so the diff compresses like real code, not like a repeated block. */
function word(i: number): string {
  let x = (i + 1) * 2654435761;
  x ^= x >>> 13;
  x = Math.imul(x, 0x5bd1e995);
  return (x >>> 0).toString(36);
}

/** A unified-diff patch adding `lines` lines of ordinary code. */
export function addedPatch(lines: number): string {
  const body = Array.from(
    { length: lines },
    (_, i) => `+${(CODE[i % CODE.length] ?? "").replace(/order/g, `order_${word(i)}`)}`,
  );
  return [`@@ -0,0 +1,${lines} @@`, ...body].join("\n");
}

/** GitHub's REST shapes of a PR adding `files` files of `linesPerFile` lines each. */
export function syntheticPrJson(opts: { files: number; linesPerFile: number; number?: number; docs?: boolean }) {
  const number = opts.number ?? 1;
  const pr = {
    number,
    title: `Synthetic change ${number}`,
    body: "Generated for the bench.",
    user: { login: "bench-author" },
    base: { ref: "main", sha: "b".repeat(40), repo: { full_name: "bench/service" } },
    head: { ref: "feature", sha: `${String(number).padStart(8, "0")}${"a".repeat(32)}` },
  };
  const files = Array.from({ length: opts.files }, (_, i) => ({
    filename: opts.docs ? `docs/page-${i}.md` : `src/orders/handler-${i}.ts`,
    status: "added",
    additions: opts.linesPerFile,
    deletions: 0,
    changes: opts.linesPerFile,
    patch: opts.docs ? docsPatch(opts.linesPerFile) : addedPatch(opts.linesPerFile),
  }));
  return { pr, files };
}

function docsPatch(lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => `+Line ${i} of the guide explains how to set up the service.`);
  return [`@@ -0,0 +1,${lines} @@`, ...body].join("\n");
}

/** The same, as the gate's `PullRequest` value. */
export function syntheticPr(opts: { files: number; linesPerFile: number; number?: number }): PullRequest {
  const { pr, files } = syntheticPrJson(opts);
  return parsePullRequest(pr, files);
}

/** Writes the PR as a fixture folder `<dir>/<name>/` and returns the diff's size in bytes. */
export function writeSyntheticFixture(
  dir: string,
  name: string,
  opts: { files: number; linesPerFile: number; number?: number; docs?: boolean },
): number {
  const { pr, files } = syntheticPrJson(opts);
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, name, "pr.json"), JSON.stringify(pr));
  writeFileSync(path.join(dir, name, "files.json"), JSON.stringify(files));
  return files.reduce((n, f) => n + Buffer.byteLength(f.patch), 0);
}
