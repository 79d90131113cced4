import { randomUUID } from "node:crypto";
import { rename, stat } from "node:fs/promises";
import type { Octokit } from "@octokit/rest";
import type { Logger } from "pino";
import { GateError } from "../domain/errors.js";
import type { SnapshotCache, SnapshotCaps, SnapshotRef } from "../domain/snapshot-ref.js";
import { sandboxRoot } from "./sandbox.js";

/** The archive code (tar): loaded by the first download or removal, never for a fixture's snapshot. */
const tarball = () => import("./tarball.js");

/** A GitHub snapshot reference. */
type GitHubSnapshotRef = Extract<SnapshotRef, { kind: "github" }>;

/**
 * How long a failed fetch is remembered: one review's readers (each detector, each tool call) get
 * the same answer instead of downloading a refused archive again each; a later reader (a person's
 * Request info, days on) tries again.
 */
const FAILED_FETCH_MEMO_MS = 60_000;

async function isDirectory(dir: string): Promise<boolean> {
  return (await stat(dir).catch(() => undefined))?.isDirectory() ?? false;
}

/** An error's message, with its cause's (an HTTP answer under "cannot download"). */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

/** The fetch's error, saying what it was for; its code (and so its advice) kept. */
function fetchError(ref: GitHubSnapshotRef, error: unknown): GateError {
  const what = `${ref.owner}/${ref.repo}@${ref.sha.slice(0, 7)}`;
  if (error instanceof GateError && error.code === "SNAPSHOT_OVER_CAP") {
    return new GateError("SNAPSHOT_OVER_CAP", `the head snapshot ${what} was refused: ${error.message}`, {
      cause: error,
    });
  }
  return new GateError(
    error instanceof GateError ? error.code : "GITHUB_INTAKE",
    `the head snapshot ${what} could not be fetched: ${messageOf(error)}`,
    { cause: error },
  );
}

/**
 * The snapshots of this process (`SnapshotCache`): a GitHub head is downloaded (under the caps) the
 * first time a reader asks for it, into a staging folder renamed into place when complete, so a
 * root on disk is always a whole extraction, even with another process extracting the same commit
 * into the same data directory. Readers asking while a download runs share it. A fixture's root
 * is its `repo/` folder, never fetched nor removed.
 *
 * @example const snapshots = createSnapshotCache({ dataDir, caps: settings.snapshot, octokitFor, log });
 *   await snapshots.root({ kind: "github", owner: "acme", repo: "web", sha }) // "<dataDir>/snapshots/acme/web/<sha>"
 */
export function createSnapshotCache(opts: {
  dataDir: string;
  caps: SnapshotCaps;
  /** The client that may download a ref's tarball; absent when GitHub is not configured. */
  octokitFor?: (ref: GitHubSnapshotRef) => Promise<Octokit>;
  log: Logger;
}): SnapshotCache {
  /** Fetches running, and failed ones for FAILED_FETCH_MEMO_MS, by root. */
  const fetches = new Map<string, Promise<string>>();

  const download = async (ref: GitHubSnapshotRef, root: string): Promise<string> => {
    if (!opts.octokitFor) {
      throw new GateError("GITHUB_INTAKE", "GitHub is not configured (set GITHUB_TOKEN or a GitHub App)");
    }
    const staging = `${root}.partial-${randomUUID()}`;
    try {
      const stats = await (await tarball()).fetchSnapshot(await opts.octokitFor(ref), ref, {
        root: staging,
        ...opts.caps,
      });
      if (stats.refused.length > 0) {
        opts.log.warn(
          { snapshot: `${ref.owner}/${ref.repo}@${ref.sha}`, refused: stats.refused.slice(0, 20) },
          "snapshot entries refused",
        );
      }
      // Another process extracting the same commit may have renamed its copy into place first: keep that one.
      await rename(staging, root).catch(async (error: unknown) => {
        if (!(await isDirectory(root))) throw error;
      });
      return root;
    } finally {
      await (await tarball()).removeSnapshot(staging);
    }
  };

  return {
    async root(ref) {
      if (ref.kind !== "github") return sandboxRoot(ref, { dataDir: opts.dataDir });
      const root = sandboxRoot(ref, { dataDir: opts.dataDir });
      const running = fetches.get(root);
      if (running !== undefined) return running;
      const fetching = (async () => ((await isDirectory(root)) ? root : download(ref, root)))().catch(
        (error: unknown) => {
          throw fetchError(ref, error);
        },
      );
      fetches.set(root, fetching);
      const forget = () => {
        if (fetches.get(root) === fetching) fetches.delete(root);
      };
      fetching.then(forget, () => {
        setTimeout(forget, FAILED_FETCH_MEMO_MS).unref();
      });
      return fetching;
    },
    async release(ref) {
      if (ref.kind !== "github") return;
      const root = sandboxRoot(ref, { dataDir: opts.dataDir });
      // A download still running would put its copy in place after the removal: let it finish first.
      await fetches.get(root)?.catch(() => undefined);
      fetches.delete(root);
      await (await tarball()).removeSnapshot(root);
    },
  };
}
