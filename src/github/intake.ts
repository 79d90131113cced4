import type { Octokit } from "@octokit/rest";
import { AnswerTooLarge } from "../domain/capped-text.js";
import { GateError } from "../domain/errors.js";
import { capPatches, DEFAULT_FILE_CAPS, type FileCaps } from "../domain/file-caps.js";
import {
  type ChangedFile,
  parseChangedFiles,
  pullRequestWith,
  PullRequestShapeError,
  type PullRequest,
} from "../domain/pull-request.js";
import { jsonBody, UNPARSED } from "./json-body.js";
import { formatPrRef, type PrRef } from "./pr-ref.js";

/** GitHub lists at most this many files of a pull request. */
export const GITHUB_FILE_CAP = 3000;

/** Extensions GitHub shows no patch for because the file is binary, not because it is large. */
const BINARY_EXTENSIONS = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "bmp",
  "ico",
  "webp",
  "tif",
  "tiff",
  "psd",
  "heic",
  "pdf",
  "zip",
  "gz",
  "tgz",
  "bz2",
  "xz",
  "7z",
  "rar",
  "tar",
  "zst",
  "woff",
  "woff2",
  "ttf",
  "otf",
  "eot",
  "jar",
  "war",
  "ear",
  "class",
  "dll",
  "exe",
  "so",
  "dylib",
  "a",
  "o",
  "bin",
  "wasm",
  "pyc",
  "node",
  "mp3",
  "mp4",
  "mov",
  "avi",
  "wav",
  "ogg",
  "webm",
  "flac",
  "sqlite",
  "db",
  "dat",
  "pkl",
  "npy",
  "onnx",
  "pt",
  "keystore",
  "jks",
  "p12",
  "pfx",
  "der",
]);

/** Does the file name look binary (so a missing patch is expected)? */
export function binaryByName(filename: string): boolean {
  const base = filename.slice(filename.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 && BINARY_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

/** What intake read, and why the gate cannot see all of it when it cannot. */
export interface LoadedPullRequest {
  pr: PullRequest;
  /** Set when part of the change is invisible to the gate; the caller escalates (fail closed). */
  incomplete?: string;
}

function listed(names: string[]): string {
  const shown = names.slice(0, 5).join(", ");
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/** Why the loaded value does not show the whole change, or undefined when it does. */
export function incompleteReason(pr: PullRequest, changedFiles: number | undefined): string | undefined {
  const reasons: string[] = [];
  const total = Math.max(changedFiles ?? 0, pr.files.length);
  if (pr.files.length >= GITHUB_FILE_CAP || total > pr.files.length) {
    reasons.push(`GitHub lists ${pr.files.length} of the ${total} changed files (it stops at ${GITHUB_FILE_CAP})`);
  }
  const withoutPatch = pr.files
    .filter(
      (f) =>
        f.patch === undefined &&
        f.status !== "removed" &&
        !(f.status === "renamed" && f.changes === 0) &&
        f.changes > 0 &&
        !binaryByName(f.filename),
    )
    .map((f) => f.filename);
  if (withoutPatch.length > 0) {
    reasons.push(`GitHub gave no diff for ${withoutPatch.length} text file(s): ${listed(withoutPatch)}`);
  }
  return reasons.length > 0 ? reasons.join("; ") : undefined;
}

function httpStatus(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error && typeof error.status === "number"
    ? error.status
    : undefined;
}

/** Files asked per page, and so the pages GitHub ever gives. */
const PER_PAGE = 100;
const FILE_PAGES = Math.ceil(GITHUB_FILE_CAP / PER_PAGE);

/**
 * The pull request's changed files, a page of 100 at a time, each read and validated as it arrives
 * (3,000 files are never parsed in one stretch of the thread), its JSON parsed by `JSON.parse`
 * (json-body.ts). Pages are asked by number while GitHub's `link` header names a next one, up to
 * the 30 it ever gives; a list cut short shows as fewer files than the PR's count (`incomplete`).
 */
async function changedFiles(
  octokit: Octokit,
  params: { owner: string; repo: string; pull_number: number },
  answerBytes: number | undefined,
): Promise<ChangedFile[]> {
  const files: ChangedFile[] = [];
  for (let page = 1; page <= FILE_PAGES; page++) {
    const { data, headers } = await octokit.rest.pulls.listFiles({
      ...params,
      per_page: PER_PAGE,
      page,
      request: UNPARSED,
    });
    let json: unknown;
    try {
      json = await jsonBody(data, answerBytes);
    } catch (error) {
      if (!(error instanceof AnswerTooLarge)) throw error;
      throw new GateError("ANSWER_TOO_LARGE", `GitHub's list of its changed files (page ${page}) ${error.message}`);
    }
    files.push(...parseChangedFiles(json));
    if (!/\brel="next"/.test(headers.link ?? "")) break;
  }
  return files;
}

/**
 * Reads a pull request and all its files from GitHub into the gate's `PullRequest` (the same
 * parser fixtures use). `incomplete` says when the gate cannot see the whole change, including a
 * file whose diff is over a cap (`capPatches`): that diff is not read, and the file is named.
 *
 * @example const { pr, incomplete } = await loadPullRequest(octokit, { owner: "acme", repo: "web", number: 7 });
 */
export async function loadPullRequest(
  octokit: Octokit,
  ref: PrRef,
  caps: FileCaps & { answerBytes?: number } = DEFAULT_FILE_CAPS,
): Promise<LoadedPullRequest> {
  const where = formatPrRef(ref);
  try {
    const params = { owner: ref.owner, repo: ref.repo, pull_number: ref.number };
    const { data: pull } = await octokit.rest.pulls.get(params);
    const files = await changedFiles(octokit, params, caps.answerBytes);
    const listed = pullRequestWith(pull, files);
    const capped = capPatches(listed.files, caps);
    const pr = { ...listed, files: capped.files };
    const reasons = [incompleteReason(listed, pull.changed_files), ...capped.notRead].filter(
      (r): r is string => r !== undefined,
    );
    return reasons.length > 0 ? { pr, incomplete: reasons.join("; ") } : { pr };
  } catch (error) {
    if (error instanceof PullRequestShapeError) {
      throw new GateError("PULL_REQUEST_MALFORMED", `cannot read pull request ${where}: ${error.message}`, {
        cause: error,
      });
    }
    if (error instanceof GateError && error.code === "ANSWER_TOO_LARGE") {
      throw new GateError("GITHUB_INTAKE", `cannot read pull request ${where}: ${error.message}`, { cause: error });
    }
    if (error instanceof GateError) throw error;
    const status = httpStatus(error);
    const why =
      status === 404
        ? "not found, or not visible to the gate's GitHub credentials"
        : status !== undefined
          ? `GitHub answered ${status}`
          : error instanceof Error
            ? error.message
            : String(error);
    throw new GateError("GITHUB_INTAKE", `cannot read pull request ${where}: ${why}`, { cause: error });
  }
}
