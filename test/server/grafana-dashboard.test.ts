import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PACKAGE_ROOT } from "../../src/package-paths.js";
import { createMetrics } from "../../src/server/metrics.js";

const DashboardSchema = z.looseObject({
  title: z.string(),
  panels: z.array(z.looseObject({ title: z.string(), targets: z.array(z.looseObject({ expr: z.string() })).min(1) })),
});

/** PromQL words that are not metric names (functions are told apart by the "(" after them). */
const KEYWORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "offset", "bool"]);
const OPERATORS = new Set(["and", "or", "unless"]);

/**
 * The metric names a PromQL expression reads: identifiers left once strings, label matchers,
 * ranges and `by (...)` lists are removed, other than functions, keywords and numbers.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(?:by|without|on|ignoring)\s*\([^)]*\)/g, "");
  const names: string[] = [];
  for (const m of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const after = bare.slice((m.index ?? 0) + m[0].length).trimStart();
    if (after.startsWith("(") || KEYWORDS.has(m[0]) || OPERATORS.has(m[0])) continue;
    names.push(m[0]);
  }
  return names;
}

/** Every series name the registry serves: a histogram's as `_bucket`, `_sum` and `_count`. */
async function servedNames(): Promise<Set<string>> {
  const metrics = await createMetrics().registry.getMetricsAsJSON();
  return new Set(
    metrics.flatMap((m) =>
      String(m.type) === "histogram"
        ? [`${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`]
        : String(m.type) === "summary"
          ? [m.name, `${m.name}_sum`, `${m.name}_count`]
          : [m.name],
    ),
  );
}

describe("docs/grafana-dashboard.json", () => {
  const dashboard = DashboardSchema.parse(
    JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "docs/grafana-dashboard.json"), "utf8")),
  );

  it("reads the names out of PromQL (the reader this test relies on)", () => {
    expect(metricNames('sum by (le) (rate(gate_x_bucket{route="a b"}[5m])) * 60')).toEqual(["gate_x_bucket"]);
    expect(metricNames("histogram_quantile(0.95, a_total) / on (instance) b")).toEqual(["a_total", "b"]);
    expect(metricNames('max(gate_queue_depth) or vector(0) unless up{job="x"}')).toEqual(["gate_queue_depth", "up"]);
  });

  it("queries only metric names the gate's registry serves, and shows the standard and the new ones", async () => {
    const served = await servedNames();
    const used = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr)));
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((name) => !served.has(name))).toEqual([]);
    for (const name of [
      "process_cpu_seconds_total",
      "nodejs_heap_size_used_bytes",
      "gate_escalations_total",
      "gate_publish_failures_total",
      "gate_model_tokens_total",
      "gate_lookups_total",
    ]) {
      expect(used).toContain(name);
    }
  });

  it("docs/operations.md lists every metric the registry serves, and the README links there", async () => {
    const page = fs.readFileSync(path.join(PACKAGE_ROOT, "docs/operations.md"), "utf8");
    const section = page.slice(page.indexOf("## Metrics"));
    const metrics = await createMetrics().registry.getMetricsAsJSON();
    expect(metrics.length).toBeGreaterThan(30);
    const unlisted = metrics
      .map((m) => m.name)
      .filter((name) => {
        if (section.includes(`\`${name}\``) || section.includes(`\`${name}{`)) return false;
        // A family written once: `nodejs_heap_space_size_*_bytes`, `..._lag_{min,max,...}_seconds`, `(and _total)`.
        const families = [...section.matchAll(/`([a-z_]+)(?:\*|\{[a-z0-9,]+\})([a-z_]*)`/g)];
        if (families.some(([, head = "", tail = ""]) => name.startsWith(head) && name.endsWith(tail))) return false;
        return !(name.endsWith("_total") && section.includes(`\`${name.slice(0, -"_total".length)}\``));
      });
    expect(unlisted).toEqual([]);
    const readme = fs.readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
    expect(readme).toContain("docs/operations.md#metrics");
    expect(readme).toContain("docs/grafana-dashboard.json");
  });
});
