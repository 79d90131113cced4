import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Webhooks } from "@octokit/webhooks";
import { pino } from "pino";
import { buildGate } from "../src/build-gate.js";
import { loadSettings } from "../src/settings/index.js";
import { createCheckPublisher } from "../src/github/check-publisher.js";
import { createGitHubAuth } from "../src/github/client.js";
import { type FakeGitHub, rawTarball, startFakeGitHub } from "../test/fakes/github-api.js";
import { pullRequestEvent } from "../test/server/helpers.js";
import { burst, p99, signedDelivery } from "./burst.js";
import { BENCH_DIR, ROOT } from "./child-process.js";
import { type Figure, paired, pairedFigure, progress, singleFigure } from "./stats.js";
import { syntheticPrJson } from "./synthetic.js";

export { burst, p99 };

const SECRET = "bench-webhook-secret";
const OWNER = "bench";
const REPO = "service";
const signer = new Webhooks({ secret: SECRET });

/**
 * Starts a server process with its output going straight to `logFile` (the bench process neither
 * reads nor buffers it), and resolves with its port, read from the first JSON line naming one.
 */
export async function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
): Promise<{ child: ChildProcess; port: number }> {
  const out = openSync(logFile, "w");
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", out, out] });
  closeSync(out);
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    const port = /"port":\s*(\d+)/.exec(readFileSync(logFile, "utf8"))?.[1];
    if (port) return { child, port: Number(port) };
    if (exited !== undefined) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new Error(`server did not listen (exit ${exited}); its output:\n${readFileSync(logFile, "utf8").slice(-2000)}`);
}

/** Stops a child: SIGTERM, then SIGKILL if it has not exited within 10 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Serves `count` docs-only PRs from the fake GitHub, numbered from `first`. */
export function servePrs(gh: FakeGitHub, first: number, count: number): Array<{ number: number; sha: string }> {
  gh.setInstallation(OWNER, REPO, 1);
  return Array.from({ length: count }, (_, i) => {
    const number = first + i;
    const { pr, files } = syntheticPrJson({ files: 2, linesPerFile: 10, number, docs: true });
    gh.setPull(OWNER, REPO, number, {
      pr: { ...pr, html_url: `https://github.com/${OWNER}/${REPO}/pull/${number}`, changed_files: files.length },
      files,
    });
    const top = `${OWNER}-${REPO}-${pr.head.sha.slice(0, 7)}`;
    gh.setTarball(
      OWNER,
      REPO,
      pr.head.sha,
      rawTarball([
        { path: `${top}/`, type: "Directory" },
        { path: `${top}/README.md`, type: "File", body: "# service\n" },
      ]),
    );
    return { number, sha: pr.head.sha };
  });
}

/** A signed `pull_request.opened` delivery for one served PR. */
export async function delivery(pr: {
  number: number;
  sha: string;
}): Promise<{ body: string; headers: Record<string, string> }> {
  // GitHub's own example payload, retargeted at the served PR.
  const body = JSON.stringify(
    pullRequestEvent("opened", {
      owner: OWNER,
      repo: REPO,
      number: pr.number,
      headSha: pr.sha,
      title: `Synthetic change ${pr.number}`,
      author: "bench-author",
      url: `https://github.com/${OWNER}/${REPO}/pull/${pr.number}`,
    }),
  );
  return signedDelivery(signer, body);
}

/** Polls `done` (how many of `total` reviews finished) until all have, reporting progress every 10 s. */
export async function waitUntil(what: string, done: () => number, total: number, timeoutMs: number): Promise<void> {
  const started = Date.now();
  let reported = started;
  for (let n = done(); n < total; n = done()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}: ${n} of ${total} done`);
    if (Date.now() - reported >= 10_000) {
      reported = Date.now();
      progress(`${what}: ${n}/${total} reviews done`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** How much the server bench does: the full run, or a tiny one that only proves the harness finishes. */
export interface ServerBenchSize {
  /** Deliveries sent at once in each burst of a webhook-ack round. */
  concurrent: number;
  /**
   * Bursts in each webhook-ack round: the round's p99 is taken over all their answers
   * (`concurrent` x `bursts`), so that it is not simply the slowest of one burst.
   */
  bursts: number;
  ackRuns: number;
  /** Reviews each review-rate round runs, on each side. */
  reviews: number;
  rateRuns: number;
  warmup: number;
}

export const SERVER_BENCH_FULL: ServerBenchSize = {
  concurrent: 50,
  bursts: 4,
  ackRuns: 11,
  reviews: 30,
  rateRuns: 3,
  warmup: 1,
};

/**
 * The webhook-ack pairs: each round sends `bursts` bursts to each server, alternating one burst
 * here, one there (which goes first alternates too), so both meet the machine as it is at that
 * moment rather than one round's worth of drift apart, and each burst after `quietMs` of pause,
 * so that neither meets the tail of the other's work; the round's figure on each side is the p99
 * over its answers (`bursts` x `concurrent`), and its ratio is gate over bare.
 */
async function interleavedBursts(
  a: () => Promise<number[]>,
  b: () => Promise<number[]>,
  opts: { runs: number; bursts: number; warmup: number; label: string; quietMs: number },
): Promise<{ a: number[]; b: number[]; ratio: number[] }> {
  const out = { a: [] as number[], b: [] as number[], ratio: [] as number[] };
  const quietly = async (side: () => Promise<number[]>) => {
    await new Promise((r) => setTimeout(r, opts.quietMs));
    return side();
  };
  for (let round = -opts.warmup; round < opts.runs; round++) {
    const answers = { a: [] as number[], b: [] as number[] };
    for (let i = 0; i < opts.bursts; i++) {
      if ((round + i) % 2 === 0) {
        answers.a.push(...(await quietly(a)));
        answers.b.push(...(await quietly(b)));
      } else {
        answers.b.push(...(await quietly(b)));
        answers.a.push(...(await quietly(a)));
      }
    }
    if (round < 0) {
      progress(`${opts.label}: warmup done`);
      continue;
    }
    const [x, y] = [p99(answers.a), p99(answers.b)];
    out.a.push(x);
    out.b.push(y);
    out.ratio.push(y === 0 ? Number.POSITIVE_INFINITY : x / y);
    progress(`${opts.label}: round ${round + 1}/${opts.runs}: ${x.toFixed(3)} / ${y.toFixed(3)}`);
  }
  return out;
}

/** The command that starts the gate's server: the built `npm start` entry unless told. */
const BUILT_SERVER = [path.join(ROOT, "dist/main.js")];

/**
 * The gate's server (its own process, GATE_SLACK=off, a token, a loopback fake GitHub) against a
 * bare node:http server that verifies the same signature: webhook-ack p99 at 50 concurrent
 * deliveries, paired rounds of several bursts each, the two servers' bursts interleaved, the
 * p99 taken over each side's answers in the round (`interleavedBursts`); then
 * reviews per second through the server against the same reviews run in-process on the same fake.
 * After each gate burst the bench waits (untimed) for the reviews its deliveries queued and for
 * the gate's queue to empty, so no burst measures behind another's backlog. Progress goes to stderr; the server's own log goes to a
 * file, quoted when a round times out.
 */
export async function serverFigures(
  size: ServerBenchSize = SERVER_BENCH_FULL,
  serverCommand: string[] = BUILT_SERVER,
): Promise<Figure[]> {
  const gh = await startFakeGitHub();
  const dir = mkdtempSync(path.join(tmpdir(), "gate-bench-server-"));
  const children: ChildProcess[] = [];
  try {
    const env = { PATH: process.env.PATH ?? "", GITHUB_WEBHOOK_SECRET: SECRET };
    const gateEnv = {
      ...env,
      PORT: "0",
      GATE_SLACK: "off",
      GITHUB_TOKEN: "bench-token",
      GATE_GITHUB_API_URL: gh.url,
      GATE_DB: path.join(dir, "server.db"),
      GATE_DATA_DIR: path.join(dir, "server-data"),
      GATE_LOG_LEVEL: "info",
      // GitHub asks for a second between writes; on the loopback fake that pacing alone would set
      // both rates (a status or two per review), so both sides write unpaced and the figures
      // measure the gate's own work.
      GATE_GITHUB_WRITE_SPACING_MS: "0",
    };
    const gateLog = path.join(dir, "gate-server.log");
    const gate = await startProcess(serverCommand, gateEnv, gateLog);
    const bare = await startProcess(
      [
        "--import",
        path.join(ROOT, "node_modules/tsx/dist/loader.mjs"),
        path.join(BENCH_DIR, "child/bare-webhook-server.ts"),
      ],
      env,
      path.join(dir, "bare-server.log"),
    );
    children.push(gate.child, bare.child);

    let next = 1;
    /** The first of `n` fresh PR numbers. */
    const fresh = (n: number): number => {
      const first = next;
      next += n;
      return first;
    };
    /** How many of these heads have their final (success) status. */
    const succeeded = (shas: ReadonlySet<string>) =>
      gh.statuses.filter((s) => shas.has(s.sha) && (s.body as { state?: string }).state === "success").length;
    /** Waits (untimed) until every one of these heads has its final status, quoting the server's log if not. */
    const settled = async (what: string, shas: ReadonlySet<string>): Promise<void> => {
      try {
        await waitUntil(what, () => succeeded(shas), shas.size, 300_000);
      } catch (error) {
        const tail = readFileSync(gateLog, "utf8").slice(-4000);
        throw new Error(`${(error as Error).message}; the gate server's last output:\n${tail}`);
      }
    };
    /**
     * Waits (untimed) until the gate's queue is empty, as its /metrics says: the last review's
     * job has finished (its status is out a little before), so no burst starts on its tail.
     */
    const drained = async (): Promise<void> => {
      for (const started = Date.now(); Date.now() - started < 60_000; ) {
        const text = await (await fetch(`http://127.0.0.1:${gate.port}/metrics`)).text();
        if (/^gate_queue_depth 0$/m.test(text)) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error("the gate's review queue did not empty within 60 s");
    };
    /** One burst at the gate; waits (untimed) for the reviews it queued and for the queue to empty. */
    const gateBurst = async (): Promise<number[]> => {
      const prs = servePrs(gh, fresh(size.concurrent), size.concurrent);
      const answers = await burst(gate.port, await Promise.all(prs.map(delivery)));
      await settled("the ack burst's reviews", new Set(prs.map((p) => p.sha)));
      await drained();
      return answers;
    };
    const bareBurst = async (): Promise<number[]> =>
      burst(bare.port, await Promise.all(servePrs(gh, 900_000, size.concurrent).map(delivery)));
    const ack = await interleavedBursts(gateBurst, bareBurst, {
      runs: size.ackRuns,
      bursts: size.bursts,
      warmup: size.warmup,
      label: "server webhook ack",
      quietMs: 100,
    });

    // Reviews per second: through the server (webhook to final status) and in-process (register and run).
    const REVIEWS = size.reviews;
    const rate = await paired(
      async () => {
        const prs = servePrs(gh, fresh(REVIEWS), REVIEWS);
        const shas = new Set(prs.map((p) => p.sha));
        const started = performance.now();
        await burst(gate.port, await Promise.all(prs.map(delivery)));
        await settled("the server's reviews", shas);
        return REVIEWS / ((performance.now() - started) / 1000);
      },
      async () => {
        const prs = servePrs(gh, fresh(REVIEWS), REVIEWS);
        const log = pino({ level: "silent" });
        const auth = createGitHubAuth({
          token: "bench-token",
          apiUrl: gh.url,
          log,
          retry: { writeSpacingMs: Number(gateEnv.GATE_GITHUB_WRITE_SPACING_MS) },
        });
        // The same work as the server's: live intake, and the commit status published at the end.
        const check = createCheckPublisher({ auth, log });
        const inproc = await buildGate(
          loadSettings(
            { GATE_DB: path.join(dir, `inproc-${next}.db`), GATE_DATA_DIR: path.join(dir, "inproc-data") },
            dir,
          ),
          log,
          { github: auth, publishersFor: () => [check] },
        );
        try {
          const started = performance.now();
          const ids: string[] = [];
          for (const p of prs) {
            const review = await inproc.runner.register({
              source: { kind: "github", owner: OWNER, repo: REPO, number: p.number, headSha: p.sha },
              repo: `${OWNER}/${REPO}`,
              number: p.number,
              headSha: p.sha,
            });
            ids.push(review.id);
          }
          // The server's default GATE_CONCURRENCY: two reviews at a time.
          const queue = [...ids];
          await Promise.all(
            [0, 1].map(async () => {
              for (let id = queue.shift(); id; id = queue.shift()) await inproc.runner.run(id);
            }),
          );
          return REVIEWS / ((performance.now() - started) / 1000);
        } finally {
          await inproc.close();
        }
      },
      { runs: size.rateRuns, warmup: size.warmup, label: "server review rate" },
    );
    return [
      pairedFigure(
        "webhook_ack_p99",
        `webhook answer p99 at ${size.concurrent} concurrent signed deliveries, over the ${size.concurrent * size.bursts} answers of ${size.bursts} bursts per round: the gate's server against a bare node:http server checking the same signature`,
        { label: "gate server", unit: "ms p99" },
        { label: "bare server", unit: "ms p99" },
        ack,
        { max: 1.5 },
      ),
      pairedFigure(
        "server_review_rate",
        `reviews per second of ${REVIEWS} docs-only PRs: through the server (webhook to final status) against in-process (register and run), both on the loopback fake GitHub`,
        { label: "server", unit: "reviews/s" },
        { label: "in-process", unit: "reviews/s" },
        rate,
        { min: 0.8 },
      ),
      // Every PR above changes docs only: no review reads a head file, so none downloads its tarball.
      singleFigure(
        "docs_only_tarball_downloads",
        `head tarballs downloaded for the ${next - 1} docs-only live PRs reviewed above (server and in-process); the snapshot is fetched only when a review reads it`,
        { label: "tarball downloads", unit: "requests" },
        [gh.find("GET", /\/tarball\//).length],
        { max: 0 },
      ),
    ];
  } finally {
    // SIGTERM first: the server closes and exits (writing a --cpu-prof profile if asked); a
    // process still there after 10 s is killed.
    await Promise.all(children.map(stop));
    await gh.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
