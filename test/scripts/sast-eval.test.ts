import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "./run-script.js";
import { splitOf } from "../../src/eval/held-split.js";
import type { SastRow } from "../../src/eval/sast-score.js";

const sastEval = (...args: string[]) => runScript("sast-eval.ts", ...args);

describe("scripts/sast-eval.ts", () => {
  const root = mkdtempSync(path.join(tmpdir(), "sast-eval-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const cases = path.join(root, "cases");
  // A stand-in for `gate eval --rules --json <folder>`: it reports, for each fixture folder, the
  // findings written in its findings.json, as the real command prints per_fixture.
  const gate = path.join(root, "fake-gate.mjs");
  writeFileSync(
    gate,
    `import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
const folder = process.argv[process.argv.length - 1];
const per_fixture = readdirSync(folder).map((name) => ({
  fixture: name,
  route: "human",
  findings: JSON.parse(readFileSync(path.join(folder, name, "findings.json"), "utf8")),
}));
console.log(JSON.stringify({ per_fixture }));
`,
  );
  const file = "src/T.java";
  const sql = {
    policy: "SEC-02",
    file,
    line: 3,
    message: "SQL text built from a non-constant value reaches a query call",
  };
  const shell = { policy: "SEC-02", file, line: 5, message: "A shell command built from a non-constant value" };
  // Dev-part ids, so that --misses lists them; and one held id.
  const devIds = Array.from({ length: 60 }, (_, i) => `case-${i}`).filter((id) => splitOf(id) === "dev");
  const heldId = Array.from({ length: 60 }, (_, i) => `held-${i}`).find((id) => splitOf(id) === "held") ?? "";
  const [a = "", b = "", c = "", d = ""] = devIds;
  const write = (id: string, category: string, label: string, findings: unknown[]) => {
    mkdirSync(path.join(cases, id), { recursive: true });
    const kase = { id, suite: "s", language: "java", category, policy: "SEC-02", label, path: file };
    writeFileSync(path.join(cases, id, "case.json"), JSON.stringify(kase));
    writeFileSync(path.join(cases, id, "findings.json"), JSON.stringify(findings));
  };
  write(a, "sqli", "vulnerable", [sql]); // found
  write(b, "sqli", "vulnerable", [shell]); // missed: a shell finding is no SQL hit
  write(c, "sqli", "safe", [sql]); // false alarm
  write(d, "cmdi", "vulnerable", [shell]); // found
  write(heldId, "sqli", "vulnerable", []); // held: missed, never listed

  it("scores each category on its own findings, dev and held apart", async () => {
    const { code, stdout } = await sastEval(cases, "--json", "--gate", gate);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { cases: number; dev: SastRow[]; held: SastRow[] };
    expect(out.cases).toBe(5);
    expect(out.dev.map((r) => [r.category, r.tp, r.vulnerable, r.fp, r.safe])).toEqual([
      ["cmdi", 1, 1, 0, 0],
      ["sqli", 1, 2, 1, 1],
    ]);
    expect(out.dev.find((r) => r.category === "sqli")).toMatchObject({ tpr: 0.5, fpr: 1, score: -0.5 });
    expect(out.held).toEqual([expect.objectContaining({ category: "sqli", cases: 1, tp: 0, tpr: 0 })]);
  });

  it("gives the same figures in batches run side by side, and leaves no batch folder behind", async () => {
    const whole = JSON.parse((await sastEval(cases, "--json", "--gate", gate)).stdout) as { all: SastRow[] };
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith("sast-eval-")).length;
    const batched = await sastEval(cases, "--json", "--gate", gate, "--batch", "2", "--jobs", "2");
    expect(batched.code).toBe(0);
    expect((JSON.parse(batched.stdout) as { all: SastRow[] }).all).toEqual(whole.all);
    expect(batched.stderr).toMatch(/batch-2 of 3 done/);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith("sast-eval-")).length).toBe(before);
  });

  it("--misses lists the dev part's misses and false alarms, never the held part's", async () => {
    const { stderr } = await sastEval(cases, "--misses", "--gate", gate);
    expect(stderr).toContain(`missed ${b} java sqli`);
    expect(stderr).toContain(`false alarm ${c} java sqli`);
    expect(stderr).not.toContain(`missed ${a} `);
    expect(stderr).not.toContain(heldId);
  });

  it("scores real fixes twice: on the file, and on the lines the fix touched", async () => {
    const fixes = path.join(root, "fixes");
    const group = devIds[4] ?? "";
    const put = (label: string, fixLines: number[], findings: unknown[]) => {
      const id = `${group}-${label}`;
      mkdirSync(path.join(fixes, id), { recursive: true });
      const kase = { id, suite: "r", language: "javascript", category: "sqli", policy: "SEC-02", label, path: file };
      writeFileSync(path.join(fixes, id, "case.json"), JSON.stringify({ ...kase, group, fixLines }));
      writeFileSync(path.join(fixes, id, "findings.json"), JSON.stringify(findings));
    };
    // The fix changed line 3, flagged before; the fixed file still splices other SQL at line 30.
    put("vulnerable", [3], [sql]);
    put("safe", [3], [{ ...sql, line: 30 }]);
    const json = await sastEval(fixes, "--json", "--gate", gate);
    const row = (JSON.parse(json.stdout) as { dev: SastRow[] }).dev[0];
    expect(row).toMatchObject({ tp: 1, fp: 1, score: 0 });
    expect(row?.fixLines).toMatchObject({ tp: 1, fp: 0, score: 1 });
    const text = await sastEval(fixes, "--gate", gate, "--misses");
    expect(text.stdout).toMatch(/\+0\.0 {2}\(file\)/);
    expect(text.stdout).toMatch(/\+100\.0 {2}\(fix lines\)/);
    expect(text.stderr).toContain(`false alarm ${group}-safe javascript sqli ${file} (human) fix lines 3; at them: no`);
  });

  it("scores a case whose key is disputed as keyed, and again with it set aside", async () => {
    const keyed = path.join(root, "keyed");
    const put = (id: string, label: string, findings: unknown[], keyDisputed?: string) => {
      mkdirSync(path.join(keyed, id), { recursive: true });
      const kase = { id, suite: "s", language: "python", category: "cmdi", policy: "SEC-02", label, path: file };
      writeFileSync(path.join(keyed, id, "case.json"), JSON.stringify({ ...kase, keyDisputed }));
      writeFileSync(path.join(keyed, id, "findings.json"), JSON.stringify(findings));
    };
    put(a, "vulnerable", [shell]);
    put(b, "vulnerable", [], "bar is only ever a constant");
    put(c, "safe", []);
    const json = JSON.parse((await sastEval(keyed, "--json", "--gate", gate)).stdout) as {
      dev: SastRow[];
      devUndisputed: SastRow[];
      disputed: Array<{ id: string; split: string }>;
    };
    expect(json.dev[0]).toMatchObject({ tp: 1, vulnerable: 2, score: 0.5 });
    expect(json.devUndisputed[0]).toMatchObject({ tp: 1, vulnerable: 1, score: 1 });
    expect(json.disputed).toEqual([{ id: b, split: "dev", why: "bar is only ever a constant" }]);
    const text = await sastEval(keyed, "--gate", gate);
    expect(text.stdout).toContain(`${b} (dev): bar is only ever a constant`);
    expect(text.stdout).toMatch(/dev, disputed keys set aside/);
  });

  it("exits 2 on a usage error", async () => {
    const runs = await Promise.all([
      sastEval(),
      sastEval(cases, "--bogus", "--gate", gate),
      sastEval(cases, "--batch", "0", "--gate", gate),
      sastEval(path.join(root, "nope"), "--gate", gate),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(runs[0]?.stderr).toMatch(/^usage: /m);
  });
});
