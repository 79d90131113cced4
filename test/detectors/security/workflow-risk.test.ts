import { describe, expect, it } from "vitest";
import { workflowRiskDetector } from "../../../src/detectors/security/workflow-risk.js";
import { addedFilePatch, buildPr, detectContext, headFiles } from "../pr-builder.js";

const PATH = ".github/workflows/ci.yml";

const PRT_WORKFLOW = [
  "name: PR checks", // 1
  "on:", // 2
  "  pull_request_target:", // 3
  "    types: [opened, synchronize]", // 4
  "jobs:", // 5
  "  test:", // 6
  "    runs-on: ubuntu-latest", // 7
  "    steps:", // 8
  "      - uses: actions/checkout@v4", // 9
  "        with:", // 10
  "          ref: ${{ github.event.pull_request.head.sha }}", // 11
  "      - run: npm install", // 12
  "      - run: npm test", // 13
  "        env:", // 14
  "          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}", // 15
  "  label:", // 16
  "    runs-on: ubuntu-latest", // 17
  "    steps:", // 18
  "      - uses: actions/labeler@v5", // 19
];

async function detect(lines: string[], options: { head?: boolean; patch?: string } = {}) {
  const patch = options.patch ?? addedFilePatch(lines);
  const pr = buildPr({ files: [{ filename: PATH, patch }] });
  const head = options.head === false ? headFiles() : headFiles({ [PATH]: lines.join("\n") });
  return workflowRiskDetector.detect(detectContext(pr, { head }));
}

describe("workflowRiskDetector", () => {
  it("flags pull_request_target + checkout of the PR head as critical, and its secrets as high", async () => {
    const findings = await detect(PRT_WORKFLOW);
    expect(findings.map((f) => [f.severity, f.line])).toEqual([
      ["critical", 11],
      ["high", 15],
    ]);
    for (const f of findings) expect(f).toMatchObject({ policy: "SEC-04", blocking: true, detector: "workflow-risk" });
    expect(findings[0]?.message).toContain("pull_request_target");
    expect(findings[0]?.message).toContain("npm install");
    expect(findings[1]?.message).toContain("secrets.NPM_TOKEN");
  });

  it("falls back to the added lines when the head file is unavailable", async () => {
    const findings = await detect(PRT_WORKFLOW, { head: false });
    expect(findings.map((f) => [f.severity, f.line])).toEqual([
      ["critical", 11],
      ["high", 15],
    ]);
  });

  it("does not flag pull_request workflows or a privileged workflow that checks out the base", async () => {
    const onPullRequest = PRT_WORKFLOW.map((l) => l.replace("pull_request_target", "pull_request"));
    expect(await detect(onPullRequest)).toEqual([]);
    const baseOnly = PRT_WORKFLOW.filter((_, i) => i !== 9 && i !== 10);
    expect(await detect(baseOnly)).toEqual([]);
  });

  it("flags workflow_run jobs that run the triggering branch", async () => {
    const lines = [
      "on:",
      "  workflow_run:",
      "    workflows: [CI]",
      "    types: [completed]",
      "jobs:",
      "  deploy:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - run: gh pr checkout ${{ github.event.workflow_run.pull_requests[0].number }} && make deploy",
    ];
    const findings = await detect(lines);
    expect(findings.map((f) => [f.severity, f.line])).toEqual([["critical", 9]]);
  });

  it("flags unpinned third-party actions but allows actions/* tags and SHA pins", async () => {
    const lines = [
      "on: push",
      "jobs:",
      "  build:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "      - uses: acme/deploy-action@v2",
      "      - uses: acme/deploy-action@8f4b7f84864484a7bf31766abe9204da3cbe65b3",
      "      - uses: ./.github/actions/local",
      "      - uses: docker://alpine:3.20",
      "      - uses: someone/thing@main",
    ];
    const findings = await detect(lines);
    expect(findings.map((f) => [f.severity, f.line])).toEqual([
      ["high", 7],
      ["high", 11],
    ]);
    expect(findings[0]?.message).toContain("acme/deploy-action@v2");
  });

  it("flags curl | sh and untrusted event text in run scripts", async () => {
    const lines = [
      "on: pull_request",
      "jobs:",
      "  x:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - run: curl -sSL https://get.example.com/install.sh | sudo bash",
      "      - run: |",
      '          echo "Title: ${{ github.event.pull_request.title }}"',
      "      - env:",
      "          TITLE: ${{ github.event.pull_request.title }}",
      '        run: echo "$TITLE"',
    ];
    const findings = await detect(lines);
    expect(findings.map((f) => [f.severity, f.line])).toEqual([
      ["high", 6],
      ["high", 8],
    ]);
  });

  it("counts only risks on lines the PR added (or jobs it changed)", async () => {
    const lines = [...PRT_WORKFLOW];
    lines[18] = "      - uses: acme/labeler@v1";
    // Only the label job's runs-on line changes: the test job's pre-existing risks stay out.
    const patch = [
      "@@ -16,3 +16,3 @@",
      "   label:",
      "-    runs-on: ubuntu-22.04",
      "+    runs-on: ubuntu-latest",
      "     steps:",
    ].join("\n");
    const findings = await detect(lines, { patch });
    expect(findings).toEqual([]);
  });

  it("ignores files outside .github/workflows, removed workflows and malformed YAML", async () => {
    const pr = buildPr({
      files: [
        { filename: "ci/pipeline.yml", patch: addedFilePatch(PRT_WORKFLOW) },
        { filename: ".github/workflows/old.yml", status: "removed", patch: "@@ -1 +0,0 @@\n-on: pull_request_target" },
        { filename: ".github/workflows/bad.yml", patch: addedFilePatch(["on: [push", "jobs: {{{"]) },
      ],
    });
    expect(await workflowRiskDetector.detect(detectContext(pr))).toEqual([]);
  });
});
