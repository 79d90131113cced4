import type { ChangedFile } from "../../domain/pull-request.js";
import { parsePatch } from "../../domain/patch.js";
import type { Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import { isDocPath, isTestPath } from "./file-kind.js";
import { securityFinding } from "./security-finding.js";

/** Path words (split on `/ . _ -` and camelCase) that name authentication or session code. */
const AUTH_PATH_WORDS = new Set([
  "auth", "authn", "authz", "authentication", "authorization", "authorize", "authenticate",
  "session", "sessions", "login", "logout", "signin", "passport", "jwt", "oauth", "oauth2",
  "oidc", "saml", "sso", "password", "passwords", "credential", "credentials", "permission",
  "permissions", "rbac", "acl", "csrf", "mfa", "totp", "2fa",
]);

/** Changed lines that touch token checks, sessions, password hashing or route guards. */
const AUTH_LINE =
  /\bjwt\.|jsonwebtoken|\bjose\b|\bbcrypt|\bargon2|\bpassport\.|\bisAuthenticated\b|\bIsAuthenticated\b|\brequireAuth|\bensureAuth|\bauthenticate\w*\s*\(|\bauthorize\w*\s*\(|\bverify(Token|Jwt|JWT|Password|Signature|Session|IdToken)\b|\.verify\s*\(|\b(req|request)\.session\b|\bexpress-session|cookie-session|\bsession\.(regenerate|destroy|cookie)\b|\bsession_?(id|token|secret|cookie)\b|\bSESSION_(SECRET|COOKIE|TTL)|\bexpires_?in\b|\bexpiresIn\b|\bmaxAge\b.*(session|cookie)|\b(session|cookie)\b.*\bmaxAge\b|\bsession\s*\(\s*\{|\b(check|compare|hash|verify)_?[Pp]assword|\bpassword_hash\b|@login_required|@requires_auth|permission_classes|\bhasRole\b|\brequireRole\b|\bisAdmin\b|headers\.authorization|\bBearer\s|\bcsrf\b|\bhttpOnly\b|\bsameSite\b|\balgorithms\s*[:=]|ignoreExpiration|\bnoAuth\b|\bskipAuth\b/i;

function pathWords(path: string): string[] {
  return path
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s/._-]+/)
    .filter((w) => w.length > 0);
}

/** The first changed line that matters, numbered in the head file (a removal: where it was). */
function firstChangedLine(file: ChangedFile, onlyAuthLines: boolean): { line?: number; hits: string[] } {
  const lines = parsePatch(file.patch);
  let lastHead = 0;
  let first: number | undefined;
  const hits = new Set<string>();
  lines.forEach((l, i) => {
    if (l.kind !== "del") lastHead = l.line;
    if (l.kind === "context") return;
    const match = AUTH_LINE.exec(l.text);
    if (match) hits.add(match[0].trim());
    if (first !== undefined || (onlyAuthLines && !match)) return;
    if (l.kind === "add") first = l.line;
    else first = lines.slice(i + 1).find((n) => n.kind !== "del")?.line ?? lastHead + 1;
  });
  return { ...(first !== undefined ? { line: Math.max(1, first) } : {}), hits: [...hits].slice(0, 4) };
}

/**
 * SEC-03: a change to authentication or session handling (by path, or by what the changed lines
 * touch). One finding per file, high, blocking, `needs_more_context: true`: whether a check was
 * weakened usually shows only in the surrounding code. Tests and docs are skipped.
 *
 * @example await authChangeDetector.detect(ctx) // [{ policy: "SEC-03", needs_more_context: true, ... }]
 */
export const authChangeDetector: Detector = {
  id: "auth-change",
  policies: ["SEC-03"],
  async detect(ctx) {
    const findings: Finding[] = [];
    for (const file of ctx.pr.files) {
      if (isTestPath(file.filename) || isDocPath(file.filename)) continue;
      const paths = [file.filename, ...(file.previousFilename ? [file.previousFilename] : [])];
      const byPath = paths.some((p) => pathWords(p).some((w) => AUTH_PATH_WORDS.has(w)));
      const { line, hits } = firstChangedLine(file, !byPath);
      if (!byPath && hits.length === 0) continue;
      const what = byPath
        ? `${file.filename} is authentication/session code`
        : `${file.filename} changes authentication/session handling (${hits.join(", ")})`;
      findings.push(
        securityFinding({
          policy: "SEC-03",
          detector: "auth-change",
          severity: "high",
          blocking: true,
          needsMoreContext: true,
          file: file.filename,
          ...(line !== undefined ? { line } : {}),
          message:
            `${what}${file.status === "removed" ? " and is removed" : ""}. Check in the surrounding code that no ` +
            "check was weakened (token or signature verification skipped, expiry lengthened, algorithm or " +
            "audience relaxed, a route left unprotected, password hashing changed) and that no token, " +
            "password or secret is logged.",
        }),
      );
    }
    return findings;
  },
};
