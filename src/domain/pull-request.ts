import { z } from "zod";
import { describeIssues, GateError } from "./errors.js";
import { isFullRepoName } from "./github-names.js";

/** The file statuses GitHub's `pulls/{n}/files` endpoint reports. */
export const FileStatusSchema = z.enum(["added", "removed", "modified", "renamed", "copied", "changed", "unchanged"]);
export type FileStatus = z.infer<typeof FileStatusSchema>;

/** One changed file of a pull request, as GitHub reports it (a subset of fields). */
export const GitHubFileSchema = z.object({
  filename: z.string().min(1),
  status: FileStatusSchema,
  additions: z.number().int().nonnegative().default(0),
  deletions: z.number().int().nonnegative().default(0),
  changes: z.number().int().nonnegative().default(0),
  patch: z.string().optional(),
  previous_filename: z.string().optional(),
});

/** The pull request object of `GET /repos/{owner}/{repo}/pulls/{number}` (the fields the gate reads). */
export const GitHubPullSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullable().optional(),
  html_url: z.string().optional(),
  user: z.object({ login: z.string() }).nullable().optional(),
  draft: z.boolean().optional(),
  labels: z.array(z.object({ name: z.string() })).optional(),
  base: z.object({
    ref: z.string(),
    sha: z.string(),
    repo: z.object({ full_name: z.string() }).nullable().optional(),
  }),
  head: z.object({ ref: z.string(), sha: z.string() }),
  /** Fixtures may name the repository here instead of `base.repo.full_name`. */
  repo: z.string().optional(),
});

/** A changed file in the gate's own shape. Plain JSON: it is checkpointed. */
export interface ChangedFile {
  filename: string;
  status: FileStatus;
  additions: number;
  deletions: number;
  changes: number;
  /** The unified-diff hunks; absent when GitHub omits it (binary or very large files). */
  patch?: string;
  previousFilename?: string;
  /** Why the gate left out a diff GitHub gave (over `GATE_MAX_FILE_LINES` or `GATE_MAX_FILE_BYTES`: `capPatches`). */
  patchNotRead?: string;
}

/**
 * The one pull-request value every part of the gate reads, whether it came from GitHub or a fixture.
 * Plain JSON: it lives in checkpointed graph state.
 *
 * @example parsePullRequest(prJson, filesJson).repo // "acme/web"
 */
export interface PullRequest {
  /** `owner/name`. */
  repo: string;
  number: number;
  title: string;
  body: string;
  author: string;
  draft: boolean;
  labels: string[];
  baseRef: string;
  baseSha: string;
  headRef: string;
  headSha: string;
  url: string;
  files: ChangedFile[];
}

/** A pull request without its files: what the graph's checkpointed state keeps of it. */
export type PullRequestSummary = Omit<PullRequest, "files"> & { fileCount: number };

/**
 * The summary of a pull request (everything but the files and their patches).
 *
 * @example summarizePullRequest(pr).fileCount // 3
 */
export function summarizePullRequest(pr: PullRequest): PullRequestSummary {
  const { files, ...rest } = pr;
  return { ...rest, fileCount: files.length };
}

/** `owner/name#123`, the way people write a PR. */
export function prKey(pr: Pick<PullRequest, "repo" | "number">): string {
  return `${pr.repo}#${pr.number}`;
}

/** Raised with the field path when a pull request or its files do not have GitHub's shape. */
export class PullRequestShapeError extends GateError {
  constructor(
    readonly part: "pr" | "files",
    readonly issues: string,
  ) {
    super("PULL_REQUEST_MALFORMED", `${part === "pr" ? "the pull request" : "the files list"} is malformed: ${issues}`);
    this.name = "PullRequestShapeError";
  }
}

/**
 * Builds the gate's `PullRequest` from GitHub's REST shapes (a live response or a fixture's files).
 *
 * @example parsePullRequest(JSON.parse(prText), JSON.parse(filesText))
 */
export function parsePullRequest(prJson: unknown, filesJson: unknown): PullRequest {
  return pullRequestWith(prJson, parseChangedFiles(filesJson));
}

/**
 * GitHub's changed-file objects (a whole list, or one page of it) as the gate's `ChangedFile`s.
 *
 * @example parseChangedFiles(page.data).map((f) => f.filename) // ["src/a.ts"]
 */
export function parseChangedFiles(filesJson: unknown): ChangedFile[] {
  const files = z.array(GitHubFileSchema).safeParse(filesJson);
  if (!files.success) throw new PullRequestShapeError("files", describeIssues(files.error, { max: 5 }));
  return files.data.map((f) => ({
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.changes,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
    ...(f.previous_filename !== undefined ? { previousFilename: f.previous_filename } : {}),
  }));
}

/**
 * The gate's `PullRequest` from GitHub's pull object and files already read (`parseChangedFiles`).
 *
 * @example pullRequestWith(pull, files).headSha
 */
export function pullRequestWith(prJson: unknown, files: ChangedFile[]): PullRequest {
  const pr = GitHubPullSchema.safeParse(prJson);
  if (!pr.success) throw new PullRequestShapeError("pr", describeIssues(pr.error, { max: 5 }));
  const p = pr.data;
  const repo = p.base.repo?.full_name ?? p.repo;
  if (!repo || !isFullRepoName(repo)) {
    throw new PullRequestShapeError("pr", "base.repo.full_name (or repo): missing or not owner/name");
  }
  return {
    repo,
    number: p.number,
    title: p.title,
    body: p.body ?? "",
    author: p.user?.login ?? "unknown",
    draft: p.draft ?? false,
    labels: (p.labels ?? []).map((l) => l.name),
    baseRef: p.base.ref,
    baseSha: p.base.sha,
    headRef: p.head.ref,
    headSha: p.head.sha,
    url: p.html_url ?? `https://github.com/${repo}/pull/${p.number}`,
    files,
  };
}
