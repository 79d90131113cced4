// SEC-02 and SEC-05 measured the way SAST tools are: per suite, language and category, the
// true-positive rate, the false-positive rate and TPR − FPR, on the part used while building (dev)
// and on the third held aside (held), reported apart (docs/eval.md).
//
//   npm run build && node --import tsx scripts/sast-eval.ts <cases-folder> [--json] [--misses]
//        [--batch <cases per process>] [--jobs <processes at once>] [--gate <gate.cjs>]
//
// A case is a fixture folder with a case.json beside it (scripts/sast-suite.ts and
// scripts/real-js-suite.ts write them): { id, suite, language, category, policy, label:
// "vulnerable" | "safe", cwe, path, group?, fixLines?, keyDisputed? }. Each is reviewed by the shipped command (`gate eval
// --rules --json`), in one process by default (2,358 cases: 4½ to 8 minutes on two CPUs, 350 MB),
// or with --batch in batches of folders copied to a temporary place, --jobs of them at once; and
// flagged only when a finding of its category's policy says what the category is about
// (src/eval/sast-score.ts). A real fix (its case.json names `fixLines`) is scored twice: on the
// file, and on the lines the fix touched (a finding within FIX_WINDOW lines of them). A case is
// held aside when the first byte of sha256(group or id) is 0 mod 3. `--misses` lists the dev
// part's misses and false alarms (never the held part's). Exits 2 on a usage error, 1 when the
// gate gave no report.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import {
  type Rates,
  SAST_CATEGORIES,
  type SastRow,
  type ScoredCase,
  sastTable,
  scoreCase,
} from "../src/eval/sast-score.js";
import type { FixtureFinding } from "../src/eval/score.js";

const CaseSchema = z.object({
  id: z.string(),
  suite: z.string(),
  language: z.string(),
  category: z.string(),
  policy: z.string(),
  label: z.enum(["vulnerable", "safe"]),
  cwe: z.number().optional(),
  path: z.string(),
  group: z.string().optional(),
  fixLines: z.array(z.number()).optional(),
  keyDisputed: z.string().optional(),
});
const FindingSchema = z.object({
  policy: z.string(),
  file: z.string().optional(),
  line: z.number().optional(),
  message: z.string(),
});
const EvalSchema = z.object({
  per_fixture: z.array(
    z.object({
      fixture: z.string(),
      route: z.string().nullable(),
      findings: z.array(FindingSchema),
      error: z.string().optional(),
    }),
  ),
});
type Reviewed = z.infer<typeof EvalSchema>["per_fixture"][number];

const USAGE =
  "usage: node --import tsx scripts/sast-eval.ts <cases-folder> [--json] [--misses] [--batch <n>] [--jobs <n>] [--gate <gate.cjs>]";

/** Runs `gate eval --rules --json` on one folder of fixtures; resolves with its per-fixture results. */
function evalFolder(gate: string, folder: string): Promise<Reviewed[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [gate, "eval", "--rules", "--json", folder], {
      env: { ...process.env, GATE_LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => {
      err = (err + b.toString("utf8")).slice(-4000);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const text = Buffer.concat(out).toString("utf8");
      if (text.trim() === "") reject(new Error(`gate eval printed nothing (exit ${code}): ${err.slice(-2000)}`));
      else resolve(EvalSchema.parse(JSON.parse(text)).per_fixture);
    });
  });
}

/** Reviews every case folder: in one process, or in batches copied to temporary folders, `jobs` at a time. */
async function review(gate: string, folder: string, ids: string[], batch: number, jobs: number) {
  if (ids.length <= batch) return evalFolder(gate, folder);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "sast-eval-"));
  try {
    const batches: string[] = [];
    for (let i = 0; i < ids.length; i += batch) {
      const dir = path.join(tmp, `batch-${batches.length}`);
      for (const id of ids.slice(i, i + batch)) cpSync(path.join(folder, id), path.join(dir, id), { recursive: true });
      batches.push(dir);
    }
    const results: Reviewed[] = [];
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const dir = batches[next++];
        if (dir === undefined) break;
        results.push(...(await evalFolder(gate, dir)));
        console.error(`sast-eval: ${path.basename(dir)} of ${batches.length} done`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(jobs, batches.length) }, worker));
    return results;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const pct = (x: number | null) => (x === null ? "   n/a" : `${(100 * x).toFixed(1).padStart(5)}%`);
const signed = (x: number | null) =>
  x === null ? "   n/a" : `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}`.padStart(6);

function print(part: string, rows: readonly SastRow[]): void {
  console.log(
    `\n${part}: suite                   language   category policy  cases  vuln  safe   TP   FP     TPR     FPR  TPR-FPR`,
  );
  const line = (r: SastRow, scope: string, x: Rates) =>
    console.log(
      `     ${r.suite.padEnd(23)} ${r.language.padEnd(10)} ${r.category.padEnd(8)} ${r.policy.padEnd(7)} ${String(x.cases).padStart(5)} ${String(x.vulnerable).padStart(5)} ${String(x.safe).padStart(5)} ${String(x.tp).padStart(4)} ${String(x.fp).padStart(4)}  ${pct(x.tpr)}  ${pct(x.fpr)}   ${signed(x.score)}${scope}`,
    );
  for (const r of rows) {
    line(r, r.fixLines ? "  (file)" : "", r);
    // Real fixes: the same cases scored on the lines each fix touched (src/eval/sast-score.ts, FIX_WINDOW).
    if (r.fixLines) line(r, "  (fix lines)", r.fixLines);
  }
}

function numberFlag(args: string[], flag: string, fallback: number): number | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return fallback;
  const n = Number(args[i + 1]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const valued = new Set(["--batch", "--jobs", "--gate"]);
  const positional = args.filter((a, i) => !a.startsWith("--") && !valued.has(args[i - 1] ?? ""));
  const known = new Set(["--json", "--misses", ...valued]);
  const batch = numberFlag(args, "--batch", 5000);
  const jobs = numberFlag(args, "--jobs", 1);
  const gateAt = args.indexOf("--gate");
  const here = path.dirname(fileURLToPath(import.meta.url));
  const gate = gateAt >= 0 ? args[gateAt + 1] : path.join(here, "..", "dist", "cli", "gate.cjs");
  const folder = positional[0];
  const bad = args.filter((a) => a.startsWith("--") && !known.has(a));
  if (!folder || positional.length > 1 || !existsSync(folder) || bad.length > 0 || !batch || !jobs || !gate) {
    console.error(USAGE);
    return 2;
  }
  if (!existsSync(gate)) {
    console.error(`${gate} does not exist: run npm run build first`);
    return 2;
  }
  const cases = readdirSync(folder)
    .sort()
    .filter((id) => existsSync(path.join(folder, id, "case.json")))
    .map((id) => ({
      dir: id,
      kase: CaseSchema.parse(JSON.parse(readFileSync(path.join(folder, id, "case.json"), "utf8"))),
    }));
  const unknown = [...new Set(cases.map((c) => c.kase.category).filter((c) => !(c in SAST_CATEGORIES)))];
  if (cases.length === 0 || unknown.length > 0) {
    console.error(
      cases.length === 0 ? `${folder}: no case folder (with a case.json)` : `unknown categories: ${unknown.join(", ")}`,
    );
    console.error(USAGE);
    return 2;
  }
  const started = Date.now();
  const reviewed = await review(
    gate,
    folder,
    cases.map((c) => c.dir),
    batch,
    jobs,
  );
  const seconds = (Date.now() - started) / 1000;
  const byFixture = new Map(reviewed.map((f) => [path.basename(f.fixture), f]));
  const scored: (ScoredCase & { route: string | null; policyFindings: FixtureFinding[] })[] = [];
  let errors = 0;
  for (const { dir, kase } of cases) {
    const result = byFixture.get(dir);
    if (!result || result.error !== undefined) {
      errors++;
      console.error(`${dir}: ${result ? `not reviewed: ${result.error}` : "gate eval has no result for it"}: left out`);
      continue;
    }
    scored.push({
      ...scoreCase(kase, result.findings),
      route: result.route,
      policyFindings: result.findings.filter((f) => f.policy === kase.policy),
    });
  }
  const dev = scored.filter((c) => c.split === "dev");
  const held = scored.filter((c) => c.split === "held");
  const out = {
    cases: scored.length,
    errors,
    seconds,
    dev: sastTable(dev),
    held: sastTable(held),
    all: sastTable(scored),
    // The same with the cases whose key a mechanical rule disputes set aside (SastCase.keyDisputed).
    disputed: scored
      .filter((c) => c.keyDisputed !== undefined)
      .map((c) => ({ id: c.id, split: c.split, why: c.keyDisputed })),
    devUndisputed: sastTable(dev.filter((c) => c.keyDisputed === undefined)),
    heldUndisputed: sastTable(held.filter((c) => c.keyDisputed === undefined)),
  };
  if (args.includes("--json")) console.log(JSON.stringify(out, null, 2));
  else {
    console.log(
      `${scored.length} cases reviewed in ${seconds.toFixed(0)} s${errors > 0 ? `, ${errors} left out` : ""}`,
    );
    print("dev", out.dev);
    print("held", out.held);
    if (out.disputed.length > 0) {
      console.log(`\n${out.disputed.length} cases whose key is disputed, set aside below (scored as keyed above):`);
      for (const d of out.disputed) console.log(`     ${d.id} (${d.split}): ${d.why}`);
      print("dev, disputed keys set aside", out.devUndisputed);
      print("held, disputed keys set aside", out.heldUndisputed);
    }
  }
  if (args.includes("--misses")) {
    // A vulnerable case found in its file but not at the lines its fix changed is listed too.
    const missedAtFix = (x: (typeof dev)[number]) =>
      x.label === "vulnerable" && x.flagged && x.fixLines && !x.flaggedAtFix;
    for (const c of dev.filter((x) => (x.label === "vulnerable") !== x.flagged || missedAtFix(x))) {
      const shown = c.flagged ? c.hits : c.policyFindings;
      const why = shown.map((f) => `\n    ${f.policy} line ${f.line ?? "-"}: ${f.message.slice(0, 160)}`).join("");
      console.error(
        `${c.label === "vulnerable" ? (c.flagged ? "missed at the fix lines" : "missed") : "false alarm"} ${c.id} ${c.language} ${c.category} ${c.path} (${c.route})${c.fixLines ? ` fix lines ${c.fixLines.join(",")}; at them: ${c.flaggedAtFix ? "yes" : "no"}` : ""}${why}`,
      );
    }
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
