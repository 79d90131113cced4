import { z } from "zod";

/** The fields of a `pull_request` webhook payload the gate reads (GitHub sends many more). */
export const PullRequestEventSchema = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    html_url: z.string(),
    /** When the PR last changed (a push moves it): orders deliveries that arrive out of order. */
    updated_at: z.string().optional(),
    draft: z.boolean().optional(),
    state: z.string(),
    user: z.object({ login: z.string() }).nullable(),
    head: z.object({ ref: z.string(), sha: z.string().regex(/^[0-9a-f]{40}$/) }),
    base: z.object({ ref: z.string(), sha: z.string() }),
    /** On `closed`: whether it was merged, by whom and when (read to mark a merge past the gate). */
    merged: z.boolean().nullable().optional(),
    merged_at: z.string().nullable().optional(),
    merged_by: z.object({ login: z.string() }).nullable().optional(),
    /** The PR's labels: one may be the emergency label (docs/operations.md, "Emergency changes"). */
    labels: z
      .array(z.object({ name: z.string() }).passthrough())
      .nullable()
      .optional(),
    /** On a merge: the commit that reached the base branch (the evidence's merge commit). */
    merge_commit_sha: z.string().nullable().optional(),
  }),
  repository: z.object({
    name: z.string(),
    full_name: z.string(),
    owner: z.object({ login: z.string() }),
    /** The branch a merge must reach to be a change to production (the evidence lists only those). */
    default_branch: z.string().optional(),
  }),
  installation: z.object({ id: z.number().int().positive() }).optional(),
  /** On `edited`: what changed. A new `base` means a new diff for the same head. */
  changes: z
    .object({ base: z.object({}).passthrough().optional() })
    .passthrough()
    .optional(),
  sender: z.object({ login: z.string() }).optional(),
  /** On `labeled`: the label added. */
  label: z.object({ name: z.string() }).passthrough().optional(),
});
/** A verified `pull_request` delivery, reduced to what the gate reads. */
export type PullRequestEvent = z.infer<typeof PullRequestEventSchema>;
