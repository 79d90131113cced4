import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PACKAGE_ROOT } from "../src/package-paths.js";
import { startFakeGitHub, type FakeGitHub } from "./fakes/github-api.js";
import { tempDir } from "./helpers/gate.js";
import { githubIngestionErrors, sarifSchemaErrors } from "./helpers/sarif-schema.js";

const run = promisify(execFile);
const dir = tempDir("gate-action-");
const BIN = path.join(PACKAGE_ROOT, "dist/cli/gate.cjs");
const VERSION = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

interface ActionInput {
  description: string;
  default?: string;
}
interface Action {
  runs: { using: string; steps: Array<{ id?: string; shell: string; env: Record<string, string>; run: string }> };
  inputs: Record<string, ActionInput>;
  outputs: Record<string, { value: string }>;
}
const action = parse(fs.readFileSync(path.join(PACKAGE_ROOT, "action.yml"), "utf8")) as Action;

/** GitHub's `${{ inputs.x }}` and `${{ github.x.y }}` expressions, the only ones action.yml uses. */
function evaluate(text: string, contexts: { inputs: Record<string, string>; github: Record<string, unknown> }): string {
  return text.replace(/\$\{\{\s*([a-z_]+)\.([a-z_.-]+)\s*\}\}/g, (_m, ctx: string, key: string) => {
    const root = ctx === "inputs" ? contexts.inputs : ctx === "github" ? contexts.github : undefined;
    if (!root) throw new Error(`action.yml uses the ${ctx} context, which this test does not provide`);
    const value = key.split(".").reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], root);
    return value === undefined || value === null ? "" : String(value);
  });
}

/**
 * `npx` as the runner would resolve it, without the registry: it records the package it was asked
 * to install and runs the built `gate` command with the arguments after `--`.
 */
function fakeNpx(binDir: string, record: string): void {
  fs.mkdirSync(binDir, { recursive: true });
  const script = `#!/usr/bin/env bash
printf '%s\\n' "$@" > ${JSON.stringify(record)}
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
[ "$1" = "gate" ] || { echo "npx: expected the gate command, got $1" >&2; exit 127; }
shift
exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"
`;
  fs.writeFileSync(path.join(binDir, "npx"), script, { mode: 0o755 });
}

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
  for (const [repo, fixture] of [
    ["web", "001_readme_typo"],
    ["docs", "005_readme_typo_with_secret"],
  ] as const) {
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "fixtures", fixture, f), "utf8"));
    github.setPull("acme", repo, 101, { pr: { ...read("pr.json"), number: 101 }, files: read("files.json") });
  }
});
afterAll(async () => {
  await github.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the action's step as the runner would: its env evaluated, its script in bash, from a fresh workspace. */
async function runAction(inputs: Record<string, string>, pullUrl: string) {
  const workspace = fs.mkdtempSync(path.join(dir, "workspace-"));
  const binDir = path.join(workspace, ".bin");
  const record = path.join(workspace, ".npx-args");
  fakeNpx(binDir, record);
  const summaryFile = path.join(workspace, ".step-summary.md");
  const outputFile = path.join(workspace, ".output");
  fs.writeFileSync(summaryFile, "from an earlier step\n");
  const github_ = { token: "ghs_fromtheworkflow", api_url: github.url, event: { pull_request: { html_url: pullUrl } } };
  const resolvedInputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [
      name,
      inputs[name] ?? evaluate(input.default ?? "", { inputs: {}, github: github_ }),
    ]),
  );
  const [step] = action.runs.steps;
  if (!step) throw new Error("action.yml has no step");
  const stepEnv = Object.fromEntries(
    Object.entries(step.env).map(([k, v]) => [k, evaluate(v, { inputs: resolvedInputs, github: github_ })]),
  );
  let code = 0;
  let stderr = "";
  try {
    // As the runner runs a `shell: bash` step: the script in a file, `bash --noprofile --norc -eo pipefail {0}`.
    const script = path.join(workspace, ".step.sh");
    fs.writeFileSync(script, step.run);
    ({ stderr } = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: workspace,
      timeout: 60_000,
      env: {
        PATH: `${binDir}:${process.env.PATH ?? ""}`,
        HOME: workspace,
        GATE_LOG_LEVEL: "silent",
        GATE_GITHUB_RETRIES: "0",
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_OUTPUT: outputFile,
        ...stepEnv,
      },
    }));
  } catch (error) {
    const e = error as { code: number; stderr: string };
    code = e.code;
    stderr = e.stderr;
  }
  return {
    code,
    stderr,
    workspace,
    npxArgs: fs.readFileSync(record, "utf8").trim().split("\n"),
    summary: fs.readFileSync(summaryFile, "utf8"),
    outputs: fs.existsSync(outputFile) ? fs.readFileSync(outputFile, "utf8") : "",
  };
}

describe("action.yml: the composite action runs gate check", { timeout: 120_000 }, () => {
  it("is a composite action with the token, pr, sarif and summary inputs, installing this version", () => {
    expect(fs.existsSync(BIN), `${BIN} is missing: run \`npm run build\``).toBe(true);
    expect(action.runs.using).toBe("composite");
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(["token", "pr", "sarif", "summary"]));
    expect(action.inputs.token?.default).toBe("${{ github.token }}");
    // A release bumps the version the action installs with package.json's (docs/releasing.md).
    expect(action.inputs.version?.default).toBe(VERSION);
    // Inputs reach the script as environment variables only, never pasted into its text.
    expect(action.runs.steps[0]?.run).not.toContain("${{");
  });

  it("passes a clean PR: exit 0, the SARIF in the workspace, the summary added to the job's page", async () => {
    const r = await runAction({}, `https://github.com/acme/web/pull/101`);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.npxArgs.slice(0, 5)).toEqual(["--yes", "--package", `pr-compliance-gate@${VERSION}`, "--", "gate"]);
    expect(r.npxArgs.slice(5)).toEqual([
      "check",
      "https://github.com/acme/web/pull/101",
      "--sarif",
      "compliance-gate.sarif",
      "--summary",
      expect.any(String),
    ]);
    const sarif = JSON.parse(fs.readFileSync(path.join(r.workspace, "compliance-gate.sarif"), "utf8"));
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    expect(githubIngestionErrors(sarif)).toEqual([]);
    expect(r.summary).toMatch(/^from an earlier step\n## compliance-gate: Low risk: approved without review\n/);
    expect(r.outputs).toBe("exit-code=0\nsarif=compliance-gate.sarif\n");
    // The database lived in a temp folder: the workspace holds only what the step wrote.
    expect(
      fs
        .readdirSync(r.workspace)
        .filter((f) => !f.startsWith("."))
        .sort(),
    ).toEqual(["compliance-gate.sarif"]);
  });

  it("fails the step on a PR that waits for a person, with the findings on the job's page", async () => {
    const r = await runAction({ pr: "acme/docs#101", sarif: "out/gate.sarif" }, "");
    expect(r.code).toBe(1);
    expect(r.summary).toContain("## compliance-gate: Waiting for a person");
    expect(r.summary).toContain("| Policy | File | Line | Message |");
    expect(r.outputs).toBe("exit-code=1\nsarif=out/gate.sarif\n");
  });

  it("exits 2 when GitHub answers 500, saying why on the job's page; summary false adds nothing", async () => {
    github.failNext("GET", /\/repos\/acme\/web\/pulls\/101$/, 1, { status: 500 });
    const r = await runAction({ pr: "acme/web#101" }, "");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("GitHub answered 500");
    expect(r.summary).toContain("## compliance-gate: could not review acme/web#101");
    expect(r.outputs).toBe("exit-code=2\n");

    const quiet = await runAction({ pr: "acme/web#101", summary: "false", sarif: "" }, "");
    expect(quiet.code).toBe(0);
    expect(quiet.summary).toBe("from an earlier step\n");
    expect(quiet.npxArgs.slice(5)).toEqual(["check", "acme/web#101"]);
  });
});
