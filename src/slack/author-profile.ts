import type { webApi } from "@slack/bolt";

type WebClient = webApi.WebClient;

/** How long a user's profile answer is trusted. */
const TTL_MS = 5 * 60 * 1000;

/** What the gate reads of a Slack profile: the name to show, and every text that may name a GitHub account. */
export interface SlackProfile {
  /** The display name, else the real name; empty when the profile has neither. */
  name: string;
  texts: string[];
}

/**
 * Remembers profile answers for a few minutes, so a burst of clicks costs one lookup per user,
 * and one click one lookup whatever it needs of the profile (the decider's name, the author check).
 */
export class ProfileCache {
  private readonly entries = new Map<string, { at: number; profile: SlackProfile }>();
  /** Look-ups under way: a second asker of the same user waits for the first's answer. */
  readonly pending = new Map<string, Promise<SlackProfile>>();

  constructor(private readonly now: () => number = Date.now) {}

  get(userId: string): SlackProfile | undefined {
    const hit = this.entries.get(userId);
    return hit && this.now() - hit.at < TTL_MS ? hit.profile : undefined;
  }

  set(userId: string, profile: SlackProfile): void {
    this.entries.set(userId, { at: this.now(), profile });
  }
}

/**
 * A user's Slack profile through the cache (users.profile.get when it has none; one look-up at a
 * time per user). Throws when Slack does not answer.
 *
 * @example (await slackProfile(client, "U123", cache)).name // "Priya"
 */
export async function slackProfile(client: WebClient, userId: string, cache: ProfileCache): Promise<SlackProfile> {
  const cached = cache.get(userId);
  if (cached) return cached;
  const pending = cache.pending.get(userId);
  if (pending !== undefined) return pending;
  const lookup = readProfile(client, userId, cache).finally(() => cache.pending.delete(userId));
  cache.pending.set(userId, lookup);
  return lookup;
}

async function readProfile(client: WebClient, userId: string, cache: ProfileCache): Promise<SlackProfile> {
  const answer = await client.users.profile.get({ user: userId });
  const p = answer.profile ?? {};
  const fields = Object.values(p.fields ?? {}).flatMap((f) => [f?.value ?? "", f?.alt ?? ""]);
  const profile = {
    name: p.display_name || p.real_name || "",
    texts: [p.display_name ?? "", p.real_name ?? "", ...fields].filter((t) => t !== ""),
  };
  cache.set(userId, profile);
  return profile;
}

/** The ways a Slack profile names a GitHub account: `login`, `@login`, or a github.com URL. */
function namesLogin(text: string, login: string): boolean {
  const t = text.trim().toLowerCase();
  const l = login.toLowerCase();
  return (
    t === l ||
    t === `@${l}` ||
    new RegExp(`^(https?://)?(www\\.)?github\\.com/${l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/?$`).test(t)
  );
}

/**
 * Whether a Slack user's profile says they are the given GitHub user: a custom profile field
 * (e.g. "GitHub"), the display name or the name equal to the login, `@login`, or their
 * github.com URL. Used when GATE_GITHUB_TO_SLACK has no entry for a PR's author. A failed lookup
 * answers false and is reported through `onError`.
 *
 * @example await slackUserIsGitHubUser(client, "U123", "octocat", cache) // true when the profile says octocat
 */
export async function slackUserIsGitHubUser(
  client: WebClient,
  userId: string,
  login: string,
  cache: ProfileCache,
  onError?: (error: unknown) => void,
): Promise<boolean> {
  try {
    return (await slackProfile(client, userId, cache)).texts.some((t) => namesLogin(t, login));
  } catch (error) {
    onError?.(error);
    return false;
  }
}
