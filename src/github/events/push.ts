import type { Webhooks } from "@octokit/webhooks";
import { z } from "zod";
import type { PushedChange } from "../../domain/pushed-change.js";
import { answerRecorded, type DeliveryContexts } from "./delivery.js";
import type { WebhookSink } from "./sink.js";

const SHA = z.string().regex(/^[0-9a-f]{40}$/);
/** GitHub's `before` of a branch just created, and `after` of one just deleted. */
const NO_COMMIT = /^0{40}$/;

/** The fields of a `push` webhook payload the gate reads (GitHub sends many more). */
export const PushEventSchema = z.object({
  ref: z.string(),
  before: SHA,
  after: SHA,
  created: z.boolean().optional(),
  deleted: z.boolean().optional(),
  forced: z.boolean().optional(),
  compare: z.string().optional(),
  commits: z.array(z.object({ id: SHA, message: z.string(), timestamp: z.string().optional() })).default([]),
  head_commit: z.object({ id: SHA, timestamp: z.string().optional() }).nullable().optional(),
  pusher: z.object({ name: z.string() }).optional(),
  sender: z.object({ login: z.string() }).optional(),
  repository: z.object({
    name: z.string(),
    full_name: z.string(),
    owner: z.object({ login: z.string().optional(), name: z.string().optional() }),
    default_branch: z.string(),
  }),
  installation: z.object({ id: z.number().int().positive() }).optional(),
});
/** A verified `push` delivery, reduced to what the gate reads. */
export type PushEvent = z.infer<typeof PushEventSchema>;

/**
 * Whether a push lands on a branch the gate watches: the repository's default branch, or one of
 * `GATE_PROTECTED_BRANCHES`. A tag, another branch, a branch's creation (nothing before it to
 * compare with) or deletion is not watched.
 *
 * @example watchedBranch(event, ["release"]) // "main" for a push to refs/heads/main of a repository whose default is main
 */
export function watchedBranch(event: PushEvent, protectedBranches: readonly string[]): string | undefined {
  if (!event.ref.startsWith("refs/heads/")) return undefined;
  if (event.deleted || NO_COMMIT.test(event.after) || event.created || NO_COMMIT.test(event.before)) return undefined;
  const branch = event.ref.slice("refs/heads/".length);
  return branch === event.repository.default_branch || protectedBranches.includes(branch) ? branch : undefined;
}

/** The push as the inbox keeps it. */
export function pushedChange(event: PushEvent, branch: string, receivedAt: string): PushedChange {
  const owner = event.repository.owner.login ?? event.repository.owner.name ?? event.repository.full_name.split("/")[0];
  return {
    repo: event.repository.full_name,
    owner: owner ?? "",
    name: event.repository.name,
    branch,
    before: event.before,
    after: event.after,
    forced: event.forced ?? false,
    pusher: event.pusher?.name ?? event.sender?.login ?? "unknown",
    at: event.head_commit?.timestamp ?? receivedAt,
    commits: event.commits.map((c) => ({ sha: c.id, message: c.message })),
    ...(event.compare ? { compareUrl: event.compare } : {}),
    ...(event.installation ? { installationId: event.installation.id } : {}),
  };
}

/**
 * `push`: a push to a watched branch is recorded (202) for the gate to look its commits up and
 * review those with no merged pull request after the fact; any other push answers 200 "ignored",
 * nothing stored.
 */
export function onPush(
  webhooks: Webhooks,
  pushed: NonNullable<WebhookSink["pushed"]>,
  protectedBranches: readonly string[],
  deliveries: DeliveryContexts,
): void {
  webhooks.on("push", async ({ payload: raw }) => {
    const delivery = deliveries.of(raw);
    const parsed = PushEventSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      delivery
        .log()
        .warn({ issue: issue?.message, path: issue?.path.join(".") }, "push payload lacks fields the gate reads");
      delivery.answer = { status: 400, text: "push payload is missing fields" };
      return;
    }
    const branch = watchedBranch(parsed.data, protectedBranches);
    if (!branch) {
      delivery.log().debug({ ref: parsed.data.ref }, "push to a branch the gate does not watch: ignored");
      return;
    }
    const push = pushedChange(parsed.data, branch, new Date().toISOString());
    const { duplicate } = await pushed({ id: delivery.id, event: delivery.event, push });
    answerRecorded(delivery, duplicate);
    if (!duplicate)
      delivery
        .log()
        .info(
          { repo: push.repo, branch, before: push.before, after: push.after, forced: push.forced, pusher: push.pusher },
          push.forced ? "force-push to a watched branch" : "push to a watched branch",
        );
  });
}
