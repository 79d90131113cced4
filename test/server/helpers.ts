import { generateKeyPairSync, randomUUID } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Webhooks } from "@octokit/webhooks";
import { afterEach, expect } from "vitest";
import { z } from "zod";
import { BUNDLED_FIXTURES_DIR } from "../../src/package-paths.js";
import { startGateServer, type RunningServer } from "../../src/server/start.js";
import { rawTarball, startFakeGitHub, type FakeCheckRun, type FakeGitHub, type RawEntry } from "../fakes/github-api.js";
import { startFakeRegistry, type FakeRegistry } from "../fakes/registry.js";
import { startFakeOsv, type FakeOsv, type FakeOsvRecord } from "../fakes/osv-api.js";
import { startFakeSlackApi, type FakeSlackApi } from "../fakes/slack-api.js";
import { defined } from "../helpers/defined.js";

export const WEBHOOK_SECRET = "e2e-webhook-secret";
export const SLACK_SECRET = "e2e-signing-secret";
export const CHANNEL = "CREVIEWS";
export const APPROVER = "UAPPROVER";
export const OTHER_APPROVER = "UOTHER";
export const AUTHOR_SLACK = "UAUTHOR";
export const INSTALLATION_ID = 4242;
/** The App's id the fake GitHub knows (another is answered "Integration not found"). */
export const APP_ID = "1234";

const signer = new Webhooks({ secret: WEBHOOK_SECRET });

let keys: { privateKey: string; publicKey: string } | undefined;
/** One RSA key pair per test file (the App's key; the fake verifies its JWTs with the public half). */
export function appKeys(): { privateKey: string; publicKey: string } {
  keys ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  return keys;
}

/** What the fakes serve for one pull request, and what the webhook must say about it. */
export interface ServedPr {
  owner: string;
  repo: string;
  number: number;
  headSha: string;
  title: string;
  author: string;
  url: string;
}

const FixturePullSchema = z.looseObject({
  number: z.number(),
  title: z.string(),
  html_url: z.string(),
  user: z.object({ login: z.string() }),
  base: z.looseObject({ repo: z.object({ full_name: z.string() }) }),
  head: z.looseObject({ sha: z.string() }),
});
const RegistryFileSchema = z.record(z.string(), z.object({ license: z.string() }));

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

function filesUnder(dir: string, prefix = ""): { rel: string; body: Buffer }[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    return d.isDirectory()
      ? filesUnder(path.join(dir, d.name), rel)
      : [{ rel, body: fs.readFileSync(path.join(dir, d.name)) }];
  });
}

/**
 * Serves a bundled fixture from the fakes: the PR and its files from GitHub (head SHA optionally
 * replaced), its `repo/` as the head tarball (plus any extra raw entries), its registry.json as
 * the registries' documents (npm, PyPI, crates.io, deps.dev for Go, Maven and NuGet, Packagist,
 * RubyGems), its osv.json as OSV's records.
 */
export function serveFixture(
  stack: Pick<Stack, "gh" | "registry"> & { osv?: FakeOsv },
  name: string,
  opts: {
    headSha?: string;
    /** Served as another pull request number. */
    number?: number;
    extraEntries?: (top: string) => RawEntry[];
    fixturesDir?: string;
  } = {},
): ServedPr {
  const dir = path.join(opts.fixturesDir ?? BUNDLED_FIXTURES_DIR, name);
  const read = FixturePullSchema.parse(readJson(path.join(dir, "pr.json")));
  const pull = opts.number === undefined ? read : { ...read, number: opts.number };
  const files = z.array(z.unknown()).parse(readJson(path.join(dir, "files.json")));
  const headSha = opts.headSha ?? pull.head.sha;
  const [owner = "", repo = ""] = pull.base.repo.full_name.split("/");
  stack.gh.setPull(owner, repo, pull.number, {
    pr: { ...pull, head: { ...pull.head, sha: headSha }, changed_files: files.length },
    files,
  });
  stack.gh.setInstallation(owner, repo, INSTALLATION_ID);
  const top = `${owner}-${repo}-${headSha.slice(0, 7)}`;
  const entries: RawEntry[] = [
    { path: `${top}/`, type: "Directory" },
    { path: `${top}/README.md`, type: "File", body: `# ${repo}\n` },
    ...filesUnder(path.join(dir, "repo")).map(
      (f): RawEntry => ({ path: `${top}/${f.rel}`, type: "File", body: f.body }),
    ),
    ...(opts.extraEntries?.(top) ?? []),
  ];
  stack.gh.setTarball(owner, repo, headSha, rawTarball(entries));
  const registryFile = path.join(dir, "registry.json");
  if (fs.existsSync(registryFile)) {
    for (const [key, { license }] of Object.entries(RegistryFileSchema.parse(readJson(registryFile)))) {
      const [ecosystem, pkg] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
      if (ecosystem === "npm")
        stack.registry.npm.set(pkg, { "dist-tags": { latest: "9.9.9" }, versions: { "9.9.9": { license } } });
      if (ecosystem === "pypi")
        stack.registry.pypi.set(`${pkg}/json`, { info: { name: pkg, version: "9.9.9", license } });
      if (ecosystem === "cargo")
        stack.registry.crates.set(pkg, {
          crate: { max_stable_version: "9.9.9" },
          versions: [{ num: "9.9.9", license }],
        });
      if (ecosystem === "go") {
        stack.registry.go.set(pkg, { versions: [{ versionKey: { version: "v9.9.9" }, isDefault: true }] });
        stack.registry.go.set(`${pkg}/versions/v9.9.9`, { licenses: [license] });
      }
      // deps.dev answers Maven and NuGet: a version it does not list falls back to the default one.
      if (ecosystem === "maven" || ecosystem === "nuget") {
        stack.registry[ecosystem].set(pkg, { versions: [{ versionKey: { version: "9.9.9" }, isDefault: true }] });
        stack.registry[ecosystem].set(`${pkg}/versions/9.9.9`, { licenses: [license] });
      }
      if (ecosystem === "composer") {
        const name = pkg.toLowerCase();
        stack.registry.packagist.set(`${name}.json`, {
          packages: { [name]: [{ version: "9.9.9", license: [license] }] },
        });
      }
      if (ecosystem === "rubygems") stack.registry.gems.set(`${pkg}.json`, { name: pkg, licenses: [license] });
    }
  }
  const osvFile = path.join(dir, "osv.json");
  if (stack.osv && fs.existsSync(osvFile)) stack.osv.add(...(readJson(osvFile) as FakeOsvRecord[]));
  return { owner, repo, number: pull.number, headSha, title: pull.title, author: pull.user.login, url: pull.html_url };
}

const ExamplesSchema = z.array(z.object({ name: z.string(), examples: z.array(z.record(z.string(), z.unknown())) }));
const examples = ExamplesSchema.parse(readJson(createRequire(import.meta.url).resolve("@octokit/webhooks-examples")));

/** GitHub's own `pull_request.<action>` example (one with an installation), retargeted at a served PR. */
export function pullRequestEvent(action: string, pr: ServedPr): Record<string, unknown> {
  const found = examples
    .find((e) => e.name === "pull_request")
    ?.examples.find((e) => e.action === action && typeof e.installation === "object");
  if (!found) throw new Error(`no pull_request.${action} example with an installation`);
  const payload = z
    .looseObject({
      pull_request: z.looseObject({ head: z.looseObject({}), user: z.looseObject({}) }),
      repository: z.looseObject({ owner: z.looseObject({}) }),
    })
    .parse(structuredClone(found));
  return {
    ...payload,
    number: pr.number,
    installation: { id: INSTALLATION_ID, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" },
    pull_request: {
      ...payload.pull_request,
      number: pr.number,
      title: pr.title,
      html_url: pr.url,
      draft: false,
      state: "open",
      user: { ...payload.pull_request.user, login: pr.author },
      head: { ...payload.pull_request.head, sha: pr.headSha },
    },
    repository: {
      ...payload.repository,
      name: pr.repo,
      full_name: `${pr.owner}/${pr.repo}`,
      owner: { ...payload.repository.owner, login: pr.owner },
    },
  };
}

/** GitHub's signature of a body (the test secret unless another is given). */
export function signBody(body: string, secret = WEBHOOK_SECRET): Promise<string> {
  return (secret === WEBHOOK_SECRET ? signer : new Webhooks({ secret })).sign(body);
}

/** POSTs a webhook to the server, signed with the test secret unless told otherwise. */
export async function postWebhook(
  base: string,
  body: string | Buffer,
  opts: { event?: string; id?: string | null; signature?: string | null } = {},
): Promise<{ status: number; text: string; ms: number }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.id !== null) headers["x-github-delivery"] = opts.id ?? randomUUID();
  if (opts.event !== "") headers["x-github-event"] = opts.event ?? "pull_request";
  const signature = opts.signature === undefined ? await signer.sign(body.toString()) : opts.signature;
  if (signature !== null) headers["x-hub-signature-256"] = signature;
  const started = Date.now();
  const res = await fetch(`${base}/github/webhook`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
  return { status: res.status, text: await res.text(), ms: Date.now() - started };
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The check runs the fake holds for a head SHA. */
export function checkRunsOn(gh: FakeGitHub, sha: string): FakeCheckRun[] {
  return [...gh.checkRuns.values()].filter((r) => r.fields.head_sha === sha);
}

/** Every create/update body sent for one check run, in order. */
export function checkRunHistory(gh: FakeGitHub, run: FakeCheckRun): Record<string, unknown>[] {
  const bodies = gh.requests
    .filter(
      (r) =>
        (r.method === "POST" &&
          r.path === `/repos/${run.owner}/${run.repo}/check-runs` &&
          record(r.body).external_id === run.fields.external_id) ||
        (r.method === "PATCH" && r.path === `/repos/${run.owner}/${run.repo}/check-runs/${run.id}`),
    )
    .map((r) => record(r.body));
  return bodies;
}

export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Row count of one of the app's tables. */
export async function rows(
  server: RunningServer,
  table: "gate_reviews" | "gate_deliveries" | "gate_audit",
): Promise<number> {
  const [row] = await server.gate.state.query(`SELECT COUNT(*) AS n FROM ${table}`);
  return z.object({ n: z.coerce.number() }).parse(row).n;
}

/** The loopback fakes and the server talking to them, in one temp directory. */
export interface Stack {
  gh: FakeGitHub;
  registry: FakeRegistry;
  osv: FakeOsv;
  slack?: FakeSlackApi;
  server: RunningServer;
  base: string;
  /** The temp root; the data dir is `<dir>/data`, so anything written beside it is visible. */
  dir: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Starts a new server on the same database and fakes (the old one must be closed). */
  restart(): Promise<RunningServer>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** The gate's clock (reminders, ages); the system's by default. */
  clock?: () => Date;
  mode?: "app" | "token";
  slack?: boolean;
  env?: Record<string, string>;
}

/** The fakes a stack's server talks to. */
export interface StackFakes {
  gh: FakeGitHub;
  registry: FakeRegistry;
  /** OSV's API (GATE_OSV_URL). */
  osv: FakeOsv;
  slack?: FakeSlackApi;
}

/** The loopback fakes of a stack, started (Slack's only when asked). */
export async function startFakes(opts: Pick<StackOptions, "mode" | "slack"> = {}): Promise<StackFakes> {
  const gh = await startFakeGitHub(
    (opts.mode ?? "app") === "app" ? { appPublicKeyPem: appKeys().publicKey, appId: APP_ID } : {},
  );
  const registry = await startFakeRegistry();
  const osv = await startFakeOsv();
  // Messages stamped with the real time, as the server's own clock is (the card lookup after a crash compares them).
  const slack = opts.slack ? await startFakeSlackApi({ now: Date.now }) : undefined;
  return { gh, registry, osv, ...(slack ? { slack } : {}) };
}

/**
 * The settings that point a gate server at the fakes, with its database under `dataDir`: what
 * `startStack` gives `startGateServer`, and what a test gives a server in a child process.
 */
export function stackEnv(
  fakes: StackFakes,
  dataDir: string,
  opts: Pick<StackOptions, "mode" | "env"> = {},
): NodeJS.ProcessEnv {
  const { gh, registry, osv, slack } = fakes;
  return {
    GATE_DB: path.join(dataDir, "gate.db"),
    GATE_DATA_DIR: dataDir,
    GATE_LOG_LEVEL: process.env.GATE_E2E_LOG ?? "silent",
    GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
    GATE_GITHUB_API_URL: gh.url,
    // Retries and write pacing in milliseconds instead of GitHub's seconds.
    GATE_GITHUB_RETRY_BASE_MS: "1",
    GATE_GITHUB_WRITE_SPACING_MS: "0",
    PORT: "0",
    GATE_NPM_REGISTRY_URL: registry.npmUrl,
    GATE_PYPI_URL: registry.pypiUrl,
    GATE_CRATES_URL: registry.cratesUrl,
    GATE_GO_LICENSE_URL: registry.goUrl,
    GATE_MAVEN_LICENSE_URL: registry.mavenUrl,
    GATE_NUGET_LICENSE_URL: registry.nugetUrl,
    GATE_PACKAGIST_URL: registry.packagistUrl,
    GATE_RUBYGEMS_URL: registry.rubygemsUrl,
    GATE_OSV_URL: osv.url,
    ...((opts.mode ?? "app") === "app"
      ? { GATE_GITHUB_APP_ID: APP_ID, GATE_GITHUB_PRIVATE_KEY: appKeys().privateKey }
      : { GITHUB_TOKEN: "ghp_e2e_token" }),
    ...(slack
      ? {
          SLACK_BOT_TOKEN: "xoxb-e2e",
          SLACK_SIGNING_SECRET: SLACK_SECRET,
          SLACK_API_URL: slack.apiUrl,
          GATE_SLACK_CHANNEL: CHANNEL,
          GATE_APPROVERS: `${APPROVER},${OTHER_APPROVER}`,
        }
      : { GATE_SLACK: "off" }),
    ...opts.env,
  };
}

/** Starts the fakes and `startGateServer` against them, on port 0. */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-e2e-"));
  const dataDir = path.join(dir, "data");
  const { gh, registry, osv, slack } = await startFakes(opts);
  const env = stackEnv({ gh, registry, osv, ...(slack ? { slack } : {}) }, dataDir, opts);
  const serverOpts = opts.clock ? { clock: opts.clock } : {};
  let server = await startGateServer(env, serverOpts);
  const stack: Stack = {
    gh,
    registry,
    osv,
    ...(slack ? { slack } : {}),
    get server() {
      return server;
    },
    get base() {
      return `http://127.0.0.1:${server.port}`;
    },
    dir,
    dataDir,
    env,
    async restart() {
      server = await startGateServer(env, serverOpts);
      return server;
    },
    async close() {
      await server.close().catch(() => undefined);
      await Promise.all([gh.close(), registry.close(), osv.close(), slack?.close()]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return stack;
}

/** The store's key of a served PR: `owner/repo#number`. */
export const prKey = (pr: ServedPr) => `${pr.owner}/${pr.repo}#${pr.number}`;

/** The served PR's latest review; the test fails when there is none. */
export async function latestReview(s: Stack, pr: ServedPr) {
  return defined(await s.server.gate.store.latestForPr(prKey(pr)), `a review of ${prKey(pr)}`);
}

/** Sends a PR event for a served PR (202 expected), waits until the server is idle; returns the PR's latest review. */
export async function openPr(s: Stack, pr: ServedPr, action = "opened") {
  expect((await postWebhook(s.base, JSON.stringify(pullRequestEvent(action, pr)))).status).toBe(202);
  await s.server.idle();
  return latestReview(s, pr);
}

/**
 * A test file's way to start stacks: every stack it starts is closed after its test.
 *
 * @example const start = stacksClosedAfterEach(); const s = await start({ slack: true });
 */
export function stacksClosedAfterEach(): (opts?: StackOptions) => Promise<Stack> {
  const started: Stack[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  return async (opts = {}) => {
    const s = await startStack(opts);
    started.push(s);
    return s;
  };
}

/** Every path under a directory (relative), for "nothing was written outside" checks. */
export function treeOf(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((p) => p.split(path.sep).join("/"))
    .sort();
}
