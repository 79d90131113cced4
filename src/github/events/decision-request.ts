import { z } from "zod";
import { CHECK_ACTION_APPROVE, CHECK_ACTION_REJECT } from "../check-run.js";

/** The fields of a `check_run` `requested_action` delivery the gate reads: a click on its check run's button. */
export const CheckRunRequestedActionSchema = z.object({
  action: z.literal("requested_action"),
  requested_action: z.object({ identifier: z.enum([CHECK_ACTION_APPROVE, CHECK_ACTION_REJECT]) }),
  check_run: z.object({
    id: z.number().int().positive(),
    head_sha: z.string().regex(/^[0-9a-f]{40}$/),
    /** The gate sets the review id here. */
    external_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  }),
  repository: z.object({ full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/) }),
  /** The GitHub user who clicked: the person deciding. */
  sender: z.object({ login: z.string().min(1).max(100) }),
});

/** A verified request, from GitHub, to decide a waiting review (a click on its check run's Approve or Reject). */
export interface GitHubDecisionRequest {
  /** `X-GitHub-Delivery`: the de-duplication key. */
  id: string;
  event: "check_run";
  kind: "approve" | "reject";
  /** The check run's external id: the review it shows. */
  reviewId: string;
  /** `owner/repo`, as the delivery names it. */
  repo: string;
  headSha: string;
  checkRunId: number;
  /** Who clicked (`sender.login`). */
  login: string;
}

/**
 * Reads a verified `check_run` delivery as a decision request; undefined when fields are missing
 * or malformed, or the button is not one the gate offers.
 *
 * @example decisionRequest("d-1", json)?.kind // "approve"
 */
export function decisionRequest(id: string, json: unknown): GitHubDecisionRequest | undefined {
  const parsed = CheckRunRequestedActionSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { check_run: run, requested_action: action, repository, sender } = parsed.data;
  return {
    id,
    event: "check_run",
    kind: action.identifier,
    reviewId: run.external_id,
    repo: repository.full_name,
    headSha: run.head_sha,
    checkRunId: run.id,
    login: sender.login,
  };
}
