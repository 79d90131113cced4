import type { Octokit } from "@octokit/rest";
import { GateError, rootCauseMessage } from "../domain/errors.js";

/** What a start-up check asks GitHub, and which settings it proves. */
export interface CredentialProbe {
  /** The REST API root asked (`https://api.github.com` unless GATE_GITHUB_API_URL says otherwise). */
  apiUrl: string;
  /** `app`: the App's installations (its JWT); `token`: the token's user. */
  mode: "app" | "token";
}

/** What each kind of credential must be, said when GitHub refuses it. */
const WHAT_TO_DO = {
  app: 'GATE_GITHUB_APP_ID must be the App\'s id (its settings page, "App ID") and GATE_GITHUB_PRIVATE_KEY a private key generated for that App, unrevoked',
  token: "GITHUB_TOKEN must be a token GitHub accepts (not expired or revoked)",
} as const;

/** An Octokit request error's status and whether GitHub answered at all (a network error carries no response). */
function answerOf(error: unknown): { status: number; answered: boolean; message: string } | undefined {
  if (typeof error !== "object" || error === null || !("status" in error) || typeof error.status !== "number")
    return undefined;
  const answered = "response" in error && error.response !== undefined && error.response !== null;
  return { status: error.status, answered, message: error instanceof Error ? error.message : String(error) };
}

/**
 * Checks GitHub credentials once, at start, with one request: an App lists its installations (one
 * is enough), a token reads its user. No answer at all (or a 5xx after retries) is
 * `SERVICE_UNREACHABLE` naming the host; a refused credential (401, or 404 for an App GitHub does
 * not know) is `CONFIG_INVALID` naming the settings. A token that may not read its user (403, as
 * an Actions `GITHUB_TOKEN`) was accepted: it passes.
 *
 * @example await checkGitHubCredentials(appOctokit, { apiUrl: "https://api.github.com", mode: "app" });
 */
export async function checkGitHubCredentials(octokit: Octokit, probe: CredentialProbe): Promise<void> {
  const route = probe.mode === "app" ? "GET /app/installations" : "GET /user";
  const host = new URL(probe.apiUrl).host;
  const settings = probe.mode === "app" ? "GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY" : "GITHUB_TOKEN";
  try {
    await (probe.mode === "app"
      ? octokit.rest.apps.listInstallations({ per_page: 1 })
      : octokit.rest.users.getAuthenticated());
  } catch (error) {
    const answer = answerOf(error);
    if (answer?.answered && probe.mode === "token" && answer.status === 403) return;
    if (answer?.answered && answer.status < 500) {
      throw new GateError(
        "CONFIG_INVALID",
        `${settings}: GitHub at ${host} refused ${probe.mode === "app" ? "them" : "it"} (${route} answered ${answer.status}: ${answer.message}); ${WHAT_TO_DO[probe.mode]}`,
        { cause: error },
      );
    }
    const what = answer?.answered
      ? `${route} answered ${answer.status} (${answer.message})`
      : `${route} got no answer (${rootCauseMessage(error)})`;
    throw new GateError(
      "SERVICE_UNREACHABLE",
      `cannot reach GitHub at ${host} (GATE_GITHUB_API_URL) to check ${settings}: ${what}`,
      { cause: error },
    );
  }
}
