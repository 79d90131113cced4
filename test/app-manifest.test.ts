import fs from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Webhooks } from "@octokit/webhooks";
import { pino } from "pino";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createWebhookHandler, type Recorded, type WebhookSink } from "../src/github/webhook.js";
import { PACKAGE_ROOT } from "../src/package-paths.js";
import { appManifestForm } from "../scripts/github-app-form.js";

/** GitHub's manifest parameters ("Registering a GitHub App from a manifest"): nothing else is read. */
const DOCUMENTED = [
  "name",
  "url",
  "hook_attributes",
  "redirect_url",
  "callback_urls",
  "setup_url",
  "description",
  "public",
  "default_events",
  "default_permissions",
  "request_oauth_on_install",
  "setup_on_update",
];

const Access = z.enum(["read", "write"]);
const AppManifest = z
  .object({
    name: z.string().min(1).max(34),
    url: z.string().url(),
    hook_attributes: z.object({ url: z.string().url(), active: z.boolean().optional() }).strict(),
    redirect_url: z.string().url().optional(),
    callback_urls: z.array(z.string().url()).max(10).optional(),
    setup_url: z.string().url().optional(),
    description: z.string().optional(),
    public: z.boolean().optional(),
    default_events: z.array(z.string().regex(/^[a-z_]+$/)),
    default_permissions: z.record(z.string(), Access),
    request_oauth_on_install: z.boolean().optional(),
    setup_on_update: z.boolean().optional(),
  })
  .strict();

const appYml = fs.readFileSync(path.join(PACKAGE_ROOT, "app.yml"), "utf8");
const raw = YAML.parse(appYml) as Record<string, unknown>;
const manifest = AppManifest.parse(raw);

/** Every `.ts` file under a folder of src/, with its text. */
function sources(dir: string): { file: string; text: string }[] {
  const root = path.join(PACKAGE_ROOT, "src", dir);
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => ({ file: path.join(dir, f), text: fs.readFileSync(path.join(root, f), "utf8") }));
}

/**
 * What each REST method the gate calls needs of an App installation. `token` marks a call made
 * only with a token (GITHUB_TOKEN): an App writes check runs instead of commit statuses
 * (src/github/check-publisher.ts). `jwt` marks a call made as the App itself (its JWT), which
 * needs no installation permission. A call the source makes that is missing here fails the test:
 * add it, with what it needs, and update app.yml.
 */
const CALLS: Record<string, { permission: string; access: "read" | "write" } | "token" | "jwt"> = {
  "pulls.get": { permission: "pull_requests", access: "read" },
  "pulls.listFiles": { permission: "pull_requests", access: "read" },
  "repos.getContent": { permission: "contents", access: "read" },
  "repos.downloadTarballArchive": { permission: "contents", access: "read" },
  "checks.listForRef": { permission: "checks", access: "read" },
  "checks.listAnnotations": { permission: "checks", access: "read" },
  "checks.create": { permission: "checks", access: "write" },
  "checks.update": { permission: "checks", access: "write" },
  "repos.compareCommitsWithBasehead": { permission: "contents", access: "read" },
  // Pull request comments are issue comments; "Pull requests: write" covers them (src/github/pr-comment.ts).
  "issues.listComments": { permission: "pull_requests", access: "read" },
  "issues.createComment": { permission: "pull_requests", access: "write" },
  "issues.updateComment": { permission: "pull_requests", access: "write" },
  "repos.listPullRequestsAssociatedWithCommit": { permission: "pull_requests", access: "read" },
  "repos.createCommitStatus": "token",
  "users.getAuthenticated": "token",
  "apps.getRepoInstallation": "jwt",
  "apps.listInstallations": "jwt",
};

describe("app.yml, the GitHub App manifest", () => {
  it("uses only the manifest flow's documented fields", () => {
    for (const key of Object.keys(raw)) expect(DOCUMENTED, `app.yml: ${key}`).toContain(key);
    expect(manifest.hook_attributes.url).toBe("https://YOUR-HOST/github/webhook");
    expect(manifest.hook_attributes.active).toBe(true);
    expect(manifest.public).toBe(false);
  });

  it("subscribes to exactly the events the webhook handler reads", () => {
    const read = new Set<string>();
    // Each event kind is registered with `webhooks.on("<event>.<action>")` (src/github/events/),
    // and the route answers `ping` itself (`event === "ping"`).
    for (const { text } of sources("github/events")) {
      for (const m of text.matchAll(/"([a-z_]+)\.[a-z_]+"/g)) read.add(m[1] ?? "");
      // An event with no actions (`push`) is registered by its name alone.
      for (const m of text.matchAll(/webhooks\.on\(\s*"([a-z_]+)"/g)) read.add(m[1] ?? "");
    }
    for (const { text } of sources("github")) {
      for (const m of text.matchAll(/\bevent\s*[!=]==\s*"([a-z_]+)"/g)) read.add(m[1] ?? "");
    }
    // GitHub sends `ping` to every new webhook; no App subscribes to it.
    read.delete("ping");
    expect(read.size).toBeGreaterThanOrEqual(3);
    expect([...manifest.default_events].sort()).toEqual([...read].sort());
  });

  it("asks for exactly the permissions of the REST calls the gate makes as an App", () => {
    const called = new Set<string>();
    for (const { file, text } of sources("")) {
      for (const m of text.matchAll(/\.rest\.([a-z]+)\.([A-Za-z]+)\b/g)) called.add(`${m[1]}.${m[2]}`);
      // Calls outside the typed REST methods would escape this table: none is made today.
      expect(text, `${file} calls octokit.request or graphql`).not.toMatch(/octokit\w*\.(request|graphql)\s*\(/i);
    }
    expect(called.size).toBeGreaterThanOrEqual(8);
    for (const call of called) expect(Object.keys(CALLS), `a new GitHub call, ${call}: add it here`).toContain(call);
    for (const call of Object.keys(CALLS)) expect([...called], `${call} is no longer called`).toContain(call);

    const needed: Record<string, "read" | "write"> = { metadata: "read" };
    for (const need of Object.values(CALLS)) {
      if (typeof need === "string") continue;
      if (needed[need.permission] !== "write") needed[need.permission] = need.access;
    }
    expect(manifest.default_permissions).toEqual(needed);
  });

  describe("each subscribed event reaches the handler's sink (signed, on a loopback server)", () => {
    const secret = "app-manifest-test";
    const signer = new Webhooks({ secret });
    const examples = z
      .array(z.object({ name: z.string(), examples: z.array(z.record(z.string(), z.unknown())) }))
      .parse(JSON.parse(fs.readFileSync(createRequire(import.meta.url).resolve("@octokit/webhooks-examples"), "utf8")));
    const example = (event: string, action: string) => {
      const found = examples.find((e) => e.name === event)?.examples.find((e) => e.action === action);
      if (!found) throw new Error(`no ${event}.${action} example`);
      return found;
    };
    const seen: string[] = [];
    const sink: WebhookSink = {
      accept(d): Recorded {
        seen.push(`${d.event}.${d.action}`);
        return { duplicate: false };
      },
      closed(d): Recorded {
        seen.push(`${d.event}.closed`);
        return { duplicate: false };
      },
      rerun(r): Recorded {
        seen.push(`${r.event}.rerequested`);
        return { duplicate: false };
      },
      decide(r): Recorded {
        seen.push(`${r.event}.requested_action`);
        return { duplicate: false };
      },
      pushed(d): Recorded {
        seen.push(`${d.event}:${d.push.branch}`);
        return { duplicate: false };
      },
    };
    let server: Server;
    let url = "";
    beforeAll(async () => {
      const handler = createWebhookHandler({ secret, sink, log: pino({ level: "silent" }) });
      server = createServer((req, res) => void handler(req, res));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/github/webhook`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    let n = 0;
    const deliver = async (event: string, payload: unknown) => {
      const body = JSON.stringify(payload);
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": event,
          "x-github-delivery": `app-manifest-${++n}`,
          "x-hub-signature-256": await signer.sign(body),
        },
        body,
      });
      return { status: res.status, text: await res.text() };
    };

    it("pull_request, check_run, check_suite and push are acted on (202); an unsubscribed event is ignored", async () => {
      const acted = {
        pull_request: ["opened", "closed"],
        check_run: ["rerequested", "requested_action"],
        check_suite: ["rerequested"],
      } as const;
      expect([...Object.keys(acted), "push"].sort()).toEqual([...manifest.default_events].sort());
      // GitHub's example names another App's button; the gate's own is "approve" or "reject", on its review's run.
      const gateButton = (action: string, payload: Record<string, unknown>) =>
        action === "requested_action"
          ? {
              ...payload,
              requested_action: { identifier: "approve" },
              check_run: { ...(payload.check_run as object), external_id: "r-3f9a1c2b7d4e" },
            }
          : payload;
      for (const [event, actions] of Object.entries(acted)) {
        for (const action of actions)
          expect(await deliver(event, gateButton(action, example(event, action)))).toMatchObject({
            status: 202,
          });
      }
      // GitHub's push to its default branch, as an update of it (its example creates the branch).
      const pushed = examples
        .find((e) => e.name === "push")
        ?.examples.find((e) => e.ref === "refs/heads/master" && typeof e.installation === "object");
      const update = { ...pushed, created: false, before: "1".repeat(40) };
      expect(await deliver("push", update)).toMatchObject({ status: 202 });
      expect(seen).toEqual([
        "pull_request.opened",
        "pull_request.closed",
        "check_run.rerequested",
        "check_run.requested_action",
        "check_suite.rerequested",
        "push:master",
      ]);
      expect(await deliver("issues", { action: "opened" })).toEqual({ status: 200, text: "ignored" });
    });
  });

  it("becomes the manifest flow's form: the manifest as JSON, YOUR-HOST replaced, escaped for HTML", () => {
    const form = appManifestForm(appYml, { host: "gate.acme.io", org: "acme", state: "s1" });
    expect(form.action).toBe("https://github.com/organizations/acme/settings/apps/new?state=s1");
    expect(form.manifest.hook_attributes).toEqual({ url: "https://gate.acme.io/github/webhook", active: true });
    expect(JSON.stringify(form.manifest)).not.toContain("YOUR-HOST");
    const value = /name="manifest" value="([^"]*)"/.exec(form.html)?.[1] ?? "";
    const unescaped = value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    expect(JSON.parse(unescaped)).toEqual(form.manifest);
    expect(appManifestForm(appYml, { host: "gate.acme.io", state: "s" }).action).toBe(
      "https://github.com/settings/apps/new?state=s",
    );
    expect(() => appManifestForm(appYml, { host: 'evil" onload="x', state: "s" })).toThrow(/not a host/);
  });
});
