import type { webApi } from "@slack/bolt";

type WebClient = webApi.WebClient;

/** How long a user's profile answer is trusted. */
const TTL_MS = 5 * 60 * 1000;

/** Remembers profile answers for a few minutes, so a burst of clicks costs one lookup per user. */
export class ProfileCache {
  private readonly entries = new Map<string, { at: number; texts: string[] }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(userId: string): string[] | undefined {
    const hit = this.entries.get(userId);
    return hit && this.now() - hit.at < TTL_MS ? hit.texts : undefined;
  }

  set(userId: string, texts: string[]): void {
    this.entries.set(userId, { at: this.now(), texts });
  }
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
  let texts = cache.get(userId);
  if (!texts) {
    try {
      const answer = await client.users.profile.get({ user: userId });
      const p = answer.profile ?? {};
      const fields = Object.values(p.fields ?? {}).flatMap((f) => [f?.value ?? "", f?.alt ?? ""]);
      texts = [p.display_name ?? "", p.real_name ?? "", ...fields].filter((t) => t !== "");
      cache.set(userId, texts);
    } catch (error) {
      onError?.(error);
      return false;
    }
  }
  return texts.some((t) => namesLogin(t, login));
}
