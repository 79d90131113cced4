import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake received: a Web API method, or a post to a response_url. */
export interface SlackCall {
  /** "chat.update", ... or "response_url" for posts to /response/:id. */
  method: string;
  /** Form fields (JSON-looking values parsed) or the JSON body. */
  body: Record<string, unknown>;
  /** The bearer token or the `token` field. */
  token?: string;
  /** For response_url posts: the :id in /response/:id. */
  responseId?: string;
}

type Handler = (body: Record<string, unknown>) => Record<string, unknown>;

/** A running fake: its URLs, what it received, and knobs. */
export interface FakeSlackApi {
  /** The Web API base URL, with its trailing slash. */
  apiUrl: string;
  /** A response_url the fake answers, e.g. for slash commands. */
  responseUrl(id: string): string;
  calls: SlackCall[];
  callsTo(method: string): SlackCall[];
  /** Overrides one method's answer (e.g. an error). */
  on(method: string, handler: Handler): void;
  /**
   * Runs a hook once a call to `method` is recorded and its answer decided, just before the answer
   * is sent (e.g. to kill the caller between Slack doing the work and the caller hearing of it).
   */
  after(method: string, hook: (body: Record<string, unknown>) => void): void;
  /** Answers every call to `method` only after `ms` milliseconds (a slow or rate-limited Slack); 0 stops it. */
  delay(method: string, ms: number): void;
  /** Members of user groups for usergroups.users.list. */
  userGroups: Map<string, string[]>;
  /** Slack profiles for users.profile.get, by user id. */
  profiles: Map<string, Record<string, unknown>>;
  /** Resolves once `count` calls to `method` were received (rejects after `timeoutMs`). */
  waitFor(method: string, count?: number, timeoutMs?: number): Promise<SlackCall[]>;
  close(): Promise<void>;
}

export interface FakeSlackOptions {
  /**
   * The clock a posted message's ts is read from, as Slack stamps messages with the time they were
   * posted (the gate looks a card up by time after a crash). Without it every ts is in November
   * 2023 (1700000000.000101, …), which unit tests pin.
   */
  now?: () => number;
}

/**
 * A loopback fake of the Slack Web API (and of response_url) on 127.0.0.1, port 0, recording
 * every call with its parsed body (form-encoded or JSON).
 *
 * @example const fake = await startFakeSlackApi(); new WebClient("xoxb-test", { slackApiUrl: fake.apiUrl });
 */
export async function startFakeSlackApi(opts: FakeSlackOptions = {}): Promise<FakeSlackApi> {
  const calls: SlackCall[] = [];
  const overrides = new Map<string, Handler>();
  const hooks = new Map<string, (body: Record<string, unknown>) => void>();
  const delays = new Map<string, number>();
  const userGroups = new Map<string, string[]>();
  const profiles = new Map<string, Record<string, unknown>>();
  let tsCounter = 100;
  let viewCounter = 0;
  // Posted messages by channel (oldest first), with their metadata, for conversations.history;
  // thread replies (posted with thread_ts) by "channel:thread_ts", for conversations.replies.
  const history = new Map<string, Array<Record<string, unknown>>>();
  const replies = new Map<string, Array<Record<string, unknown>>>();

  const defaults: Record<string, Handler> = {
    "auth.test": () => ({
      ok: true,
      url: "https://fake.slack/",
      team: "Fake",
      user: "gate",
      team_id: "T1",
      user_id: "UBOT",
      bot_id: "BBOT",
    }),
    "chat.postMessage": (b) => {
      tsCounter += 1;
      const seconds = opts.now ? Math.floor(opts.now() / 1000) : 1700000000;
      const ts = `${seconds}.${String(tsCounter).padStart(6, "0")}`;
      const channel = String(b.channel);
      const thread = typeof b.thread_ts === "string" && b.thread_ts !== "" ? b.thread_ts : undefined;
      const message = {
        type: "message",
        ts,
        text: b.text,
        bot_id: "BBOT",
        ...(thread ? { thread_ts: thread } : {}),
        ...(isRecord(b.metadata) ? { metadata: b.metadata } : {}),
      };
      // A reply stays out of the channel's history, as in Slack (no reply_broadcast here).
      if (thread) replies.set(`${channel}:${thread}`, [...(replies.get(`${channel}:${thread}`) ?? []), message]);
      else history.set(channel, [...(history.get(channel) ?? []), message]);
      return { ok: true, channel: b.channel, ts, message: { ts, text: b.text } };
    },
    // Newest first; metadata only with include_all_metadata, as Slack answers.
    "conversations.history": (b) => {
      const oldest = Number(b.oldest ?? 0);
      const limit = Number(b.limit ?? 100);
      const withMetadata = String(b.include_all_metadata) === "true";
      const messages = [...(history.get(String(b.channel)) ?? [])]
        .filter((m) => Number(m.ts) >= oldest)
        .reverse()
        .slice(0, limit)
        .map((m) => (withMetadata ? m : Object.fromEntries(Object.entries(m).filter(([k]) => k !== "metadata"))));
      return { ok: true, messages, has_more: false };
    },
    // Oldest first, the thread's parent included; metadata only with include_all_metadata.
    "conversations.replies": (b) => {
      const channel = String(b.channel);
      const oldest = Number(b.oldest ?? 0);
      const limit = Number(b.limit ?? 100);
      const withMetadata = String(b.include_all_metadata) === "true";
      const parent = (history.get(channel) ?? []).filter((m) => m.ts === b.ts);
      const messages = [...parent, ...(replies.get(`${channel}:${String(b.ts)}`) ?? [])]
        .filter((m) => Number(m.ts) >= oldest)
        .slice(0, limit)
        .map((m) => (withMetadata ? m : Object.fromEntries(Object.entries(m).filter(([k]) => k !== "metadata"))));
      return { ok: true, messages, has_more: false };
    },
    "chat.update": (b) => ({ ok: true, channel: b.channel, ts: b.ts, text: b.text }),
    "chat.postEphemeral": () => ({ ok: true, message_ts: `1700000001.${String(++tsCounter).padStart(6, "0")}` }),
    "views.open": (b) => ({ ok: true, view: { id: `V${++viewCounter}`, ...(isRecord(b.view) ? b.view : {}) } }),
    "views.update": (b) => ({ ok: true, view: { id: b.view_id, ...(isRecord(b.view) ? b.view : {}) } }),
    "views.publish": (b) => ({ ok: true, view: { id: `V${++viewCounter}`, ...(isRecord(b.view) ? b.view : {}) } }),
    "users.profile.get": (b) => ({
      ok: true,
      profile: profiles.get(String(b.user)) ?? { display_name: "", real_name: "", fields: {} },
    }),
    "usergroups.users.list": (b) => {
      const users = userGroups.get(String(b.usergroup));
      return users ? { ok: true, users } : { ok: false, error: "no_such_subteam" };
    },
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: false, error: String(error) }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const body = parseBody(raw, req.headers["content-type"]);
    const auth = req.headers.authorization;
    const token = auth?.startsWith("Bearer ") ? auth.slice(7) : typeof body.token === "string" ? body.token : undefined;
    const response = /^\/response\/([^/]+)$/.exec(url.pathname);
    if (response) {
      calls.push({ method: "response_url", body, responseId: response[1] ?? "", ...(token ? { token } : {}) });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true }));
      return;
    }
    const api = /^\/api\/([A-Za-z.]+)$/.exec(url.pathname);
    const method = api?.[1] ?? url.pathname;
    calls.push({ method, body, ...(token ? { token } : {}) });
    const handler = overrides.get(method) ?? defaults[method];
    const answer = handler ? handler(body) : { ok: false, error: "unknown_method" };
    hooks.get(method)?.(body);
    const wait = delays.get(method) ?? 0;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  const callsTo = (method: string) => calls.filter((c) => c.method === method);

  return {
    apiUrl: `${base}/api/`,
    responseUrl: (id) => `${base}/response/${id}`,
    calls,
    callsTo,
    on: (method, handler) => overrides.set(method, handler),
    after: (method, hook) => void hooks.set(method, hook),
    delay: (method, ms) => void delays.set(method, ms),
    userGroups,
    profiles,
    async waitFor(method, count = 1, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (callsTo(method).length < count) {
        if (Date.now() > deadline)
          throw new Error(
            `timed out waiting for ${count} ${method} call(s); got ${callsTo(method).length}: ${calls.map((c) => c.method).join(", ")}`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
      return callsTo(method);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseBody(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (raw === "") return {};
  if (contentType?.startsWith("application/json")) {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : { value: parsed };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    out[key] = /^[[{]/.test(value) ? tryJson(value) : value;
  }
  return out;
}

function tryJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
