import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
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
import { BENCH_DIR, ROOT } from "./child-process.js";
import { type Figure, paired, pairedFigure, singleFigure } from "./stats.js";
import { syntheticPrJson } from "./synthetic.js";

const SECRET = "bench-webhook-secret";
const CONCURRENT = 50;
const OWNER = "bench";
const REPO = "service";
const signer = new Webhooks({ secret: SECRET });

/** Starts a server process and resolves with its port, read from the first JSON line naming one. */
function startProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      for (const line of buffered.split("\n")) {
        const port = /"port":\s*(\d+)/.exec(line)?.[1];
        if (port) resolve({ child, port: Number(port) });
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

/** Serves `count` docs-only PRs from the fake GitHub, numbered from `first`. */
function servePrs(gh: FakeGitHub, first: number, count: number): Array<{ number: number; sha: string }> {
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
async function delivery(pr: {
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
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-github-event": "pull_request",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": await signer.sign(body),
    },
  };
}

/** Sends deliveries all at once; returns each answer's latency in ms. */
async function burst(
  port: number,
  deliveries: Array<{ body: string; headers: Record<string, string> }>,
): Promise<number[]> {
  return Promise.all(
    deliveries.map(async (d) => {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/github/webhook`, {
        method: "POST",
        headers: d.headers,
        body: d.body,
      });
      await res.arrayBuffer();
      if (res.status !== 202) throw new Error(`webhook answered ${res.status}`);
      return performance.now() - started;
    }),
  );
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the reviews");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The gate's server (its own process, GATE_SLACK=off, a token, a loopback fake GitHub) against a
 * bare node:http server that verifies the same signature: webhook-ack p99 at 50 concurrent
 * deliveries, paired rounds; then reviews per second through the server against the same reviews
 * run in-process on the same fake.
 */
export async function serverFigures(): Promise<Figure[]> {
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
    };
    const gate = await startProcess([path.join(ROOT, "dist/main.js")], gateEnv);
    const bare = await startProcess(
      [
        "--import",
        path.join(ROOT, "node_modules/tsx/dist/loader.mjs"),
        path.join(BENCH_DIR, "child/bare-webhook-server.ts"),
      ],
      env,
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
    const ackShas = new Set<string>();
    const ack = await paired(
      async () => {
        const prs = servePrs(gh, fresh(CONCURRENT), CONCURRENT);
        for (const p of prs) ackShas.add(p.sha);
        return p99(await burst(gate.port, await Promise.all(prs.map(delivery))));
      },
      async () => p99(await burst(bare.port, await Promise.all(servePrs(gh, 900_000, CONCURRENT).map(delivery)))),
      { runs: 5 },
    );

    // The acks left the server a backlog of reviews: let it finish them, so the rate below counts
    // only its own reviews rather than waiting behind a few hundred others.
    await waitUntil(() => succeeded(ackShas) >= ackShas.size, 900_000);

    // Reviews per second: through the server (webhook to final status) and in-process (register and run).
    const REVIEWS = 30;
    const rate = await paired(
      async () => {
        const prs = servePrs(gh, fresh(REVIEWS), REVIEWS);
        const shas = new Set(prs.map((p) => p.sha));
        const started = performance.now();
        await burst(gate.port, await Promise.all(prs.map(delivery)));
        await waitUntil(() => succeeded(shas) >= REVIEWS, 600_000);
        return REVIEWS / ((performance.now() - started) / 1000);
      },
      async () => {
        const prs = servePrs(gh, fresh(REVIEWS), REVIEWS);
        const log = pino({ level: "silent" });
        const auth = createGitHubAuth({ token: "bench-token", apiUrl: gh.url, log });
        // The same work as the server's: live intake, and the commit status published at the end.
        const check = createCheckPublisher({ auth, log });
        const inproc = buildGate(
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
          inproc.close();
        }
      },
      { runs: 3 },
    );
    return [
      pairedFigure(
        "webhook_ack_p99",
        `webhook answer p99 at ${CONCURRENT} concurrent signed deliveries: the gate's server against a bare node:http server checking the same signature`,
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
    for (const c of children) c.kill("SIGKILL");
    await gh.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
