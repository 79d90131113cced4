// SEC-01 on a corpus of real commits, by format: recall and precision per format, on the part
// used while building (dev) and on the third held aside (held), reported apart (docs/eval.md).
//
//   npm run build && node --import tsx scripts/secrets-eval.ts <cases-folder> [--json] [--misses]
//
// A case is a fixture folder (pr.json, files.json, repo/, expected.json) with a case.json beside
// it: { id, repo, commit, path, format, label: "secret" | "clean", direction, secret_lines, why }.
// Each is reviewed by the shipped command (`gate eval --rules --json`), so the figure is the
// gate's, route and all. A case is held aside when the first byte of sha256(id) is 0 mod 3.
// `--misses` lists the dev part's misses (never the held part's). Exits 2 on a usage error.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { splitOf } from "../src/eval/held-split.js";

const CaseSchema = z.object({
  id: z.string(),
  repo: z.string(),
  commit: z.string(),
  path: z.string(),
  format: z.string(),
  label: z.enum(["secret", "clean"]),
});
const EvalSchema = z.object({
  per_fixture: z.array(z.object({ fixture: z.string(), cited: z.array(z.string()), route: z.string().nullable() })),
});

type Case = z.infer<typeof CaseSchema> & { split: "dev" | "held"; cited: boolean; route: string | null };

interface Counts {
  secret: number;
  clean: number;
  tp: number;
  fp: number;
  recall: number | null;
  precision: number | null;
  /** Secret cases the gate passed (approved or auto-approved): the number that must be 0. */
  unsafe_passes: number;
}

function counts(cases: readonly Case[]): Counts {
  const secret = cases.filter((c) => c.label === "secret");
  const tp = secret.filter((c) => c.cited).length;
  const fp = cases.filter((c) => c.label === "clean" && c.cited).length;
  return {
    secret: secret.length,
    clean: cases.length - secret.length,
    tp,
    fp,
    recall: secret.length === 0 ? null : tp / secret.length,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    unsafe_passes: secret.filter((c) => c.route === "approved" || c.route === "auto_approved").length,
  };
}

function table(cases: readonly Case[]): Record<string, Counts> {
  const formats = [...new Set(cases.map((c) => c.format))].sort();
  return Object.fromEntries([
    ...formats.map((f) => [f, counts(cases.filter((c) => c.format === f))]),
    ["all", counts(cases)],
  ]);
}

const pct = (x: number | null) => (x === null ? "  n/a" : `${(100 * x).toFixed(1).padStart(5)}%`);

function main(): number {
  const args = process.argv.slice(2);
  const folder = args.find((a) => !a.startsWith("--"));
  if (!folder || !existsSync(folder)) {
    console.error("usage: node --import tsx scripts/secrets-eval.ts <cases-folder> [--json] [--misses]");
    return 2;
  }
  const gate = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli", "gate.cjs");
  const run = spawnSync(process.execPath, [gate, "eval", "--rules", "--json", folder], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GATE_LOG_LEVEL: "silent" },
  });
  if (run.stdout.trim() === "") {
    console.error(`gate eval printed nothing (exit ${run.status}): ${run.stderr.slice(-2000)}`);
    return 1;
  }
  const report = EvalSchema.parse(JSON.parse(run.stdout));
  const byFixture = new Map(report.per_fixture.map((f) => [path.basename(f.fixture), f]));
  const cases: Case[] = [];
  for (const id of readdirSync(folder).sort()) {
    const file = path.join(folder, id, "case.json");
    if (!existsSync(file)) continue;
    const c = CaseSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    const result = byFixture.get(id);
    if (!result) {
      console.error(`${id}: gate eval has no result for it (a folder without expected.json?): left out`);
      continue;
    }
    cases.push({ ...c, split: splitOf(c.id), cited: result.cited.includes("SEC-01"), route: result.route });
  }
  const dev = cases.filter((c) => c.split === "dev");
  const held = cases.filter((c) => c.split === "held");
  const out = {
    cases: cases.length,
    repositories: new Set(cases.map((c) => c.repo)).size,
    dev: table(dev),
    held: table(held),
    all: table(cases),
  };
  if (args.includes("--json")) console.log(JSON.stringify(out, null, 2));
  else {
    for (const part of ["dev", "held", "all"] as const) {
      console.log(`\n${part}: format       secret clean   recall precision unsafe`);
      for (const [format, c] of Object.entries(out[part])) {
        console.log(
          `     ${format.padEnd(12)} ${String(c.secret).padStart(6)} ${String(c.clean).padStart(5)}   ${pct(c.recall)}    ${pct(c.precision)}  ${c.unsafe_passes}`,
        );
      }
    }
  }
  if (args.includes("--misses")) {
    for (const c of dev.filter((x) => (x.label === "secret") !== x.cited)) {
      console.error(`${c.label === "secret" ? "missed" : "false alarm"} ${c.id} ${c.format} ${c.path} (${c.route})`);
    }
  }
  return 0;
}

process.exitCode = main();
