import { createAppAuth } from "@octokit/auth-app";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import Bottleneck from "bottleneck";
import type { Logger } from "pino";
import { GateError } from "../domain/errors.js";
import { checkGitHubCredentials } from "./credential-check.js";

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
  /** How failed and rate-limited requests are retried; GitHub's advice unless told. */
  retry?: Partial<GitHubRetryConfig>;
}

/** Retries and pacing of every GitHub request (`@octokit/plugin-retry`, `@octokit/plugin-throttling`). */
export interface GitHubRetryConfig {
  /** Retries of a request that failed with a 5xx, a 429 or a dropped connection, and of a rate-limited one. */
  retries: number;
  /** The backoff unit in ms: retry n waits (n+1)² units; a rate limit's Retry-After seconds count as units. */
  baseMs: number;
  /** Least time between two writes (POST, PATCH, …) of this process; GitHub asks for one second. */
  writeSpacingMs: number;
  /** Longest rate-limit wait honoured (ms of real time); a longer one fails the request now. */
  maxRateLimitWaitMs: number;
}

/** GitHub's own advice: 3 retries, seconds as the unit, writes a second apart. */
export const DEFAULT_GITHUB_RETRY: GitHubRetryConfig = {
  retries: 3,
  baseMs: 1000,
  writeSpacingMs: 1000,
  maxRateLimitWaitMs: 5 * 60_000,
};

/** One configured way to get an authenticated Octokit, injected everywhere GitHub is called. */
export interface GitHubAuth {
  mode: "app" | "token";
  /** An Octokit for an App installation (app mode needs the id; token mode ignores it). */
  forInstallation(installationId?: number): Promise<Octokit>;
  /** An Octokit for a repository, looking up the App's installation on it in app mode. */
  forRepo(owner: string, repo: string): Promise<Octokit>;
}

/** The auth `createGitHubAuth` builds, with the start-up check of its credentials (credential-check.ts). */
export interface CheckableGitHubAuth extends GitHubAuth {
  /** One request proving the credentials (App: its installations; token: its user); throws a GateError. */
  check(): Promise<void>;
}

const USER_AGENT = "pr-compliance-gate";

/** Octokit with retries of failed requests and GitHub's rate limits honoured. */
const GateOctokit = Octokit.plugin(retry, throttling);

/** The retry and throttle options of every client one auth builds (one write pacing shared by them). */
function resilience(cfg: GitHubRetryConfig, log: Logger | undefined) {
  // One write queue per auth: writes of all its installation clients are spaced together.
  const write = new Bottleneck.Group({ maxConcurrent: 1, minTime: cfg.writeSpacingMs });
  const retryRateLimit =
    (kind: string) =>
    (retryAfter: number, options: { method?: string; url?: string }, _octokit: unknown, retryCount: number) => {
      const waitMs = retryAfter * cfg.baseMs;
      const again = retryCount < cfg.retries && waitMs <= cfg.maxRateLimitWaitMs;
      log?.warn(
        { source: "octokit", method: options.method, url: options.url, retryAfter, retryCount, again },
        `GitHub ${kind} rate limit`,
      );
      return again;
    };
  return {
    retry: { retries: cfg.retries, retryAfterBaseValue: cfg.baseMs },
    throttle: {
      write,
      retryAfterBaseValue: cfg.baseMs,
      onRateLimit: retryRateLimit("primary"),
      onSecondaryRateLimit: retryRateLimit("secondary"),
    },
  };
}

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
export function createGitHubAuth(cfg: GitHubAuthConfig): CheckableGitHubAuth {
  const common = {
    userAgent: USER_AGENT,
    log: octokitLog(cfg.log),
    ...resilience({ ...DEFAULT_GITHUB_RETRY, ...cfg.retry }, cfg.log),
    ...(cfg.apiUrl ? { baseUrl: cfg.apiUrl.replace(/\/+$/, "") } : {}),
  };
  const apiUrl = cfg.apiUrl ?? "https://api.github.com";

  if (cfg.appId && cfg.privateKey) {
    const appAuth = { appId: cfg.appId, privateKey: normalizeKey(cfg.privateKey) };
    const byInstallation = new Map<number, Octokit>();
    const forInstallation = async (installationId?: number): Promise<Octokit> => {
      if (installationId === undefined || !Number.isSafeInteger(installationId) || installationId <= 0) {
        throw new GateError(
          "GITHUB_INTAKE",
          "GitHub App mode needs the installation id of the repository (from the webhook or forRepo)",
        );
      }
      let octokit = byInstallation.get(installationId);
      if (!octokit) {
        octokit = new GateOctokit({ ...common, authStrategy: createAppAuth, auth: { ...appAuth, installationId } });
        byInstallation.set(installationId, octokit);
      }
      return octokit;
    };
    const appOctokit = new GateOctokit({ ...common, authStrategy: createAppAuth, auth: appAuth });
    return {
      mode: "app",
      check: () => checkGitHubCredentials(appOctokit, { apiUrl, mode: "app" }),
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
    const octokit = new GateOctokit({ ...common, auth: cfg.token });
    return {
      mode: "token",
      check: () => checkGitHubCredentials(octokit, { apiUrl, mode: "token" }),
      forInstallation: async () => octokit,
      forRepo: async () => octokit,
    };
  }

  throw new GateError(
    "CONFIG_INVALID",
    "no GitHub credentials: set GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY (a GitHub App) or GITHUB_TOKEN",
  );
}
