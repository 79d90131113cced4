import { performance } from "node:perf_hooks";
import { osvApiRecords } from "../src/advisories/osv-api-records.js";
import { advisorySourceOver } from "../src/advisories/record-source.js";
import { defaultLicenseRules } from "../src/gate-file/effective.js";
import { vulnerableDependenciesDetector } from "../src/detectors/security/vulnerable-dependencies.js";
import type { PullRequest } from "../src/domain/pull-request.js";
import { startFakeOsv } from "../test/fakes/osv-api.js";
import { type Figure, progress, singleFigure } from "./stats.js";

const PACKAGES = 5_000;

/** A new package-lock.json (v3) resolving `PACKAGES` packages, every one added by the PR. */
function lockfilePr(): PullRequest {
  const packages: Record<string, unknown> = { "": { name: "app", dependencies: { "pkg-0": "^1.0.0" } } };
  for (let i = 0; i < PACKAGES; i++) {
    packages[`node_modules/pkg-${i}`] = {
      version: `1.${i % 50}.0`,
      ...(i + 1 < PACKAGES ? { dependencies: { [`pkg-${i + 1}`]: "^1.0.0" } } : {}),
    };
  }
  const text = JSON.stringify({ name: "app", lockfileVersion: 3, requires: true, packages }, null, 2);
  const lines = text.split("\n");
  return {
    repo: "acme/app",
    number: 1,
    title: "Lock the dependencies",
    body: "",
    author: "dev",
    draft: false,
    labels: [],
    baseRef: "main",
    baseSha: "a".repeat(40),
    headRef: "lock",
    headSha: "b".repeat(40),
    url: "https://github.com/acme/app/pull/1",
    files: [
      {
        filename: "package-lock.json",
        status: "added",
        additions: lines.length,
        deletions: 0,
        changes: lines.length,
        patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join("\n"),
      },
    ],
  };
}

/**
 * SEC-07 over a PR that adds a 5,000-package lockfile, against a loopback OSV fake through the
 * real HTTP client with no cache: the wall time of reading the lockfile, the batched lookups and
 * the findings, and how many requests it took (one `querybatch` per 1,000 versions, one record
 * fetch per advisory). The goal is the review's own budget for a specialist, 60 s, by far.
 */
export async function osvLockfileFigure(): Promise<Figure> {
  const osv = await startFakeOsv();
  // One advisory per 100 packages, each affecting every version below 1.10.0.
  for (let i = 0; i < PACKAGES; i += 100) {
    osv.add({
      id: `GHSA-bench-${i}`,
      summary: `A flaw in pkg-${i}`,
      affected: [
        {
          package: { ecosystem: "npm", name: `pkg-${i}` },
          ranges: [{ type: "SEMVER", events: [{ introduced: "0" }, { fixed: "1.10.0" }] }],
        },
      ],
      database_specific: { severity: "HIGH" },
    });
  }
  const times: number[] = [];
  let requests = 0;
  let findings = 0;
  try {
    for (let run = 0; run < 3; run++) {
      const pr = lockfilePr();
      osv.requests.length = 0;
      const ctx = {
        pr,
        head: { read: async () => undefined },
        licenses: { lookup: async () => ({ status: "unknown" as const }) },
        licenseRules: defaultLicenseRules(),
        advisories: advisorySourceOver(osvApiRecords({ baseUrl: osv.url })),
        notRead: () => undefined,
      };
      const started = performance.now();
      findings = (await vulnerableDependenciesDetector.detect(ctx)).length;
      times.push(performance.now() - started);
      requests = osv.requests.length;
      progress(`osv: run ${run + 1}/3: ${times.at(-1)?.toFixed(0)} ms, ${requests} requests, ${findings} findings`);
    }
  } finally {
    await osv.close();
  }
  const batches = osv.batches.length / 3;
  return singleFigure(
    "osv_lockfile_5000",
    `SEC-07 over a PR adding a ${PACKAGES.toLocaleString("en")}-package package-lock.json (loopback OSV, no cache)`,
    { label: "read + look up + judge", unit: "ms" },
    times,
    { max: 60_000 },
    [
      `${requests} requests per review: ${batches} querybatch of up to 1,000 versions, ${requests - batches} record fetches; ${findings} findings`,
    ],
  );
}
