/**
 * Prints the HTML page that starts GitHub's manifest flow for `app.yml`: a form that POSTs the
 * manifest, as JSON in a field named `manifest`, to GitHub's "new App" page of a personal account
 * or of an organization. Open the page in a browser and submit it (docs/github-app.md, "Create the
 * GitHub App from app.yml").
 *
 * Usage: node --import tsx scripts/github-app-form.ts <host> [--org ORG] [--github-url URL] > gate-app.html
 *   <host>        the public host that serves the gate (replaces YOUR-HOST in app.yml)
 *   --org ORG     register the App on organization ORG instead of your personal account
 *   --github-url  GitHub Enterprise Server's web address (default https://github.com)
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import YAML from "yaml";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface AppFormOptions {
  /** The gate's public host, e.g. `gate.acme.io` (no scheme, no path). */
  host: string;
  /** An organization's login: the App is registered on it. */
  org?: string;
  /** GitHub's web address; GitHub Enterprise Server's own host. */
  githubUrl?: string;
  /** GitHub hands it back with the code: compare it to be sure the redirect is yours. */
  state: string;
}

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The manifest of `app.yml` with YOUR-HOST replaced, and the page whose form submits it.
 *
 * @example appManifestForm(fs.readFileSync("app.yml", "utf8"), { host: "gate.acme.io", state: "x" }).action
 * // "https://github.com/settings/apps/new?state=x"
 */
export function appManifestForm(
  appYml: string,
  opts: AppFormOptions,
): { manifest: Record<string, unknown>; action: string; html: string } {
  if (!HOST.test(opts.host) || opts.host === "YOUR-HOST") throw new Error(`not a host name: ${opts.host}`);
  if (opts.org !== undefined && !LOGIN.test(opts.org)) throw new Error(`not an organization login: ${opts.org}`);
  const parsed: unknown = YAML.parse(appYml);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("app.yml is not a map");
  const manifest = JSON.parse(JSON.stringify(parsed).replaceAll("YOUR-HOST", opts.host)) as Record<string, unknown>;
  const github = (opts.githubUrl ?? "https://github.com").replace(/\/+$/, "");
  const page = opts.org ? `/organizations/${opts.org}/settings/apps/new` : "/settings/apps/new";
  const action = `${github}${page}?state=${encodeURIComponent(opts.state)}`;
  const html = `<!doctype html>
<meta charset="utf-8">
<title>Create the Compliance Gate GitHub App</title>
<p>Registers a GitHub App from app.yml for https://${escapeHtml(opts.host)} (state ${escapeHtml(opts.state)}).</p>
<form action="${escapeHtml(action)}" method="post">
  <input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(manifest))}">
  <button type="submit">Create the GitHub App on GitHub</button>
</form>
`;
  return { manifest, action, html };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: { org: { type: "string" }, "github-url": { type: "string" } },
    });
    const [host] = positionals;
    if (!host || positionals.length > 1)
      throw new Error("usage: github-app-form.ts <host> [--org ORG] [--github-url URL]");
    const state = randomBytes(8).toString("hex");
    const { html } = appManifestForm(fs.readFileSync(path.join(ROOT, "app.yml"), "utf8"), {
      host,
      state,
      ...(values.org ? { org: values.org } : {}),
      ...(values["github-url"] ? { githubUrl: values["github-url"] } : {}),
    });
    process.stdout.write(html);
    process.stderr.write(`state ${state}: GitHub's redirect must carry the same state\n`);
  } catch (error) {
    process.stderr.write(`github-app-form: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
