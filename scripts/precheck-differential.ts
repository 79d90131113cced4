// The pre-check differential over a folder of real code: each source file becomes a pull request
// that adds it, every detector runs with its pre-checks and without, and any difference in the
// findings is a pre-check that skipped work which would have found something (docs/development.md).
//
//   node --import tsx scripts/precheck-differential.ts <folder> [--json]
//
// Exits 1 when the findings of any file differ (or a detector throws), 2 on a usage error.
import { statSync } from "node:fs";
import path from "node:path";
import { looksBinary } from "../src/detectors/security/file-kind.js";
import { addedFilesPullRequest } from "./precheck-differential/added-file-pr.js";
import { compareWithoutPrechecks } from "./precheck-differential/compare.js";
import { folderHead } from "./precheck-differential/folder-head.js";
import { MAX_FILE_BYTES, sourceFiles } from "./precheck-differential/source-files.js";

/** How many differing files (and thrown errors) the report lists. */
const SHOWN = 10;

interface Report {
  folder: string;
  files: number;
  lines: number;
  skipped: { too_large: number; binary: number; max_file_bytes: number };
  /** Files the detectors themselves read as binary (control characters), so they skip them. */
  read_as_binary: number;
  findings: { with_prechecks: number; without_prechecks: number };
  differing_files: number;
  differences: Array<{ file: string; differences: string[] }>;
  /** Files on which a detector threw (the first few are listed in `errors`). */
  error_files: number;
  errors: Array<{ file: string; error: string }>;
  cpu_seconds: { with_prechecks: number; without_prechecks: number };
  wall_seconds: number;
}

async function run(root: string, progress: (line: string) => void): Promise<Report> {
  const started = Date.now();
  const head = folderHead(root);
  const report: Report = {
    folder: root,
    files: 0,
    lines: 0,
    skipped: { too_large: 0, binary: 0, max_file_bytes: MAX_FILE_BYTES },
    read_as_binary: 0,
    findings: { with_prechecks: 0, without_prechecks: 0 },
    differing_files: 0,
    differences: [],
    error_files: 0,
    errors: [],
    cpu_seconds: { with_prechecks: 0, without_prechecks: 0 },
    wall_seconds: 0,
  };
  let cpuWith = 0;
  let cpuWithout = 0;
  for (const file of sourceFiles(root)) {
    if (file.kind === "too-large") report.skipped.too_large++;
    if (file.kind === "binary") report.skipped.binary++;
    if (file.kind !== "source") continue;
    const added = [{ path: file.path, text: file.text }];
    report.files++;
    report.lines += addedFilesPullRequest(added).files[0]?.additions ?? 0;
    if (looksBinary(file.text)) report.read_as_binary++;
    try {
      const c = await compareWithoutPrechecks(() => addedFilesPullRequest(added), { head });
      report.findings.with_prechecks += c.withChecks.length;
      report.findings.without_prechecks += c.without.length;
      cpuWith += c.cpuWith;
      cpuWithout += c.cpuWithout;
      if (c.differences.length > 0) {
        report.differing_files++;
        if (report.differences.length < SHOWN) report.differences.push({ file: file.path, differences: c.differences });
        progress(`DIFFERENT ${file.path}: ${c.differences[0]}`);
      }
    } catch (error) {
      report.error_files++;
      if (report.errors.length < SHOWN)
        report.errors.push({ file: file.path, error: error instanceof Error ? error.message : String(error) });
      progress(`ERROR ${file.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (report.files % 1000 === 0) progress(`${report.files} files, ${report.differing_files} differ`);
  }
  report.cpu_seconds = { with_prechecks: cpuWith / 1e6, without_prechecks: cpuWithout / 1e6 };
  report.wall_seconds = (Date.now() - started) / 1000;
  return report;
}

function text(r: Report): string {
  const out = [
    `folder: ${r.folder}`,
    `files: ${r.files} source files read (${r.lines} lines); skipped ${r.skipped.too_large} over ${r.skipped.max_file_bytes} bytes and ${r.skipped.binary} binary`,
    `read as binary by the detectors: ${r.read_as_binary}`,
    `findings: ${r.findings.with_prechecks} with pre-checks, ${r.findings.without_prechecks} without`,
    `files whose findings differ: ${r.differing_files}`,
    ...r.differences.flatMap((d) => [`  ${d.file}`, ...d.differences.slice(0, 5).map((x) => `    ${x}`)]),
    `files on which a detector threw: ${r.error_files}`,
    ...r.errors.map((e) => `  ${e.file}: ${e.error}`),
    `CPU: ${r.cpu_seconds.with_prechecks.toFixed(1)} s with pre-checks, ${r.cpu_seconds.without_prechecks.toFixed(1)} s without (wall ${r.wall_seconds.toFixed(0)} s in all)`,
  ];
  return `${out.join("\n")}\n`;
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  const folder = argv.find((a) => !a.startsWith("--"));
  if (!folder || !statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write("usage: node --import tsx scripts/precheck-differential.ts <folder> [--json]\n");
    return 2;
  }
  const report = await run(path.resolve(folder), (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(json ? `${JSON.stringify(report)}\n` : text(report));
  return report.differing_files > 0 || report.error_files > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`precheck-differential failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 2;
  },
);
