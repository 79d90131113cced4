import type { EvalReport, EvalRun, RouteMisses } from "./score.js";

const pct = (rate: number | null): string => (rate === null ? "n/a" : `${(rate * 100).toFixed(1)}%`);

function missLine(what: string, m: RouteMisses, pool: string): string {
  const names = m.fixtures.length > 0 ? `: ${m.fixtures.join(", ")}` : "";
  return `${what}: ${m.count} of ${m.of} ${pool} (${pct(m.rate)})${names}`;
}

/**
 * The evaluation as a person reads it in a terminal: one line per fixture, the route accuracy,
 * the unsafe passes and needless escalations, one line per policy, then the model usage.
 *
 * @example console.log(formatEval(report))
 */
export function formatEval(report: EvalReport | EvalRun): string {
  const lines: string[] = [];
  if ("mode" in report) {
    lines.push(
      `mode: ${report.mode === "rules" ? "rules (no model)" : "model (Claude)"}; corpus: ${report.corpus.join(", ")}`,
      "",
    );
  }
  const width = Math.max(8, ...report.per_fixture.map((s) => s.fixture.length));
  lines.push(`${"fixture".padEnd(width)}  ${"expected".padEnd(13)}  ${"got".padEnd(13)}  route  citations`);
  for (const s of report.per_fixture) {
    const notes = [
      s.fn.length > 0 ? `missed ${s.fn.join(",")}` : "",
      s.fp.length > 0 ? `wrongly cited ${s.fp.join(",")}` : "",
      s.tp.length > 0 && s.fn.length === 0 && s.fp.length === 0 ? `ok (${s.tp.join(",")})` : "",
      s.error !== undefined ? `ERROR ${s.error}` : "",
    ].filter((n) => n !== "");
    lines.push(
      `${s.fixture.padEnd(width)}  ${s.expected_route.padEnd(13)}  ${(s.route ?? "-").padEnd(13)}  ${(s.route_ok ? "ok" : "WRONG").padEnd(5)}  ${notes.join("; ") || "ok"}`,
    );
  }
  const ra = report.route_accuracy;
  lines.push("", `route accuracy: ${ra.correct}/${ra.total} (${pct(ra.rate)})`);
  lines.push(missLine("unsafe passes", report.unsafe_passes, "risky fixtures"));
  lines.push(missLine("needless escalations", report.needless_escalations, "clean fixtures"), "");
  lines.push(
    `${"policy".padEnd(8)}  ${"TP".padStart(3)} ${"FP".padStart(3)} ${"FN".padStart(3)} ${"TN".padStart(3)}  precision  recall`,
  );
  const row = (name: string, p: EvalReport["overall"]) =>
    `${name.padEnd(8)}  ${String(p.tp).padStart(3)} ${String(p.fp).padStart(3)} ${String(p.fn).padStart(3)} ${String(p.tn).padStart(3)}  ${pct(p.precision).padStart(9)}  ${pct(p.recall).padStart(6)}`;
  for (const p of report.policies) lines.push(row(p.policy, p));
  lines.push(row("all", report.overall));
  lines.push(
    "",
    `model calls ${report.model_calls}, tokens ${report.input_tokens} in / ${report.output_tokens} out, cost $${report.cost_usd.toFixed(4)}`,
  );
  if (report.errors > 0) lines.push(`${report.errors} fixture(s) could not be reviewed (see ERROR above)`);
  return lines.join("\n");
}
