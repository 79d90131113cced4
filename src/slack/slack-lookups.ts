import type { webApi } from "@slack/bolt";
import type { Logger } from "pino";
import type { ApproverConfig } from "../domain/decision.js";
import { authorSlackId } from "../review/decision-policy.js";
import { type ProfileCache, slackProfile, slackUserIsGitHubUser } from "./author-profile.js";
import type { People } from "./people.js";
import { type UserGroupCache, userGroupsNow } from "./user-groups.js";
import { groupIdsToRead } from "./who-to-ask.js";

/**
 * How long a click waits for what only Slack's API can say about the person (their approver
 * groups, whether their profile names the PR's author): under Slack's 3 s and the gate's 2.5 s
 * answer deadline, so a slow Slack is told as such ("try again, nothing changed") in time.
 */
export const LOOKUP_WAIT_MS = 2000;

/** How long a stored decision waits for its maker's name before it is applied with their id (the card is redrawn when the name comes). */
export const NAME_GRACE_MS = 300;

/** What a click's check may need of Slack's API. */
export interface LookupDeps {
  groups: UserGroupCache;
  profiles: ProfileCache;
  log: Logger;
  /** See `LOOKUP_WAIT_MS`. */
  lookupWaitMs?: number;
}

/** What Slack's API said about the person, as the decision door carries it. */
export interface WhoTheyAre {
  groups: string[];
  namesAuthor: boolean;
}

/**
 * The value of `promise` if it settles within `ms`, else undefined (it goes on, unwaited).
 *
 * @example await within(lookup, 2000) // undefined when the lookup is slower
 */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether only a profile can tell whether a Slack user is the PR's author (GATE_GITHUB_TO_SLACK does not map the author). */
function profileNeeded(approvers: ApproverConfig, author: string): boolean {
  return author !== "" && authorSlackId(author, approvers.githubToSlack) === undefined;
}

/**
 * Whether judging `userId` on a review by `author` needs Slack's API (see `whoTheyAre`): a button
 * that opens a modal then opens it first, as the trigger id lasts 3 s.
 *
 * @example lookupsNeeded({ approvers: ["U1", "S1"] }, "U1", "octocat") // true: the author is not mapped
 */
export function lookupsNeeded(approvers: ApproverConfig, userId: string, author: string): boolean {
  return groupIdsToRead(approvers, userId).length > 0 || profileNeeded(approvers, author);
}

/**
 * What only Slack's API can say about the person, asked only when the decision needs it: the
 * approver groups on lists that do not name them by id (none when they are listed by id), and
 * whether their profile names the PR's author (only when GATE_GITHUB_TO_SLACK does not map the
 * author). Both at once, within `LOOKUP_WAIT_MS`; undefined when Slack is slower (the look-ups go
 * on and fill the caches, so trying again in a moment decides at once).
 *
 * @example const who = await whoTheyAre(deps, client, "U1", approvers, "octocat"); if (!who) tellTryAgain();
 */
export async function whoTheyAre(
  deps: LookupDeps,
  client: webApi.WebClient,
  userId: string,
  approvers: ApproverConfig,
  author: string,
): Promise<WhoTheyAre | undefined> {
  const groupIds = groupIdsToRead(approvers, userId);
  const askProfile = profileNeeded(approvers, author);
  if (groupIds.length === 0 && !askProfile) return { groups: [], namesAuthor: false };
  const lookups = Promise.all([
    groupIds.length > 0 ? userGroupsNow(client, userId, groupIds, deps.groups, deps.log) : [],
    askProfile &&
      slackUserIsGitHubUser(client, userId, author, deps.profiles, (error) =>
        deps.log.warn({ err: error, userId }, "cannot read a Slack profile to recognise the PR author"),
      ),
  ]);
  const read = await within(lookups, deps.lookupWaitMs ?? LOOKUP_WAIT_MS);
  if (!read) {
    deps.log.warn({ userId, groupIds, askProfile }, "Slack's API did not say in time who is clicking; nothing decided");
    return undefined;
  }
  const [groups, namesAuthor] = read;
  return { groups, namesAuthor };
}

/**
 * Looks the decider's Slack display name up (through the profile cache) and remembers it, so the
 * check run, the card and the thread name them. Resolves true once the name is recorded; false
 * when Slack gave none or failed (logged: the id stands in). Started once the decision is checked,
 * beside storing it: a decision never waits for it longer than `NAME_GRACE_MS`.
 *
 * @example const named = lookUpName(deps, client, "U1"); await within(named, NAME_GRACE_MS);
 */
export function lookUpName(
  deps: Pick<LookupDeps, "profiles" | "log"> & { people?: People },
  client: webApi.WebClient,
  userId: string,
): Promise<boolean> {
  const people = deps.people;
  if (!people) return Promise.resolve(false);
  return slackProfile(client, userId, deps.profiles)
    .then(async ({ name }) => {
      if (!name) return false;
      await people.record(userId, name);
      return true;
    })
    .catch((error: unknown) => {
      deps.log.warn({ err: error, userId }, "cannot read a Slack profile for the decider's name");
      return false;
    });
}
