import type { webApi } from "@slack/bolt";
import type { Logger } from "pino";

/** The one Web API method this module needs (a WebClient has it). */
export interface UserGroupsClient {
  usergroups: { users: { list(args: { usergroup: string }): Promise<{ ok?: boolean; users?: string[] }> } };
}

/** Remembers group memberships for a while, so a click does not cost one API call per group. */
export class UserGroupCache {
  private readonly entries = new Map<string, { users: string[]; at: number }>();
  /** Look-ups under way: a second click waits for the first's answer rather than asking Slack again. */
  readonly pending = new Map<string, Promise<string[]>>();

  constructor(
    readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(groupId: string): string[] | undefined {
    const hit = this.entries.get(groupId);
    return hit && this.now() - hit.at < this.ttlMs ? hit.users : undefined;
  }

  set(groupId: string, users: string[]): void {
    this.entries.set(groupId, { users, at: this.now() });
  }
}

/**
 * The members of each user group (`usergroups.users.list`, needs `usergroups:read`), cached;
 * one look-up at a time per group.
 * A group that cannot be read counts as empty (fail closed) and is reported through `onError`.
 *
 * @example const members = await resolveUserGroups(app.client, ["S123"], cache); members.get("S123") // ["U1", "U2"]
 */
export async function resolveUserGroups(
  client: UserGroupsClient | webApi.WebClient,
  groupIds: string[],
  cache: UserGroupCache = new UserGroupCache(),
  onError?: (groupId: string, error: unknown) => void,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  await Promise.all(
    groupIds.map(async (groupId) => {
      const cached = cache.get(groupId);
      if (cached) {
        out.set(groupId, cached);
        return;
      }
      try {
        let lookup = cache.pending.get(groupId);
        if (lookup === undefined) {
          lookup = client.usergroups.users
            .list({ usergroup: groupId })
            .then((res) => {
              const users = res.users ?? [];
              cache.set(groupId, users);
              return users;
            })
            .finally(() => cache.pending.delete(groupId));
          cache.pending.set(groupId, lookup);
        }
        out.set(groupId, await lookup);
      } catch (error) {
        onError?.(groupId, error);
        out.set(groupId, []);
      }
    }),
  );
  return out;
}

/**
 * The groups, among `members`, that `userId` belongs to.
 *
 * @example groupsOf("U1", new Map([["S1", ["U1"]], ["S2", []]])) // ["S1"]
 */
export function groupsOf(userId: string, members: Map<string, string[]>): string[] {
  return [...members].filter(([, users]) => users.includes(userId)).map(([id]) => id);
}

/**
 * The groups, among `groupIds`, that `userId` is in now, as a click or a carried decision reads
 * them: through `cache`, a group that cannot be read counting as empty (and logged).
 *
 * @example await userGroupsNow(client, "U1", ["S1", "S2"], cache, log) // ["S1"]
 */
export async function userGroupsNow(
  client: UserGroupsClient | webApi.WebClient,
  userId: string,
  groupIds: string[],
  cache: UserGroupCache,
  log: Logger,
): Promise<string[]> {
  const members = await resolveUserGroups(client, groupIds, cache, (groupId, error) =>
    log.warn({ groupId, err: error }, "cannot read a Slack user group; counting it as empty"),
  );
  return groupsOf(userId, members);
}
