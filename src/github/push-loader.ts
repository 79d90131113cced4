import type { Octokit } from "@octokit/rest";
import type { IntakeResult } from "../domain/pull-request-loader.js";
import { parseChangedFiles, type PullRequest } from "../domain/pull-request.js";
import type { PushSource } from "../domain/review-source.js";
import { messageOf } from "../domain/errors.js";
import { capPatches, DEFAULT_FILE_CAPS, type FileCaps } from "../domain/file-caps.js";
import { snapshotOf } from "../domain/snapshot-ref.js";
import { incompleteReason } from "./intake.js";
import { subjectOf } from "./push-triage.js";
import { readRepoConfig, readRepoPolicies } from "./repo-config.js";

/** GitHub lists at most this many files in a comparison. */
const COMPARE_FILE_CAP = 300;

/**
 * Intake of a push reviewed after the fact: the change from the branch's head before the push (or,
 * for a force-push, where the old and new histories meet) to its head after, as GitHub's compare
 * API gives it (`GET /repos/{o}/{r}/compare/{base}...{head}`), in the same `PullRequest` shape a
 * pull request has (number 0, the pusher as its author). The configuration is read at the base,
 * never at the pushed head. A file list cut short, or a diff over `caps` (`capPatches`), marks the
 * review incomplete.
 *
 * @example const intake = await loadPush(octokit, source);
 */
export async function loadPush(
  octokit: Octokit,
  source: PushSource,
  caps: FileCaps = DEFAULT_FILE_CAPS,
): Promise<IntakeResult> {
  const where = { owner: source.owner, repo: source.repo };
  // No per_page: one answer holds up to 250 commits and every file GitHub lists (at most 300).
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    ...where,
    basehead: `${source.before}...${source.headSha}`,
  });
  const listed = parseChangedFiles(data.files ?? []);
  const capped = capPatches(listed, caps);
  const files = capped.files;
  // A force-push's old head is not in the new history: the change is read from where they meet.
  const baseSha = data.status === "ahead" || data.status === "identical" ? source.before : data.merge_base_commit.sha;
  const last = data.commits.at(-1);
  const author = last?.author?.login ?? last?.committer?.login ?? "unknown";
  const repo = `${source.owner}/${source.repo}`;
  const pr: PullRequest = {
    repo,
    number: 0,
    title: `${source.forced ? "Force-pushed" : "Pushed"} to ${source.branch}: ${subjectOf(last?.commit.message ?? "")}`,
    body: data.commits.map((c) => `${c.sha.slice(0, 7)} ${subjectOf(c.commit.message)}`).join("\n"),
    author,
    draft: false,
    labels: [],
    baseRef: source.branch,
    baseSha,
    headRef: source.branch,
    headSha: source.headSha,
    url: data.html_url,
    files,
  };
  const problems: string[] = [];
  const cut =
    files.length >= COMPARE_FILE_CAP
      ? `GitHub lists ${files.length} files of the push (it stops at ${COMPARE_FILE_CAP})`
      : undefined;
  for (const p of [cut, incompleteReason({ ...pr, files: listed }, undefined), ...capped.notRead])
    if (p) problems.push(p);
  let repoConfig: IntakeResult["repoConfig"];
  try {
    repoConfig = await readRepoConfig(octokit, { ...where, ref: baseSha });
  } catch (error) {
    problems.push(`${messageOf(error)}; the review cannot use the repository's configuration`);
  }
  let repoPolicies: IntakeResult["repoPolicies"];
  try {
    repoPolicies = await readRepoPolicies(octokit, { ...where, ref: baseSha }, (unread) => problems.push(unread));
  } catch (error) {
    problems.push(`${messageOf(error)}; the review cannot use the repository's own policies`);
  }
  return {
    pr,
    snapshot: snapshotOf(source),
    ...(problems.length > 0 ? { incomplete: problems.join("; ") } : {}),
    ...(repoConfig ? { repoConfig } : {}),
    ...(repoPolicies?.length ? { repoPolicies } : {}),
  };
}
