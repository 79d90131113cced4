import type { ReviewRegistration } from "../domain/review-store.js";
import type { ReviewSource } from "../domain/review-source.js";

/** What a registration takes from the pull request it reviews (a webhook's PR, a loaded PR, an older review's record). */
export type RegisteredPr = Pick<
  ReviewRegistration,
  "repo" | "number" | "headSha" | "title" | "url" | "author" | "installationId" | "eventAt" | "pr"
>;

/**
 * The one way a review registration is built, whoever asks (a webhook delivery, the CLI, a
 * re-run): where the PR comes from, and the PR's own facts.
 *
 * @example registrationFor({ kind: "fixture", fixturesDir, name }, loadedPr)
 */
export function registrationFor(source: ReviewSource, pr: RegisteredPr): ReviewRegistration {
  return {
    source,
    repo: pr.repo,
    number: pr.number,
    headSha: pr.headSha,
    ...(pr.title !== undefined ? { title: pr.title } : {}),
    ...(pr.url !== undefined ? { url: pr.url } : {}),
    ...(pr.author !== undefined ? { author: pr.author } : {}),
    ...(pr.installationId !== undefined ? { installationId: pr.installationId } : {}),
    ...(pr.eventAt !== undefined ? { eventAt: pr.eventAt } : {}),
    // A push has no pull request number: its key (`owner/repo@sha7`) is kept, a re-run's included.
    ...(source.kind === "push" && pr.pr !== undefined ? { pr: pr.pr } : {}),
  };
}
