import fs from "node:fs";
import { GateError } from "../domain/errors.js";
import type { GitHubAuthConfig, GitHubRetryConfig } from "./client.js";

/** An optional whole number within bounds, or a problem naming the variable. */
function intSetting(env: NodeJS.ProcessEnv, name: string, min: number, max: number, problems: string[]): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}`);
    return undefined;
  }
  return value;
}

/**
 * The GitHub credentials in the environment: a GitHub App (GATE_GITHUB_APP_ID with
 * GATE_GITHUB_PRIVATE_KEY or GATE_GITHUB_PRIVATE_KEY_PATH) or a token (GITHUB_TOKEN), and
 * GATE_GITHUB_API_URL for GitHub Enterprise Server, and how requests are retried
 * (GATE_GITHUB_RETRIES, GATE_GITHUB_RETRY_BASE_MS, GATE_GITHUB_WRITE_SPACING_MS). `undefined` when no
 * credentials are set; contradictory or half-set credentials fail, naming the variables.
 *
 * @example const github = loadGitHubSettings(process.env); // { token: "ghp_…" }
 */
export function loadGitHubSettings(env: NodeJS.ProcessEnv): Omit<GitHubAuthConfig, "log"> | undefined {
  const val = (k: string) => (env[k] && env[k] !== "" ? env[k] : undefined);
  const appId = val("GATE_GITHUB_APP_ID");
  const keyText = val("GATE_GITHUB_PRIVATE_KEY");
  const keyPath = val("GATE_GITHUB_PRIVATE_KEY_PATH");
  const token = val("GITHUB_TOKEN");
  const apiUrl = val("GATE_GITHUB_API_URL");
  const problems: string[] = [];
  if (appId !== undefined && !/^\d+$/.test(appId)) problems.push("GATE_GITHUB_APP_ID must be the App's numeric id");
  if (keyText && keyPath) problems.push("GATE_GITHUB_PRIVATE_KEY and GATE_GITHUB_PRIVATE_KEY_PATH are both set: keep one");
  let privateKey = keyText;
  if (keyPath) {
    try {
      privateKey = fs.readFileSync(keyPath, "utf8");
    } catch {
      problems.push(`GATE_GITHUB_PRIVATE_KEY_PATH: cannot read ${keyPath}`);
    }
  }
  const app = Boolean(appId || keyText || keyPath);
  if (app && !(appId && (keyText || keyPath))) {
    problems.push("a GitHub App needs both GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY (or _PATH)");
  }
  if (app && token) problems.push("GITHUB_TOKEN and a GitHub App are both set: keep one");
  if (apiUrl !== undefined && !/^https?:\/\//.test(apiUrl)) problems.push("GATE_GITHUB_API_URL must be an http(s) URL");
  const retries = intSetting(env, "GATE_GITHUB_RETRIES", 0, 10, problems);
  const baseMs = intSetting(env, "GATE_GITHUB_RETRY_BASE_MS", 1, 60_000, problems);
  const writeSpacingMs = intSetting(env, "GATE_GITHUB_WRITE_SPACING_MS", 0, 60_000, problems);
  const retry: Partial<GitHubRetryConfig> = {
    ...(retries !== undefined ? { retries } : {}),
    ...(baseMs !== undefined ? { baseMs } : {}),
    ...(writeSpacingMs !== undefined ? { writeSpacingMs } : {}),
  };
  if (problems.length > 0) throw new GateError("CONFIG_INVALID", problems.join("; "));
  if (!app && !token) return undefined;
  return {
    ...(apiUrl ? { apiUrl } : {}),
    ...(Object.keys(retry).length > 0 ? { retry } : {}),
    ...(app ? { appId: appId!, privateKey: privateKey! } : { token: token! }),
  };
}
