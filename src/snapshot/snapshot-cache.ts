import { randomUUID } from "node:crypto";
import { rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Octokit } from "@octokit/rest";
import type { Logger } from "pino";
import { GateError } from "../domain/errors.js";
import type { OpenSnapshot, SnapshotCache, SnapshotCaps, SnapshotRef } from "../domain/snapshot-ref.js";
import { sandboxRoot } from "./sandbox.js";
import { describeLost } from "./snapshot-loss.js";
import { readRecord, writeRecord } from "./snapshot-record.js";

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

/**
 * The snapshot whose tree is `root`, when its folder (the tree's parent) holds a record; a folder
 * without one (an older layout, or not ours) is removed, as nothing says it is whole.
 */
async function inPlace(root: string): Promise<OpenSnapshot | undefined> {
  const folder = path.dirname(root);
  const record = await readRecord(folder);
  if (record !== undefined && (await isDirectory(root))) return { root, lost: record.lost };
  if (record === undefined && (await isDirectory(folder))) await rm(folder, { recursive: true, force: true });
  return undefined;
}

/** The fetch's error, saying what it was for; its code (and so its advice) kept. */
function fetchError(ref: GitHubSnapshotRef, error: unknown): GateError {
  const what = `${ref.owner}/${ref.repo}@${ref.sha.slice(0, 7)}`;
  if (error instanceof GateError && error.code === "SNAPSHOT_OVER_CAP") {
    return new GateError("SNAPSHOT_OVER_CAP", `the head snapshot ${what} was refused: ${error.message}`, {
      cause: error,
    });
  }
  if (error instanceof GateError && error.code === "SNAPSHOT_INCOMPLETE") {
    return new GateError("SNAPSHOT_INCOMPLETE", `the head snapshot ${what} could not be extracted: ${error.message}`, {
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
 * first time a reader asks for it, and extracted into a staging folder: its `tree/` and, once the
 * extraction has finished, its record (`snapshot-record.ts`: which entries were lost, if any). The
 * folder is then renamed into place in one step, so a folder in place is always a finished
 * extraction with its record, even with another process extracting the same commit into the same
 * data directory, and a half-extracted one (the process died) is never taken for one. A snapshot
 * that lost entries is put in place too, its record saying so, so every reader of it (a restart
 * included) refuses what it lacks. Readers asking while a download runs share it. A fixture's root
 * is its `repo/` folder, never fetched nor removed, and lost nothing.
 *
 * @example const snapshots = createSnapshotCache({ dataDir, caps: settings.snapshot, octokitFor, log });
 *   await snapshots.open({ kind: "github", owner: "acme", repo: "web", sha }) // { root: "<dataDir>/snapshots/acme/web/<sha>.snapshot/tree", lost: [] }
 */
export function createSnapshotCache(opts: {
  dataDir: string;
  caps: SnapshotCaps;
  /** The client that may download a ref's tarball; absent when GitHub is not configured. */
  octokitFor?: (ref: GitHubSnapshotRef) => Promise<Octokit>;
  log: Logger;
}): SnapshotCache {
  /** Fetches running, and failed ones for FAILED_FETCH_MEMO_MS, by root. */
  const fetches = new Map<string, Promise<OpenSnapshot>>();

  const download = async (ref: GitHubSnapshotRef, root: string): Promise<OpenSnapshot> => {
    if (!opts.octokitFor) {
      throw new GateError("GITHUB_INTAKE", "GitHub is not configured (set GITHUB_TOKEN or a GitHub App)");
    }
    const folder = path.dirname(root);
    const staging = `${folder}.partial-${randomUUID()}`;
    const snapshot = `${ref.owner}/${ref.repo}@${ref.sha}`;
    try {
      const stats = await (await tarball()).fetchSnapshot(await opts.octokitFor(ref), ref, {
        root: path.join(staging, path.basename(root)),
        ...opts.caps,
      });
      if (stats.refused.length > 0) {
        opts.log.warn({ snapshot, refused: stats.refused.slice(0, 20) }, "snapshot entries refused");
      }
      if (stats.lost.length > 0) {
        opts.log.error({ snapshot, lost: stats.lost.slice(0, 20) }, `snapshot incomplete: ${describeLost(stats.lost)}`);
      }
      try {
        await writeRecord(staging, { files: stats.files, lost: stats.lost, refused: stats.refused.length });
        // Another process extracting the same commit may have renamed its copy into place first: keep that one.
        await rename(staging, folder).catch(async (error: unknown) => {
          if ((await readRecord(folder)) === undefined) throw error;
        });
      } catch (error) {
        throw new GateError("SNAPSHOT_INCOMPLETE", `its record could not be written: ${messageOf(error)}`, {
          cause: error,
        });
      }
      const placed = await inPlace(root);
      if (!placed) throw new GateError("SNAPSHOT_INCOMPLETE", "the extracted snapshot is gone from its folder");
      return placed;
    } finally {
      await (await tarball()).removeSnapshot(staging);
    }
  };

  return {
    async open(ref) {
      if (ref.kind !== "github") return { root: sandboxRoot(ref, { dataDir: opts.dataDir }), lost: [] };
      const root = sandboxRoot(ref, { dataDir: opts.dataDir });
      const running = fetches.get(root);
      if (running !== undefined) return running;
      const fetching = (async () => (await inPlace(root)) ?? download(ref, root))().catch((error: unknown) => {
        throw fetchError(ref, error);
      });
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
      await (await tarball()).removeSnapshot(path.dirname(root));
    },
  };
}
