import fs from "node:fs";
import path from "node:path";
import { defaultLicenseRules } from "../../gate-file/effective.js";
import type { DetectContext } from "../../detectors/detector.js";
import { policyRuleDetectors } from "../../detectors/policy-rules.js";
import { GateError } from "../../domain/errors.js";
import type { Finding } from "../../domain/finding.js";
import { parsePullRequest, type PullRequest } from "../../domain/pull-request.js";
import { loadFixturePullRequest, splitFixturePath } from "../../fixture/fixture.js";
import { parsePolicyFile } from "../../policy/load-policies.js";

const MAX_FILES = 5_000;

/** Every regular file under a path (itself, when it is a file), relative paths with `/`. */
function filesUnder(root: string): string[] {
  if (fs.statSync(root).isFile()) return [path.basename(root)];
  return fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.parentPath.split(path.sep).includes("node_modules"))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort()
    .slice(0, MAX_FILES);
}

/** A folder or file on disk as a pull request that adds every file whole. */
function addedWhole(target: string): PullRequest {
  const base = fs.statSync(target).isFile() ? path.dirname(target) : target;
  const files = filesUnder(target).map((rel) => {
    const lines = fs.readFileSync(path.join(base, rel), "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    const patch = [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join("\n");
    return { filename: rel, status: "added", additions: lines.length, deletions: 0, changes: lines.length, patch };
  });
  const pr = {
    number: 1,
    title: `every file of ${target}`,
    user: { login: "gate" },
    base: { ref: "main", sha: "0".repeat(40), repo: { full_name: "local/policy-test" } },
    head: { ref: "policy-test", sha: "1".repeat(40) },
  };
  return parsePullRequest(pr, files);
}

function pullRequestOf(target: string): PullRequest {
  if (!fs.existsSync(target)) throw new GateError("FIXTURE_INVALID", `${target} does not exist`);
  if (fs.existsSync(path.join(target, "pr.json")) && fs.existsSync(path.join(target, "files.json"))) {
    const { fixturesDir, name } = splitFixturePath(target);
    return loadFixturePullRequest(fixturesDir, name);
  }
  return addedWhole(target);
}

/**
 * `gate policies test <policy-file> <fixture-dir | path> [--json]`: runs one policy's ast-grep
 * rules over a fixture's pull request, or over files on disk read as added whole, and prints each
 * finding (`file:line: POLICY: message`). A rule ast-grep refuses is an error naming its line.
 *
 * @example await policyTestCommand(["policies/ACME-01.md", "fixtures/eval/x"], false, io) // 0
 */
export async function policyTestCommand(
  args: readonly string[],
  json: boolean,
  io: { out(text: string): void; err(text: string): void },
): Promise<number> {
  const [file, target, ...extra] = args;
  if (!file || !target || extra.length > 0) {
    io.err("usage: gate policies test <policy-file> <fixture-dir | path> [--json]");
    return 2;
  }
  const policy = parsePolicyFile(file, fs.readFileSync(file, "utf8"));
  const detectors = policyRuleDetectors([policy]);
  if (detectors.length === 0) {
    io.err(`${file}: ${policy.id} has no rules: (rules:) to run`);
    return 2;
  }
  const pr = pullRequestOf(target);
  // A policy's rules read only the changed code: no snapshot, registry or advisory source is needed.
  const ctx: DetectContext = {
    pr,
    head: { read: async () => undefined },
    licenses: { lookup: async () => ({ status: "unknown" }) },
    licenseRules: defaultLicenseRules(),
    notRead: () => undefined,
  };
  const findings: Finding[] = [];
  for (const d of detectors) findings.push(...(await d.detect(ctx)));
  if (json) {
    io.out(
      JSON.stringify(
        findings.map(({ source: _s, detector: _d, ...f }) => f),
        null,
        2,
      ),
    );
    return 0;
  }
  for (const f of findings) io.out(`${f.file}:${f.line}: ${f.policy}${f.blocking ? "" : " (note)"}: ${f.message}`);
  io.out(
    `${findings.length} finding${findings.length === 1 ? "" : "s"} of ${policy.id} in ${pr.files.length} file${pr.files.length === 1 ? "" : "s"}`,
  );
  return 0;
}
