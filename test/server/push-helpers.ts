import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { expect } from "vitest";
import { z } from "zod";
import { BUNDLED_FIXTURES_DIR, PACKAGE_ROOT } from "../../src/package-paths.js";
import { defined } from "../helpers/defined.js";
import { runGateCli } from "../helpers/run-cli.js";
import { INSTALLATION_ID, postWebhook, record, type ServedPr, type Stack, serveFixture } from "./helpers.js";

/** What the push tests share: GitHub's push example retargeted, a pushed change served by the fakes. */
/** The pusher of every test push (mapped to AUTHOR_SLACK where a test says so). */
export const PUSHER = "dev-priya";
export const BEFORE = "1111111111111111111111111111111111111111";
export const PUSHED_AT = "2026-03-02T11:00:00Z";
/** A made-up commit SHA. */
export const sha = (n: number) => n.toString(16).padStart(40, "a");

const examples = z
  .array(z.object({ name: z.string(), examples: z.array(z.record(z.string(), z.unknown())) }))
  .parse(JSON.parse(fs.readFileSync(createRequire(import.meta.url).resolve("@octokit/webhooks-examples"), "utf8")));

/** GitHub's own `push` example to a branch (with an installation), retargeted at a served repository. */
export function pushEvent(
  pr: ServedPr,
  opts: { after: string; commits: string[]; ref?: string; forced?: boolean; before?: string },
): Record<string, unknown> {
  const found = examples
    .find((e) => e.name === "push")
    ?.examples.find((e) => String(e.ref).startsWith("refs/heads/") && typeof e.installation === "object");
  const payload = structuredClone(defined(found, "a push example to a branch"));
  const repository = record(payload.repository);
  return {
    ...payload,
    ref: opts.ref ?? "refs/heads/main",
    before: opts.before ?? BEFORE,
    after: opts.after,
    created: false,
    deleted: false,
    forced: opts.forced ?? false,
    compare: `https://github.com/${pr.owner}/${pr.repo}/compare/${BEFORE.slice(0, 12)}...${opts.after.slice(0, 12)}`,
    commits: opts.commits.map((id, i) => ({ id, message: `change ${i + 1}`, timestamp: PUSHED_AT })),
    head_commit: { id: opts.after, message: "last", timestamp: PUSHED_AT },
    pusher: { name: PUSHER, email: "priya@example.com" },
    installation: { id: INSTALLATION_ID },
    repository: {
      ...repository,
      name: pr.repo,
      full_name: `${pr.owner}/${pr.repo}`,
      owner: { ...record(repository.owner), login: pr.owner, name: pr.owner },
      default_branch: "main",
    },
  };
}

/**
 * Serves a fixture's change as pushed straight to main: its files as the compare API's answer for
 * BEFORE...after, its `repo/` as the tarball at `after`, and `commits` (none with a pull request).
 */
export function servePush(s: Stack, commits: string[], opts: { forced?: boolean; fixture?: string } = {}) {
  const after = defined(commits.at(-1), "a commit");
  const fixture = opts.fixture ?? "002_new_dependency";
  const pr = serveFixture(s, fixture, { headSha: after });
  const changed = JSON.parse(fs.readFileSync(path.join(BUNDLED_FIXTURES_DIR, fixture, "files.json"), "utf8"));
  s.gh.setCompare(pr.owner, pr.repo, BEFORE, after, {
    status: opts.forced ? "diverged" : "ahead",
    files: [],
    changed,
    commits: commits.map((c, i) => ({ sha: c, message: `change ${i + 1}` })),
    ...(opts.forced ? { mergeBase: sha(999) } : {}),
  });
  return { pr, after };
}

/** Sends a push delivery (202 unless told), waits until the server is idle. */
export async function push(
  s: Stack,
  event: Record<string, unknown>,
  opts: { id?: string; expect?: number } = {},
): Promise<{ status: number; text: string }> {
  const res = await postWebhook(s.base, JSON.stringify(event), { event: "push", ...(opts.id ? { id: opts.id } : {}) });
  expect(res.status).toBe(opts.expect ?? 202);
  await s.server.idle();
  return res;
}

/** Every review of a push, in any status. */
export const pushReviews = async (s: Stack) =>
  (await s.server.gate.store.withStatus("queued", "running", "waiting_for_human", "done", "merged_unapproved")).filter(
    (r) => r.source === "push",
  );

/** `gate status` run as a person runs it, on the server's database. */
export function gateStatus(s: Stack, ...args: string[]) {
  const env = {
    ...process.env,
    GATE_DB: defined(s.env.GATE_DB, "the stack's database"),
    GATE_DATA_DIR: s.dataDir,
    GATE_LOG_LEVEL: "silent",
  };
  return runGateCli(["status", ...args], { env, cwd: PACKAGE_ROOT });
}
