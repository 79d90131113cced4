import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "@octokit/rest";
import type { Logger } from "pino";
import { GateError } from "../domain/errors.js";

/** The GitHub settings the gate reads once, in `main.ts`/the CLI. */
export interface GitHubAuthConfig {
  /** REST API root; `https://<host>/api/v3` for GitHub Enterprise Server. */
  apiUrl?: string;
  /** A token (PAT or `GITHUB_TOKEN`): commit statuses only, no check runs. */
  token?: string;
  /** GitHub App id; with `privateKey`, the gate acts as the App (check runs). */
  appId?: string;
  /** The App's PEM private key; literal `\n` sequences (as env vars often carry them) are accepted. */
  privateKey?: string;
  /** Where Octokit's own warnings go (deprecations, retries); silent otherwise. */
  log?: Logger;
}

/** One configured way to get an authenticated Octokit, injected everywhere GitHub is called. */
export interface GitHubAuth {
  mode: "app" | "token";
  /** An Octokit for an App installation (app mode needs the id; token mode ignores it). */
  forInstallation(installationId?: number): Promise<Octokit>;
  /** An Octokit for a repository, looking up the App's installation on it in app mode. */
  forRepo(owner: string, repo: string): Promise<Octokit>;
}

const USER_AGENT = "pr-compliance-gate";

function octokitLog(log: Logger | undefined) {
  const quiet = () => undefined;
  return {
    debug: quiet,
    info: quiet,
    warn: (message: string) => log?.warn({ source: "octokit" }, message),
    // request-log reports every failed request here, expected 404s included: a warning, not an error.
    error: (message: string) => log?.warn({ source: "octokit" }, message),
  };
}

function normalizeKey(key: string): string {
  return key.includes("\\n") ? key.replace(/\\n/g, "\n") : key;
}

/**
 * Builds the one GitHub client factory: a GitHub App (when `appId` and `privateKey` are set) or a
 * token. Installation clients are cached (the App auth caches and renews their tokens).
 *
 * @example const octokit = await createGitHubAuth({ token: "ghp_..." }).forInstallation();
 */
export function createGitHubAuth(cfg: GitHubAuthConfig): GitHubAuth {
  const common = {
    userAgent: USER_AGENT,
    log: octokitLog(cfg.log),
    ...(cfg.apiUrl ? { baseUrl: cfg.apiUrl.replace(/\/+$/, "") } : {}),
  };

  if (cfg.appId && cfg.privateKey) {
    const appAuth = { appId: cfg.appId, privateKey: normalizeKey(cfg.privateKey) };
    const byInstallation = new Map<number, Octokit>();
    const forInstallation = async (installationId?: number): Promise<Octokit> => {
      if (installationId === undefined || !Number.isSafeInteger(installationId) || installationId <= 0) {
        throw new GateError(
          "CONFIG_INVALID",
          "GitHub App mode needs the installation id of the repository (from the webhook or forRepo)",
        );
      }
      let octokit = byInstallation.get(installationId);
      if (!octokit) {
        octokit = new Octokit({ ...common, authStrategy: createAppAuth, auth: { ...appAuth, installationId } });
        byInstallation.set(installationId, octokit);
      }
      return octokit;
    };
    const appOctokit = new Octokit({ ...common, authStrategy: createAppAuth, auth: appAuth });
    return {
      mode: "app",
      forInstallation,
      async forRepo(owner, repo) {
        let id: number;
        try {
          id = (await appOctokit.rest.apps.getRepoInstallation({ owner, repo })).data.id;
        } catch (error) {
          throw new GateError("GITHUB_INTAKE", `the GitHub App is not installed on ${owner}/${repo}`, {
            cause: error,
          });
        }
        return forInstallation(id);
      },
    };
  }

  if (cfg.token) {
    const octokit = new Octokit({ ...common, auth: cfg.token });
    return {
      mode: "token",
      forInstallation: async () => octokit,
      forRepo: async () => octokit,
    };
  }

  throw new GateError(
    "CONFIG_INVALID",
    "no GitHub credentials: set GITHUB_APP_ID and GITHUB_PRIVATE_KEY (a GitHub App) or GITHUB_TOKEN",
  );
}
