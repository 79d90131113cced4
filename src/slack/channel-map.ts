import { GateError } from "../domain/errors.js";
import { isFullRepoName } from "../domain/github-names.js";

const CHANNEL = /^[CGD][A-Z0-9]+$/;

/**
 * Parses which channel each repository's cards go to, e.g. `GATE_SLACK_CHANNELS`. `*=C0` (or the
 * `defaultChannel` argument) catches every other repository.
 *
 * @example parseChannelMap("acme/web=C1,acme/api=C2", "C0")("acme/other") // "C0"
 */
export function parseChannelMap(spec: string | undefined, defaultChannel?: string): (repo: string) => string | undefined {
  const map = new Map<string, string>();
  let fallback = defaultChannel && defaultChannel.trim() !== "" ? defaultChannel.trim() : undefined;
  for (const part of (spec ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const eq = part.indexOf("=");
    const repo = part.slice(0, Math.max(eq, 0)).trim();
    const channel = part.slice(eq + 1).trim();
    if (eq <= 0 || !CHANNEL.test(channel) || (repo !== "*" && !isFullRepoName(repo))) {
      throw new GateError("SLACK_CONFIG", `"${part}" should be owner/repo=<channel id>, e.g. acme/web=C0123ABCD (or *=C… for all others)`);
    }
    if (repo === "*") fallback = channel;
    else map.set(repo.toLowerCase(), channel);
  }
  if (fallback !== undefined && !CHANNEL.test(fallback)) throw new GateError("SLACK_CONFIG", `"${fallback}" is not a Slack channel id (C…)`);
  return (repo) => map.get(repo.toLowerCase()) ?? fallback;
}
