/** Which channel each repository's cards go to: `GATE_SLACK_CHANNELS`, parsed by `loadSettings`. */
export interface ChannelMap {
  /** Lower-cased `owner/repo` → channel id. */
  byRepo: Record<string, string>;
  /** Every other repository's channel (`*=C…`, or `GATE_SLACK_CHANNEL`). */
  fallback?: string;
}

/**
 * The channel of a repository's cards, or undefined when none is configured for it.
 *
 * @example channelFor({ byRepo: { "acme/web": "C1" }, fallback: "C0" })("acme/other") // "C0"
 */
export function channelFor(map: ChannelMap): (repo: string) => string | undefined {
  return (repo) => map.byRepo[repo.toLowerCase()] ?? map.fallback;
}
