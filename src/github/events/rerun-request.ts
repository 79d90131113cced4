import { z } from "zod";

const PullRequests = z.array(z.object({ number: z.number().int().positive() })).default([]);
const Repository = z.object({ full_name: z.string() });

/** The fields of a `check_run` `rerequested` delivery the gate reads: GitHub's "Re-run" on its check. */
export const CheckRunRerequestedSchema = z.object({
  action: z.literal("rerequested"),
  check_run: z.object({
    head_sha: z.string().regex(/^[0-9a-f]{40}$/),
    /** The gate sets the review id here. */
    external_id: z.string().nullable().optional(),
    pull_requests: PullRequests,
  }),
  repository: Repository,
  sender: z.object({ login: z.string() }).optional(),
});

/** The fields of a `check_suite` `rerequested` delivery the gate reads: "Re-run all checks". */
export const CheckSuiteRerequestedSchema = z.object({
  action: z.literal("rerequested"),
  check_suite: z.object({ head_sha: z.string().regex(/^[0-9a-f]{40}$/), pull_requests: PullRequests }),
  repository: Repository,
  sender: z.object({ login: z.string() }).optional(),
});

/** A verified request, from GitHub, to review a head again. */
export interface RerunRequest {
  /** `X-GitHub-Delivery`. */
  id: string;
  event: "check_run" | "check_suite";
  /** `owner/repo`. */
  repo: string;
  headSha: string;
  /** The pull requests GitHub names for the head (may be empty). */
  numbers: number[];
  /** The re-run check run's external id: the review it showed. */
  reviewId?: string;
  /** Who pressed "Re-run" on GitHub. */
  by: string;
}

/**
 * Reads a verified `check_run`/`check_suite` delivery as a re-run request; undefined when it is
 * not one (another action, or fields missing).
 *
 * @example rerunRequest("check_run", "d-1", json)?.reviewId // "r-3f9a1c2b7d4e"
 */
export function rerunRequest(event: string, id: string, json: unknown): RerunRequest | undefined {
  const parsed =
    event === "check_run"
      ? CheckRunRerequestedSchema.safeParse(json)
      : event === "check_suite"
        ? CheckSuiteRerequestedSchema.safeParse(json)
        : undefined;
  if (!parsed?.success) return undefined;
  const data = parsed.data;
  // A check run names its review (external_id); a suite holds runs of several reviews, and names none.
  const target = "check_run" in data ? data.check_run : data.check_suite;
  const reviewId = "check_run" in data ? data.check_run.external_id : undefined;
  return {
    id,
    event: "check_run" in data ? "check_run" : "check_suite",
    repo: data.repository.full_name,
    headSha: target.head_sha,
    numbers: target.pull_requests.map((pr) => pr.number),
    ...(reviewId ? { reviewId } : {}),
    by: data.sender?.login ?? "github",
  };
}
