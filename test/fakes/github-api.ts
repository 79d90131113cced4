import { createPublicKey, verify as verifySignature, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { Header, type HeaderData, Pax } from "tar";

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization?: string;
  body: unknown;
}

export interface FakeCheckRun {
  id: number;
  owner: string;
  repo: string;
  fields: Record<string, unknown>;
  annotations: unknown[];
}

/** An issue (or pull request) comment the fake holds. */
export interface FakeComment {
  id: number;
  owner: string;
  repo: string;
  /** The issue or pull request number. */
  number: number;
  body: string;
  /** Who wrote it: an installation token writes as the App's bot, any other token as its user. */
  user: { login: string; type: "Bot" | "User" };
}

export interface FakeGitHub {
  /** The API root to give Octokit as `baseUrl`. */
  url: string;
  requests: RecordedRequest[];
  checkRuns: Map<number, FakeCheckRun>;
  /** Issue and pull request comments, by id (`addComment` adds one written by a person). */
  comments: Map<number, FakeComment>;
  addComment(owner: string, repo: string, number: number, body: string, login?: string): FakeComment;
  statuses: { owner: string; repo: string; sha: string; body: unknown }[];
  /** Installation ids for which an access token was issued, in order. */
  tokensIssued: number[];
  setPull(owner: string, repo: string, number: number, data: { pr: unknown; files: unknown[] }): void;
  setTarball(owner: string, repo: string, ref: string, gz: Buffer): void;
  setInstallation(owner: string, repo: string, installationId: number): void;
  /** Serves a file through the contents API at a ref (a commit SHA; "" for the default branch); its folders list it. */
  setContent(owner: string, repo: string, ref: string, path: string, text: string): void;
  /** Serves a symbolic link to `target` at a ref: its folder lists it as GitHub does (`type: "symlink"`). */
  setSymlink(owner: string, repo: string, ref: string, path: string, target: string): void;
  /**
   * Serves `GET /repos/{o}/{r}/compare/{base}...{head}`: how `head` relates to `base` ("ahead"
   * when base is its ancestor, "diverged" after a force-push) and the files changed between them.
   * An unset pair answers 404.
   */
  setCompare(owner: string, repo: string, base: string, head: string, answer: CompareAnswer): void;
  /**
   * Serves `GET /repos/{o}/{r}/commits/{sha}/pulls` ("list pull requests associated with a commit"):
   * these pull requests (`merged_at` null for one not merged). An unset commit has none (`[]`), as
   * a commit pushed straight to a branch.
   */
  setCommitPulls(
    owner: string,
    repo: string,
    sha: string,
    pulls: Array<{ number: number; merged_at: string | null }>,
  ): void;
  /** Requests matching a method and a path pattern. */
  find(method: string, path: RegExp): RecordedRequest[];
  /**
   * Makes the next `times` requests matching a method and a path answer `status` (502 unless
   * told). With `afterApplying`, the request takes effect first and only its answer is lost, as
   * when a proxy fails after GitHub did the work.
   */
  failNext(method: string, path: RegExp, times: number, opts?: FailOptions): void;
  /**
   * Holds every request matching a method and a path until released: it is neither recorded in
   * `requests` nor applied nor answered, as when the caller dies before GitHub hears it.
   */
  hold(method: string, path: RegExp): Hold;
  /** Answers every request matching a method and a path `ms` late (a slow GitHub); returns the undo. */
  slow(method: string, path: RegExp, ms: number): () => void;
  close(): Promise<void>;
}

/** What the compare API answers for a pair of commits. */
export interface CompareAnswer {
  status: "ahead" | "behind" | "diverged" | "identical";
  /** The changed files' names (each "modified", one line changed, no patch) ... */
  files: string[];
  /** ... or GitHub's whole file objects (with their `patch`), served instead of `files`. */
  changed?: unknown[];
  /** The commits of head not in base, oldest first. */
  commits?: Array<{ sha: string; message: string; author?: string }>;
  /** Where the two histories meet (a force-push's); the base by default. */
  mergeBase?: string;
}

/** Requests being held by `hold`. */
export interface Hold {
  /** How many requests were held so far. */
  held(): number;
  /** Requests from now on are served again (the held ones stay unanswered). */
  release(): void;
}

/** How a scripted failure answers. */
export interface FailOptions {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  afterApplying?: boolean;
}

export interface FakeGitHubOptions {
  /** When set, installation-token requests must carry a JWT signed by this key's private half. */
  appPublicKeyPem?: string;
  /**
   * When set, the App's JWT must name this id (`iss`): another id is an App GitHub does not know,
   * answered 404 "Integration not found" as GitHub does.
   */
  appId?: string;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function annotationsOf(fields: Record<string, unknown>): unknown[] {
  const list = record(fields.output).annotations;
  return Array.isArray(list) ? list : [];
}

/**
 * Why GitHub would answer 422 to a check run's `actions` (at most 3; label and identifier up to 20
 * characters, description up to 40, all three required), or undefined when they are fine or absent.
 */
function actionsInvalid(fields: Record<string, unknown>): string | undefined {
  const actions = fields.actions;
  if (actions === undefined) return undefined;
  if (!Array.isArray(actions) || actions.length > 3) return "actions: at most 3";
  for (const a of actions.map(record)) {
    const fits = (key: string, max: number) =>
      typeof a[key] === "string" && (a[key] as string).length >= 1 && (a[key] as string).length <= max;
    if (!fits("label", 20) || !fits("identifier", 20) || !fits("description", 40))
      return `actions: invalid ${JSON.stringify(a)}`;
  }
  return undefined;
}

/** Serves one page of `items` the way GitHub does, with a `Link` header to the next and last pages. */
function paginate(res: ServerResponse, base: string, url: URL, items: unknown[]): void {
  const perPage = Math.min(Math.max(Number(url.searchParams.get("per_page") ?? 30), 1), 100);
  const page = Math.max(Number(url.searchParams.get("page") ?? 1), 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (p: number) => {
    const u = new URL(url.pathname, base);
    u.searchParams.set("per_page", String(perPage));
    u.searchParams.set("page", String(p));
    return u.toString();
  };
  const links: string[] = [];
  if (page < last) links.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
  if (page > 1) links.push(`<${link(1)}>; rel="first"`, `<${link(page - 1)}>; rel="prev"`);
  json(res, 200, items.slice((page - 1) * perPage, page * perPage), links.length ? { link: links.join(", ") } : {});
}

function commentJson(c: FakeComment): Record<string, unknown> {
  return {
    id: c.id,
    body: c.body,
    user: c.user,
    html_url: `https://github.com/${c.owner}/${c.repo}/pull/${c.number}#issuecomment-${c.id}`,
  };
}

/** The `iss` (the App's id) a bearer JWT names, if it can be read. */
function jwtIssuer(authorization: string | undefined): string | undefined {
  const payload = /^bearer (.+)$/i.exec(authorization ?? "")?.[1]?.split(".")[1];
  if (!payload) return undefined;
  try {
    const iss: unknown = record(JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))).iss;
    return typeof iss === "string" || typeof iss === "number" ? String(iss) : undefined;
  } catch {
    return undefined;
  }
}

function jwtIsValid(authorization: string | undefined, key: KeyObject): boolean {
  const token = /^bearer (.+)$/i.exec(authorization ?? "")?.[1];
  const [header, payload, signature] = token?.split(".") ?? [];
  if (!header || !payload || !signature) return false;
  return verifySignature("RSA-SHA256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"));
}

/**
 * A loopback fake of the GitHub REST endpoints the gate calls. It records every request.
 *
 * @example const gh = await startFakeGitHub(); new Octokit({ baseUrl: gh.url });
 */
export async function startFakeGitHub(opts: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const pulls = new Map<string, { pr: unknown; files: unknown[] }>();
  const tarballs = new Map<string, Buffer>();
  const installations = new Map<string, number>();
  const contents = new Map<string, string>();
  const symlinks = new Set<string>();
  const compares = new Map<string, CompareAnswer>();
  const commitPulls = new Map<string, Array<{ number: number; merged_at: string | null }>>();
  const requests: RecordedRequest[] = [];
  const checkRuns = new Map<number, FakeCheckRun>();
  const comments = new Map<number, FakeComment>();
  let nextCommentId = 7000;
  const statuses: FakeGitHub["statuses"] = [];
  const tokensIssued: number[] = [];
  const publicKey = opts.appPublicKeyPem ? createPublicKey(opts.appPublicKeyPem) : undefined;
  let nextCheckRunId = 9000;
  let base = "";
  const failures: { method: string; path: RegExp; left: number; opts: FailOptions }[] = [];
  const holds: { method: string; path: RegExp; held: number }[] = [];
  const slows: { method: string; path: RegExp; ms: number }[] = [];
  /** The scripted failure a request meets, if any (and counts it). */
  const failureFor = (method: string, path: string): FailOptions | undefined => {
    const f = failures.find((x) => x.left > 0 && x.method === method && x.path.test(path));
    if (!f) return undefined;
    f.left -= 1;
    return f.opts;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", base);
    const method = req.method ?? "GET";
    const late = slows.find((s) => s.method === method && s.path.test(url.pathname));
    if (late) await new Promise((resolve) => setTimeout(resolve, late.ms));
    const held = holds.find((h) => h.method === method && h.path.test(url.pathname));
    if (held) {
      // Read and dropped: the request never reaches "GitHub", and its caller never hears back.
      await readJson(req);
      held.held += 1;
      return;
    }
    const body = await readJson(req);
    const authorization = req.headers.authorization;
    requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      ...(authorization ? { authorization } : {}),
      body,
    });
    const p = url.pathname;
    const failure = failureFor(method, p);
    const fail = () =>
      json(res, failure?.status ?? 502, failure?.body ?? { message: "Bad Gateway" }, failure?.headers ?? {});
    if (failure && !failure.afterApplying) return fail();
    // With afterApplying, the handler below runs and its answer is replaced by the failure.
    if (failure) {
      const realEnd = res.end.bind(res);
      const realWriteHead = res.writeHead.bind(res);
      res.writeHead = ((..._args: unknown[]) => res) as typeof res.writeHead;
      res.end = ((..._args: unknown[]) => {
        res.writeHead = realWriteHead;
        res.end = realEnd;
        fail();
        return res;
      }) as typeof res.end;
    }
    let m: RegExpExecArray | null;

    m = method === "POST" ? /^\/app\/installations\/(\d+)\/access_tokens$/.exec(p) : null;

    if (m) {
      if (publicKey && !jwtIsValid(authorization, publicKey))
        return json(res, 401, { message: "A JSON web token could not be decoded" });
      tokensIssued.push(Number(m[1]));
      return json(res, 201, {
        token: `ghs_fake_installation_${m[1]}`,
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        permissions: { checks: "write", contents: "read", pull_requests: "write", statuses: "write" },
        repository_selection: "all",
      });
    }
    // The start-up checks: an App lists its installations (its JWT checked), a token reads its user.
    if (method === "GET" && p === "/app/installations") {
      if (opts.appId !== undefined && jwtIssuer(authorization) !== opts.appId)
        return json(res, 404, { message: "Integration not found" });
      if (publicKey && !jwtIsValid(authorization, publicKey))
        return json(res, 401, { message: "A JSON web token could not be decoded" });
      const ids = [...new Set(installations.values())];
      return json(
        res,
        200,
        ids.map((id) => ({ id, account: { login: "fake" }, app_id: 1234 })),
      );
    }
    if (method === "GET" && p === "/user") {
      if (!authorization) return json(res, 401, { message: "Requires authentication" });
      return json(res, 200, { login: "fake-user", id: 1, type: "User" });
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(p) : null;
    if (m) {
      const id = installations.get(`${m[1]}/${m[2]}`);
      return id === undefined ? json(res, 404, { message: "Not Found" }) : json(res, 200, { id });
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/compare\/([^/]+)\.\.\.([^/]+)$/.exec(p) : null;
    if (m) {
      const found = compares.get(`${m[1]}/${m[2]}@${m[3]}...${m[4]}`);
      if (!found) return json(res, 404, { message: "Not Found" });
      return json(res, 200, {
        status: found.status,
        ahead_by: found.status === "identical" ? 0 : 1,
        behind_by: found.status === "diverged" || found.status === "behind" ? 1 : 0,
        total_commits: found.commits?.length ?? 1,
        html_url: `https://github.com/${m[1]}/${m[2]}/compare/${m[3]}...${m[4]}`,
        merge_base_commit: { sha: found.mergeBase ?? m[3] },
        commits: (found.commits ?? []).map((c) => ({
          sha: c.sha,
          commit: { message: c.message },
          author: c.author ? { login: c.author } : null,
          committer: null,
        })),
        files:
          found.changed ??
          found.files.map((filename) => ({
            filename,
            status: "modified",
            additions: 1,
            deletions: 1,
            changes: 2,
          })),
      });
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/commits\/([0-9a-f]{40})\/pulls$/.exec(p) : null;
    if (m) {
      const listed = commitPulls.get(`${m[1]}/${m[2]}@${m[3]}`) ?? [];
      return json(
        res,
        200,
        listed.map((pr) => ({ number: pr.number, state: pr.merged_at ? "closed" : "open", merged_at: pr.merged_at })),
      );
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(p) : null;
    if (m) {
      const pull = pulls.get(`${m[1]}/${m[2]}#${m[3]}`);
      return pull ? json(res, 200, pull.pr) : json(res, 404, { message: "Not Found" });
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/files$/.exec(p) : null;
    if (m) {
      const pull = pulls.get(`${m[1]}/${m[2]}#${m[3]}`);
      // GitHub stops listing at 3000 files.
      return pull ? paginate(res, base, url, pull.files.slice(0, 3000)) : json(res, 404, { message: "Not Found" });
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/tarball\/(.+)$/.exec(p) : null;
    if (m) {
      const key = `${m[1]}/${m[2]}@${m[3]}`;
      if (!tarballs.has(key)) return json(res, 404, { message: "Not Found" });
      res.writeHead(302, { location: `${base}/_codeload/${m[1]}/${m[2]}/legacy.tar.gz/${m[3]}` });
      return void res.end();
    }
    m = method === "GET" ? /^\/_codeload\/([^/]+)\/([^/]+)\/legacy\.tar\.gz\/(.+)$/.exec(p) : null;
    if (m) {
      const gz = tarballs.get(`${m[1]}/${m[2]}@${m[3]}`);
      if (!gz) return json(res, 404, { message: "Not Found" });
      res.writeHead(200, { "content-type": "application/x-gzip", "content-length": String(gz.length) });
      return void res.end(gz);
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+)$/.exec(p) : null;
    if (m) {
      const file = decodeURIComponent(m[3] ?? "");
      const at = `${m[1]}/${m[2]}@${url.searchParams.get("ref") ?? ""}:`;
      const text = contents.get(`${at}${file}`);
      if (text === undefined) {
        // A folder: its direct entries, as GitHub lists a directory (files and sub-folders).
        const under = [...contents.keys()]
          .filter((k) => k.startsWith(`${at}${file}/`))
          .map((k) => k.slice(`${at}${file}/`.length));
        if (under.length === 0) return json(res, 404, { message: "Not Found" });
        const names = [...new Set(under.map((rest) => rest.split("/")[0] ?? rest))].sort();
        return json(
          res,
          200,
          names.map((name) => ({
            type: symlinks.has(`${at}${file}/${name}`) ? "symlink" : under.includes(name) ? "file" : "dir",
            name,
            path: `${file}/${name}`,
            size: Buffer.byteLength(contents.get(`${at}${file}/${name}`) ?? ""),
          })),
        );
      }
      return json(res, 200, {
        type: "file",
        encoding: "base64",
        path: file,
        name: file.split("/").pop(),
        size: Buffer.byteLength(text),
        content: Buffer.from(text).toString("base64"),
      });
    }
    m = method === "POST" ? /^\/repos\/([^/]+)\/([^/]+)\/check-runs$/.exec(p) : null;
    if (m) {
      const fields = record(body);
      const invalid = actionsInvalid(fields);
      if (invalid) return json(res, 422, { message: "Validation Failed", errors: [invalid] });
      const id = nextCheckRunId++;
      const annotations = annotationsOf(fields);
      checkRuns.set(id, { id, owner: m[1] ?? "", repo: m[2] ?? "", fields, annotations: [...annotations] });
      return json(res, 201, { id, ...fields });
    }
    m = method === "PATCH" ? /^\/repos\/([^/]+)\/([^/]+)\/check-runs\/(\d+)$/.exec(p) : null;
    if (m) {
      const run = checkRuns.get(Number(m[3]));
      if (!run) return json(res, 404, { message: "Not Found" });
      const fields = record(body);
      const invalid = actionsInvalid(fields);
      if (invalid) return json(res, 422, { message: "Validation Failed", errors: [invalid] });
      const annotations = annotationsOf(fields);
      run.fields = { ...run.fields, ...fields };
      run.annotations.push(...annotations); // GitHub appends annotations on update
      return json(res, 200, { id: run.id, ...run.fields });
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/commits\/([^/]+)\/check-runs$/.exec(p) : null;
    if (m) {
      const [owner, repo, ref] = [m[1], m[2], m[3]];
      const name = url.searchParams.get("check_name");
      const runs = [...checkRuns.values()]
        .filter(
          (r) => r.owner === owner && r.repo === repo && r.fields.head_sha === ref && (!name || r.fields.name === name),
        )
        .map((r) => ({ id: r.id, ...r.fields }));
      return json(res, 200, { total_count: runs.length, check_runs: runs });
    }
    m = method === "GET" ? /^\/repos\/([^/]+)\/([^/]+)\/check-runs\/(\d+)\/annotations$/.exec(p) : null;
    if (m) {
      const run = checkRuns.get(Number(m[3]));
      return run ? paginate(res, base, url, run.annotations) : json(res, 404, { message: "Not Found" });
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(p);
    if (m && method === "GET") {
      const [owner, repo, number] = [m[1], m[2], Number(m[3])];
      const on = [...comments.values()].filter((c) => c.owner === owner && c.repo === repo && c.number === number);
      return paginate(res, base, url, on.map(commentJson));
    }
    if (m && method === "POST") {
      const text = record(body).body;
      if (typeof text !== "string" || text === "") return json(res, 422, { message: "Validation Failed" });
      if (text.length > 65_536) return json(res, 422, { message: "Body is too long (maximum is 65536 characters)" });
      const bot = /^token ghs_/i.test(authorization ?? "");
      const comment: FakeComment = {
        id: nextCommentId++,
        owner: m[1] ?? "",
        repo: m[2] ?? "",
        number: Number(m[3]),
        body: text,
        user: bot ? { login: "compliance-gate[bot]", type: "Bot" } : { login: "fake-user", type: "User" },
      };
      comments.set(comment.id, comment);
      return json(res, 201, commentJson(comment));
    }
    m = method === "PATCH" ? /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(p) : null;
    if (m) {
      const comment = comments.get(Number(m[3]));
      if (!comment || comment.owner !== m[1] || comment.repo !== m[2]) return json(res, 404, { message: "Not Found" });
      const text = record(body).body;
      if (typeof text !== "string" || text === "") return json(res, 422, { message: "Validation Failed" });
      if (text.length > 65_536) return json(res, 422, { message: "Body is too long (maximum is 65536 characters)" });
      comment.body = text;
      return json(res, 200, commentJson(comment));
    }
    m = method === "POST" ? /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]{40})$/.exec(p) : null;
    if (m) {
      statuses.push({ owner: m[1] ?? "", repo: m[2] ?? "", sha: m[3] ?? "", body });
      return json(res, 201, { id: statuses.length, ...record(body) });
    }
    json(res, 404, { message: "Not Found", documentation_url: "fake" });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    checkRuns,
    comments,
    addComment: (owner, repo, number, body, login = "someone") => {
      const comment: FakeComment = { id: nextCommentId++, owner, repo, number, body, user: { login, type: "User" } };
      comments.set(comment.id, comment);
      return comment;
    },
    statuses,
    tokensIssued,
    setPull: (owner, repo, number, data) => void pulls.set(`${owner}/${repo}#${number}`, data),
    setTarball: (owner, repo, ref, gz) => void tarballs.set(`${owner}/${repo}@${ref}`, gz),
    setInstallation: (owner, repo, id) => void installations.set(`${owner}/${repo}`, id),
    setCompare: (owner, repo, baseSha, head, answer) =>
      void compares.set(`${owner}/${repo}@${baseSha}...${head}`, answer),
    setCommitPulls: (owner, repo, sha, listed) => void commitPulls.set(`${owner}/${repo}@${sha}`, listed),
    setContent: (owner, repo, ref, path, text) => void contents.set(`${owner}/${repo}@${ref}:${path}`, text),
    setSymlink: (owner, repo, ref, path, target) => {
      contents.set(`${owner}/${repo}@${ref}:${path}`, target);
      symlinks.add(`${owner}/${repo}@${ref}:${path}`);
    },
    find: (method, path) => requests.filter((r) => r.method === method && path.test(r.path)),
    failNext: (method, path, times, opts = {}) => void failures.push({ method, path, left: times, opts }),
    hold: (method, path) => {
      const h = { method, path, held: 0 };
      holds.push(h);
      return {
        held: () => h.held,
        release: () => void holds.splice(holds.indexOf(h), 1),
      };
    },
    slow: (method, path, ms) => {
      const s = { method, path, ms };
      slows.push(s);
      return () => void slows.splice(slows.indexOf(s), 1);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One entry of a hand-built tarball; `body` for files. */
export type RawEntry = HeaderData & { body?: string | Buffer };

/**
 * Builds a gzip tarball entry by entry, so tests can make hostile archives (`../x`, absolute
 * paths, links out of the root, devices) that no well-behaved archiver writes.
 *
 * @example rawTarball([{ path: "repo-abc/ok.txt", type: "File", body: "hi" }])
 */
export function rawTarball(entries: RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const { body, ...data } of entries) {
    const content = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body);
    const header = new Header({
      mode: data.type === "Directory" ? 0o755 : 0o644,
      uid: 0,
      gid: 0,
      mtime: new Date(0),
      ...data,
      size: content.length,
    });
    const block = Buffer.alloc(512);
    // A path or link target too long for the header goes first in a PAX header, as tar writes it.
    if (header.encode(block, 0)) {
      blocks.push(new Pax({ path: data.path, ...(data.linkpath ? { linkpath: data.linkpath } : {}) }).encode());
    }
    blocks.push(block, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
