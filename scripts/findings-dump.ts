// Every detector's findings over a PR that adds every source file of some folders, as JSON lines:
// run before and after a change to the detectors' speed, and diff the two outputs (a speed
// shortcut must change no finding; docs/performance.md).
//
//   node --import tsx scripts/findings-dump.ts <folder> [<folder>...] > findings.jsonl
//
// Each folder is read as scripts/precheck-differential.ts reads it (source and configuration
// files, under 512 KB, not binary) and added whole in one PR; a second pass adds each file in a PR
// of its own. Prints one line per finding and one summary line per folder to stderr.
import { addedFilesPullRequest } from "./precheck-differential/added-file-pr.js";
import { detectAll } from "./precheck-differential/compare.js";
import { folderHead } from "./precheck-differential/folder-head.js";
import { sourceFiles } from "./precheck-differential/source-files.js";

async function findings(files: Array<{ path: string; text: string }>, root: string): Promise<unknown[]> {
  const { findings: found, gaps } = await detectAll(() => addedFilesPullRequest(files), { head: folderHead(root) });
  return [...found, ...gaps.map((g) => ({ unread: g }))];
}

for (const root of process.argv.slice(2)) {
  const files: Array<{ path: string; text: string }> = [];
  for (const f of sourceFiles(root)) if (f.kind === "source") files.push({ path: f.path, text: f.text });
  const lines = files.reduce((n, f) => n + f.text.split("\n").length, 0);
  let count = 0;
  for (const f of await findings(files, root)) {
    process.stdout.write(`${JSON.stringify({ root, pass: "whole", finding: f })}\n`);
    count++;
  }
  for (const file of files)
    for (const f of await findings([file], root)) {
      process.stdout.write(`${JSON.stringify({ root, pass: "each", finding: f })}\n`);
      count++;
    }
  process.stderr.write(`${root}: ${files.length} files, ${lines} lines, ${count} findings\n`);
}
