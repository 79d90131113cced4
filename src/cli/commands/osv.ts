import { OSV_EXPORT_URL, SYNCED_ECOSYSTEMS, syncOsvExports } from "../../advisories/osv-export.js";
import { gateEcosystem, osvEcosystem } from "../../advisories/osv-record.js";
import type { Ecosystem } from "../../domain/license-resolver.js";

/** An ecosystem as a person writes it: the gate's name (`pypi`, `cargo`) or OSV's (`PyPI`, `crates.io`). */
function ecosystemNamed(word: string): Ecosystem | undefined {
  const lower = word.trim().toLowerCase();
  return (
    SYNCED_ECOSYSTEMS.find((e) => e === lower || osvEcosystem(e).toLowerCase() === lower) ?? gateEcosystem(word.trim())
  );
}

/**
 * `gate osv sync <dir> [--ecosystem npm,pypi]`: fills a folder for `GATE_OSV_DIR` from OSV's
 * per-ecosystem exports (network needed; `GATE_OSV_EXPORT_URL` points at a mirror). Returns the
 * exit code: 2 for a usage error, 1 when a download failed (the folder then stays as it was).
 */
export async function osvCommand(
  args: readonly string[],
  opts: { ecosystem?: string; exportUrl?: string },
  io: { out(text: string): void; err(text: string): void },
): Promise<number> {
  const [verb, dir, ...extra] = args;
  if (verb !== "sync" || !dir || extra.length > 0) {
    io.err("usage: gate osv sync <dir> [--ecosystem npm,pypi,go,cargo,rubygems,composer]");
    return 2;
  }
  const words = opts.ecosystem ? opts.ecosystem.split(",").filter((w) => w.trim()) : [];
  const ecosystems = words.map(ecosystemNamed);
  const unknown = words.filter((_w, i) => ecosystems[i] === undefined);
  if (unknown.length > 0) {
    io.err(`gate: unknown ecosystem ${unknown.join(", ")}: one of ${SYNCED_ECOSYSTEMS.map(osvEcosystem).join(", ")}`);
    return 2;
  }
  const synced = await syncOsvExports({
    dir,
    ecosystems: words.length > 0 ? (ecosystems as Ecosystem[]) : SYNCED_ECOSYSTEMS,
    baseUrl: opts.exportUrl ?? OSV_EXPORT_URL,
    progress: io.err,
  });
  const total = synced.reduce((n, s) => n + s.records, 0);
  io.out(
    `${total.toLocaleString("en-US")} advisories in ${dir} (${synced.map((s) => s.ecosystem).join(", ")}): set GATE_OSV_DIR=${dir}`,
  );
  return 0;
}
