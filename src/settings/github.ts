import fs from "node:fs";
import { z } from "zod";
import type { GitHubAuthConfig } from "../github/client.js";
import { flag, httpUrl, integer } from "./fields.js";

/** GitHub credentials: a GitHub App or a token, and the API root for GitHub Enterprise Server. */
export type GitHubCredentials = Omit<GitHubAuthConfig, "log">;

export interface GitHubSettings {
  /** Unset when no credentials are configured (fixtures and the demo need none). */
  auth?: GitHubCredentials;
  /** `GITHUB_WEBHOOK_SECRET`: required by the server, which checks every delivery against it. */
  webhookSecret?: string;
  /** `GATE_REVIEW_DRAFTS`: review draft PRs too. */
  reviewDrafts: boolean;
  /** `GATE_PR_COMMENT`: the server keeps one summary comment on each reviewed PR (on by default). */
  prComment: boolean;
  /** `GATE_PROTECTED_BRANCHES`: branches whose pushes are watched besides each repository's default branch. */
  protectedBranches: string[];
  /**
   * Where people open GitHub pages (commit, file, PR): `GATE_GITHUB_WEB_URL`, else derived from a
   * GitHub Enterprise Server `GATE_GITHUB_API_URL` (`https://HOST/api/v3` → `https://HOST`), else github.com.
   */
  webUrl: string;
}

/**
 * GitHub's web address for an API address: GitHub Enterprise Server serves its API under
 * `/api/v3`; anything else is github.com's.
 *
 * @example webUrlOf("https://ghe.acme.io/api/v3") // "https://ghe.acme.io"
 */
export function webUrlOf(apiUrl: string | undefined): string {
  const m = apiUrl ? /^(https?:\/\/[^/]+(?:\/[^/]+)*?)\/api\/v3\/?$/.exec(apiUrl) : null;
  return m?.[1] ?? "https://github.com";
}

/**
 * The GitHub settings: a GitHub App (`GATE_GITHUB_APP_ID` with `GATE_GITHUB_PRIVATE_KEY` or
 * `GATE_GITHUB_PRIVATE_KEY_PATH`) or a token (`GITHUB_TOKEN`), never both; half-set or
 * contradictory credentials fail, naming the variables. How requests are retried and paced:
 * `GATE_GITHUB_RETRIES`, `GATE_GITHUB_RETRY_BASE_MS`, `GATE_GITHUB_WRITE_SPACING_MS`.
 *
 * @example githubSchema.parse({ GITHUB_TOKEN: "ghp_x" }).auth // { token: "ghp_x" }
 */
export const githubSchema = z
  .object({
    GATE_GITHUB_APP_ID: z.string().regex(/^\d+$/, "must be the App's numeric id").optional(),
    GATE_GITHUB_PRIVATE_KEY: z.string().optional(),
    GATE_GITHUB_PRIVATE_KEY_PATH: z.string().optional(),
    GITHUB_TOKEN: z.string().optional(),
    GATE_GITHUB_API_URL: httpUrl.optional(),
    GATE_GITHUB_WEB_URL: httpUrl.optional(),
    GATE_GITHUB_RETRIES: integer(0).max(10).optional(),
    GATE_GITHUB_RETRY_BASE_MS: integer(1).max(60_000).optional(),
    GATE_GITHUB_WRITE_SPACING_MS: integer(0).max(60_000).optional(),
    GITHUB_WEBHOOK_SECRET: z.string().optional(),
    GATE_REVIEW_DRAFTS: flag.default(false),
    GATE_PR_COMMENT: flag.default(true),
    GATE_PROTECTED_BRANCHES: z
      .string()
      .optional()
      .transform((v) => [...new Set((v ?? "").split(",").map((b) => b.trim()))].filter((b) => b !== ""))
      .refine((list) => list.every((b) => /^[^\s~^:?*[\\]+$/.test(b) && !b.startsWith("refs/")), {
        message: "must be branch names separated by commas (main,release), without refs/heads/",
      }),
  })
  .transform((e, ctx): GitHubSettings => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const {
      GATE_GITHUB_APP_ID: appId,
      GATE_GITHUB_PRIVATE_KEY: keyText,
      GATE_GITHUB_PRIVATE_KEY_PATH: keyPath,
      GITHUB_TOKEN: token,
    } = e;
    if (keyText && keyPath) problem("GATE_GITHUB_PRIVATE_KEY_PATH", "GATE_GITHUB_PRIVATE_KEY is set too: keep one");
    let privateKey = keyText;
    if (keyPath) {
      try {
        privateKey = fs.readFileSync(keyPath, "utf8");
      } catch {
        problem("GATE_GITHUB_PRIVATE_KEY_PATH", `cannot read ${keyPath}`);
      }
    }
    const app = Boolean(appId || keyText || keyPath);
    if (app && !(appId && (keyText || keyPath))) {
      problem(
        appId ? "GATE_GITHUB_PRIVATE_KEY" : "GATE_GITHUB_APP_ID",
        "a GitHub App needs both GATE_GITHUB_APP_ID and GATE_GITHUB_PRIVATE_KEY (or _PATH)",
      );
    }
    if (app && token) problem("GITHUB_TOKEN", "a GitHub App is set too (GATE_GITHUB_APP_ID): keep one");
    const retry = {
      ...(e.GATE_GITHUB_RETRIES !== undefined ? { retries: e.GATE_GITHUB_RETRIES } : {}),
      ...(e.GATE_GITHUB_RETRY_BASE_MS !== undefined ? { baseMs: e.GATE_GITHUB_RETRY_BASE_MS } : {}),
      ...(e.GATE_GITHUB_WRITE_SPACING_MS !== undefined ? { writeSpacingMs: e.GATE_GITHUB_WRITE_SPACING_MS } : {}),
    };
    const common = {
      ...(e.GATE_GITHUB_API_URL ? { apiUrl: e.GATE_GITHUB_API_URL } : {}),
      ...(Object.keys(retry).length > 0 ? { retry } : {}),
    };
    const auth =
      app && appId && privateKey ? { ...common, appId, privateKey } : token ? { ...common, token } : undefined;
    return {
      ...(auth ? { auth } : {}),
      ...(e.GITHUB_WEBHOOK_SECRET ? { webhookSecret: e.GITHUB_WEBHOOK_SECRET } : {}),
      reviewDrafts: e.GATE_REVIEW_DRAFTS,
      prComment: e.GATE_PR_COMMENT,
      protectedBranches: e.GATE_PROTECTED_BRANCHES,
      webUrl: (e.GATE_GITHUB_WEB_URL ?? webUrlOf(e.GATE_GITHUB_API_URL)).replace(/\/+$/, ""),
    };
  });
