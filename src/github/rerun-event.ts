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
  if (event === "check_run") {
    const p = CheckRunRerequestedSchema.safeParse(json);
    if (!p.success) return undefined;
    const run = p.data.check_run;
    return {
      id,
      event,
      repo: p.data.repository.full_name,
      headSha: run.head_sha,
      numbers: run.pull_requests.map((pr) => pr.number),
      ...(run.external_id ? { reviewId: run.external_id } : {}),
      by: p.data.sender?.login ?? "github",
    };
  }
  if (event === "check_suite") {
    const p = CheckSuiteRerequestedSchema.safeParse(json);
    if (!p.success) return undefined;
    const suite = p.data.check_suite;
    return {
      id,
      event,
      repo: p.data.repository.full_name,
      headSha: suite.head_sha,
      numbers: suite.pull_requests.map((pr) => pr.number),
      by: p.data.sender?.login ?? "github",
    };
  }
  return undefined;
}
