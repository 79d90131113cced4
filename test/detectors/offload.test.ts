import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { syntheticPrJson } from "../../bench/synthetic.js";
import { buildGate } from "../../src/build-gate.js";
import { ALL_DETECTORS } from "../../src/detectors/index.js";
import {
  CHUNK_BYTES,
  detectionPool,
  isLargeChange,
  LARGE_CHANGE_FILES,
} from "../../src/detectors/offload/detect-pool.js";
import { EventEmitter } from "node:events";
import { parsePullRequest } from "../../src/domain/pull-request.js";
import { Answers } from "../../src/domain/turns.js";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { defaultLicenseRules } from "../../src/gate-file/effective.js";
import { loadSettings } from "../../src/settings/index.js";
import { lowerThisThreadsPriority, WORKER_NICENESS } from "../../src/worker-priority.js";
import { defined } from "../helpers/defined.js";
import { detectContext } from "./pr-builder.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-offload-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const read = (fixture: string, file: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, fixture, file), "utf8"));

/** The changed files of two fixtures: an AWS key (SEC-01) and a SQL injection (SEC-02). */
const riskyFiles = (): Array<{ filename: string }> => [
  ...(read("004_hardcoded_aws_key", "files.json") as Array<{ filename: string }>),
  ...(read("006_sql_injection", "files.json") as Array<{ filename: string }>),
];

/** A large change: 300 files of ordinary code, with an AWS key and a SQL injection among them. */
function writeLargeRiskyFixture(): string {
  const name = "large-risky";
  const { pr, files } = syntheticPrJson({ files: 300, linesPerFile: 20, number: 9 });
  const risky = riskyFiles();
  fs.mkdirSync(path.join(dir, name), { recursive: true });
  fs.writeFileSync(path.join(dir, name, "pr.json"), JSON.stringify(pr));
  fs.writeFileSync(
    path.join(dir, name, "files.json"),
    JSON.stringify([...files.slice(0, 150), ...risky, ...files.slice(150)]),
  );
  return name;
}

/** Every log line the gates wrote. */
const lines: Array<{ msg?: string }> = [];
const log = pino({ level: "warn" }, { write: (line: string) => void lines.push(JSON.parse(line)) });

async function review(workers: number, fixture: string, env: Record<string, string> = {}) {
  const gate = await buildGate(
    loadSettings(
      {
        GATE_DB: path.join(dir, `w${workers}-${fixture}.db`),
        GATE_DATA_DIR: dir,
        GATE_WORKERS: String(workers),
        ...env,
      },
      dir,
    ),
    log,
  );
  try {
    const r = await gate.runner.register({
      source: { kind: "fixture", fixturesDir: dir, name: fixture },
      repo: "bench/service",
      number: 9,
      headSha: `00000009${"a".repeat(32)}`,
    });
    return await gate.runner.run(r.id);
  } finally {
    await gate.close();
  }
}

describe("detection of large changes on a worker thread", { timeout: 120_000 }, () => {
  it("a change of 200 files or 1 MB of patches is large; a small one is not", () => {
    const { pr, files } = syntheticPrJson({ files: LARGE_CHANGE_FILES, linesPerFile: 2 });
    expect(isLargeChange(parsePullRequest(pr, files))).toBe(true);
    expect(isLargeChange(parsePullRequest(pr, files.slice(1)))).toBe(false);
    const one = { ...files[0], patch: `@@ -0,0 +1,1 @@\n+${"x".repeat(1024 * 1024)}` };
    expect(isLargeChange(parsePullRequest(pr, [one]))).toBe(true);
  });

  it("finds on the worker exactly what it finds in-thread: the same findings, route and coverage", async () => {
    const fixture = writeLargeRiskyFixture();
    const [inThread, onWorker] = [await review(0, fixture), await review(1, fixture)];
    const policies = (r: typeof inThread) => r.findings.map((f) => `${f.policy} ${f.file}:${f.line}`).sort();
    expect(policies(inThread)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^SEC-01 /), expect.stringMatching(/^SEC-02 /)]),
    );
    expect(policies(onWorker)).toEqual(policies(inThread));
    expect(onWorker.route).toBe(inThread.route);
    expect(onWorker.findings).toEqual(inThread.findings);
    // The worker took the change (it did not fail over to in-thread detection).
    expect(lines.filter((l) => /detection worker|detecting in-thread/.test(l.msg ?? ""))).toEqual([]);
  });

  it("a job over GATE_DETECT_TIMEOUT_MS stops its worker and hands the review to a person; it is not detected in-thread", async () => {
    const name = "large-plain";
    const { pr, files } = syntheticPrJson({ files: 300, linesPerFile: 20, number: 9 });
    fs.mkdirSync(path.join(dir, name), { recursive: true });
    fs.writeFileSync(path.join(dir, name, "pr.json"), JSON.stringify(pr));
    fs.writeFileSync(path.join(dir, name, "files.json"), JSON.stringify(files));
    // Without a limit this change is approved (its code is ordinary); 1 ms is too little for any worker.
    expect((await review(1, name)).route).toBe("approved");
    lines.length = 0;
    const late = await review(1, name, { GATE_DETECT_TIMEOUT_MS: "1" });
    expect(late.route).not.toBe("approved");
    expect(late.status).toBe("waiting_for_human");
    expect(late.escalation?.reason).toBe("not_fully_reviewed");
    expect(late.escalation?.detail).toMatch(
      /detector credentials \(SEC-01; out of time, GATE_DETECT_TIMEOUT_MS\) failed/,
    );
    expect(late.findings).toEqual([]);
    expect(lines.map((l) => l.msg)).toContain("a detection job ran out of time; its worker is stopped");
    expect(lines.filter((l) => /detecting in-thread/.test(l.msg ?? ""))).toEqual([]);
  });
});

/** The nice value of each thread of this process, by thread id (Linux: /proc/self/task). */
function threadNiceness(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync("/proc/self/task")) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}

describe("the detection worker's priority", { timeout: 60_000 }, () => {
  it("runs below the answering thread on Linux, and leaves the priority alone elsewhere", async () => {
    const mine = os.getPriority(0);
    expect(lowerThisThreadsPriority("darwin")).toBeUndefined();
    expect(os.getPriority(0)).toBe(mine);
    if (process.platform !== "linux") return;
    const before = threadNiceness();
    const pool = defined(detectionPool(1, pino({ level: "silent" })));
    try {
      const { pr, files } = syntheticPrJson({ files: 2, linesPerFile: 2 });
      const ctx = {
        pr: parsePullRequest(pr, files),
        head: { read: async () => undefined },
        licenses: { lookup: async () => ({ status: "unknown" as const }) },
        licenseRules: defaultLicenseRules(),
        notRead: () => undefined,
      };
      await pool.detect(ctx, ["credentials"]);
      const started = [...threadNiceness()].filter(([tid]) => !before.has(tid));
      // The worker's own thread is the one at the lowered priority; this thread stays where it was.
      expect(started.map(([, nice]) => nice)).toContain(WORKER_NICENESS);
      expect(threadNiceness().get(process.pid)).toBe(before.get(process.pid));
    } finally {
      await pool.close();
    }
  });
});

describe("the detection worker and the answering thread", { timeout: 60_000 }, () => {
  it("steps aside while requests are answered, and finds the same as when none are", async () => {
    const { pr, files } = syntheticPrJson({ files: 300, linesPerFile: 20, number: 9 });
    const change = parsePullRequest(pr, [...files.slice(0, 150), ...riskyFiles(), ...files.slice(150)]);
    const context = () => detectContext(change, { notRead: [] });
    const ids = ["credentials", "injection", "pii-logging"];
    const logged: Array<{ msg?: string; steppedAsideMs?: number }> = [];
    const debug = pino({ level: "debug" }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const detect = async (answering: boolean) => {
      const answers = new Answers();
      const answer = new EventEmitter();
      // A request being answered for the whole job (one that never ends: the job's pauses are bounded).
      if (answering) answers.track(answer);
      const pool = defined(detectionPool(1, debug, 60_000, answers));
      try {
        return await pool.detect(context(), ids);
      } finally {
        answer.emit("finish");
        await pool.close();
      }
    };
    const alone = await detect(false);
    expect(logged.filter((l) => l.msg === "a detection job stepped aside while requests were answered")).toEqual([]);
    const beside = await detect(true);
    const aside = logged.filter((l) => l.msg === "a detection job stepped aside while requests were answered");
    expect(aside).toHaveLength(1);
    expect(aside[0]?.steppedAsideMs).toBeGreaterThan(0);
    const found = (outcomes: typeof alone) =>
      outcomes.flatMap((o) => ("findings" in o ? o.findings.map((f) => `${f.policy} ${f.file}:${f.line}`) : [o.error]));
    expect(found(alone)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^SEC-01 /), expect.stringMatching(/^SEC-02 /)]),
    );
    expect(found(beside)).toEqual(found(alone));
  });
});

describe("a large change sent to the worker in pieces", { timeout: 60_000 }, () => {
  it("arrives whole and in order: the worker finds what the detectors find here, file for file", async () => {
    const { pr, files } = syntheticPrJson({ files: 1_200, linesPerFile: 20, number: 9 });
    const risky = riskyFiles();
    // Risky files in the first piece, in the middle and last, so a piece lost or reordered shows.
    const all = [
      ...risky,
      ...files.slice(0, 600),
      ...risky.map((f) => ({ ...f, filename: `mid/${f.filename}` })),
      ...files.slice(600),
      ...risky.map((f) => ({ ...f, filename: `end/${f.filename}` })),
    ];
    const change = parsePullRequest(pr, all);
    const bytes = change.files.reduce((n, f) => n + (f.patch?.length ?? 0), 0);
    expect(bytes).toBeGreaterThan(3 * CHUNK_BYTES);
    const unread: Array<Array<{ file: string; detail: string }>> = [[], []];
    const context = (side: 0 | 1) => detectContext(change, { notRead: unread[side] });
    const ids = ALL_DETECTORS.map((d) => d.id);
    const pool = defined(detectionPool(1, pino({ level: "silent" })));
    let onWorker: Awaited<ReturnType<typeof pool.detect>>;
    try {
      onWorker = await pool.detect(context(0), ids);
    } finally {
      await pool.close();
    }
    const here = await Promise.all(
      ALL_DETECTORS.map(async (d) => ({ detector: d.id, findings: await d.detect(context(1)) })),
    );
    expect(onWorker).toEqual(here);
    const found = here.flatMap((o) => o.findings.map((f) => f.file));
    expect(found).toEqual(expect.arrayContaining([expect.stringMatching(/^mid\//), expect.stringMatching(/^end\//)]));
    expect(unread[0]).toEqual(unread[1]);
  });
});
