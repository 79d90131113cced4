import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhooks } from "@octokit/webhooks";
import Database from "better-sqlite3";
import { pullRequestEvent } from "../test/server/helpers.js";
import { rawTarball, startFakeGitHub, type FakeGitHub } from "../test/fakes/github-api.js";
import { burst, p99, signedDelivery } from "./burst.js";
import { BENCH_DIR, ROOT, TSX } from "./child-process.js";
import { startProcess, stop } from "./server-bench.js";
import { type Figure, paired, pairedFigure } from "./stats.js";
import { syntheticPrJson } from "./synthetic.js";

/** The webhook secret the bench's server checks (server-bench.ts uses the same). */
const SECRET = "bench-webhook-secret";
/** Deliveries sent at once in each burst, and the pause between bursts. */
const BURST = 10;
const PAUSE_MS = 150;

/** Serves a PR of `files` added TypeScript files as `owner/repo#number`, its base commit carrying `config` as .github/gate.yml. */
function serveHeavy(gh: FakeGitHub, repo: string, number: number, files: number, config?: string) {
  const { pr, files: list } = syntheticPrJson({ files, linesPerFile: 20, number });
  const sha = `${String(number).padStart(8, "0")}${"c".repeat(32)}`;
  gh.setInstallation("bench", repo, 1);
  gh.setPull("bench", repo, number, {
    pr: {
      ...pr,
      head: { ...pr.head, sha },
      base: { ...pr.base, repo: { full_name: `bench/${repo}` } },
      html_url: `https://github.com/bench/${repo}/pull/${number}`,
      changed_files: files,
    },
    files: list,
  });
  const top = `bench-${repo}-${sha.slice(0, 7)}`;
  gh.setTarball("bench", repo, sha, rawTarball([{ path: `${top}/`, type: "Directory" }]));
  if (config) gh.setContent("bench", repo, pr.base.sha, ".github/gate.yml", config);
  return { number, sha };
}

/** A valid configuration file of about 1 MB (many exceptions): refused by the size cap before it is parsed. */
function megabyteConfig(): string {
  const lines = ["version: 1", "exceptions:"];
  for (let i = 0; lines.length * 40 < 1024 * 1024; i++)
    lines.push(
      "  - policy: LIC-02",
      `    package: vendored-${i}@^1`,
      "    reason: reviewed",
      '    granted_by: "@legal"',
      "    expires: 2099-01-01",
    );
  return `${lines.join("\n")}\n`;
}

/**
 * Webhook-ack p99 while a heavy review runs (a 3,000-file PR, and a PR of a repository whose
 * base branch holds a 1 MB .github/gate.yml) against the same with nothing to review, on the
 * built server in its own process: bursts of 10 signed `pull_request.closed` deliveries (stored,
 * each a cheap job), 150 ms apart, for as long as the heavy reviews run (idle: 8 bursts), sent and
 * timed by a process of their own. 9 pairs: the p99 of about 70 answers is nearly their maximum,
 * so one round says little. The goal is at most 1.5x.
 */
export async function heavyAckFigure(runs = 9): Promise<Figure> {
  const gh = await startFakeGitHub();
  const dir = mkdtempSync(path.join(tmpdir(), "gate-bench-heavy-"));
  let child: Awaited<ReturnType<typeof startProcess>>["child"] | undefined;
  let prober: Prober | undefined;
  try {
    const server = await startProcess(
      [path.join(ROOT, "dist/main.js")],
      {
        PATH: process.env.PATH ?? "",
        GITHUB_WEBHOOK_SECRET: SECRET,
        PORT: "0",
        GATE_SLACK: "off",
        GITHUB_TOKEN: "bench-token",
        GATE_GITHUB_API_URL: gh.url,
        GATE_DB: path.join(dir, "server.db"),
        GATE_DATA_DIR: path.join(dir, "data"),
        GATE_LOG_LEVEL: "info",
        GATE_GITHUB_WRITE_SPACING_MS: "0",
      },
      path.join(dir, "server.log"),
    );
    child = server.child;
    let next = 1;
    const fresh = () => next++;
    // Each probe is a stored delivery (recorded and fsynced before its 202) that queues only a cheap
    // job: a pull request closed that the gate has no review of. They are sent and timed by a
    // process of their own, so that this one's work (it plays GitHub) is never timed as the gate's.
    const template = path.join(dir, "closed.json");
    writeFileSync(template, (await deliveryFor("service", { number: 500_000, sha: "d".repeat(40) }, "closed")).body);
    prober = await startProber(server.port, template);
    const probe = prober;
    const db = () => new Database(path.join(dir, "server.db"), { readonly: true, fileMustExist: true });
    const settled = (prs: string[]): boolean => {
      const conn = db();
      try {
        const rows = conn.prepare("SELECT pr, status FROM gate_reviews").all() as Array<{ pr: string; status: string }>;
        return prs.every((pr) =>
          rows.some((r) => r.pr === pr && (r.status === "done" || r.status === "waiting_for_human")),
        );
      } finally {
        conn.close();
      }
    };
    const drained = async () => {
      for (;;) {
        const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
        if (/^gate_queue_depth 0$/m.test(text)) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const config = megabyteConfig();
    const heavy = async (): Promise<number> => {
      const big = serveHeavy(gh, "service", fresh(), 3_000);
      const configured = serveHeavy(gh, "configured", fresh(), 2, config);
      const answers = probe.run(Number.MAX_SAFE_INTEGER);
      await burst(server.port, await Promise.all([deliveryFor("service", big), deliveryFor("configured", configured)]));
      while (!settled([`bench/service#${big.number}`, `bench/configured#${configured.number}`]))
        await new Promise((r) => setTimeout(r, 50));
      probe.stop();
      const timed = await answers;
      await drained();
      return p99(timed);
    };
    const idle = async (): Promise<number> => {
      const answers = await probe.run(8);
      await drained();
      return p99(answers);
    };
    const m = await paired(heavy, idle, { runs, warmup: 1, label: "ack during a heavy review" });
    return pairedFigure(
      "ack_p99_heavy_review",
      `webhook answer p99 (bursts of ${BURST} signed deliveries, ${PAUSE_MS} ms apart) while a 3,000-file PR and a repository with a 1 MB .github/gate.yml are reviewed, against the same with nothing to review`,
      { label: "during heavy review", unit: "ms p99" },
      { label: "idle", unit: "ms p99" },
      m,
      { max: 1.5 },
    );
  } finally {
    prober?.close();
    if (child) await stop(child);
    await gh.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The ack prober (child/ack-prober.ts): runs of bursts, each answering with every latency it timed. */
interface Prober {
  /** Starts a run of at most `bursts` bursts; resolves with its latencies (ms) when it ends. */
  run(bursts: number): Promise<number[]>;
  /** Ends the run under way after its current burst. */
  stop(): void;
  close(): void;
}

async function startProber(port: number, template: string): Promise<Prober> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      TSX,
      path.join(BENCH_DIR, "child/ack-prober.ts"),
      String(port),
      SECRET,
      template,
      String(BURST),
      String(PAUSE_MS),
    ],
    { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const line = async (): Promise<unknown> => {
    const next = await lines.next();
    if (next.done) throw new Error("the ack prober exited");
    return JSON.parse(next.value);
  };
  await line();
  return {
    run: async (bursts) => {
      child.stdin.write(`go ${bursts}\n`);
      return ((await line()) as { answers: number[] }).answers;
    },
    stop: () => void child.stdin.write("stop\n"),
    close: () => child.stdin.end(),
  };
}

const signer = new Webhooks({ secret: SECRET });

/** A signed `pull_request.<action>` delivery for a PR of `bench/<repo>`. */
async function deliveryFor(repo: string, pr: { number: number; sha: string }, action = "opened") {
  const body = JSON.stringify(
    pullRequestEvent(action, {
      owner: "bench",
      repo,
      number: pr.number,
      headSha: pr.sha,
      title: `Synthetic change ${pr.number}`,
      author: "bench-author",
      url: `https://github.com/bench/${repo}/pull/${pr.number}`,
    }),
  );
  return signedDelivery(signer, body);
}
