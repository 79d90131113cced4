import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer of the fake Messages API. */
export interface ScriptedResponse {
  /** HTTP status; 200 by default. */
  status?: number;
  /** A JSON body (serialised as is). */
  body?: unknown;
  /** A raw body, sent instead of `body` (for broken JSON on the wire). */
  raw?: string;
  /** Wait this long before answering (the request may be aborted meanwhile). */
  delayMs?: number;
  headers?: Record<string, string>;
}

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The raw request body text (assert that no secret is in it). */
  raw: string;
  /** The parsed JSON body (undefined when not JSON). */
  body: MessagesRequestBody | undefined;
}

/** The request fields tests read; the rest is reachable through the index signature. */
export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  system?: unknown;
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name: string; input_schema: unknown }>;
  output_config?: { format?: { type: string; schema: unknown } };
  thinking?: unknown;
  tool_choice?: unknown;
  [key: string]: unknown;
}

/** Picks the answer to one request (see `FakeAnthropic.respondWith`). */
export type Responder = (request: RecordedRequest) => ScriptedResponse | undefined;

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>`, for the SDK's `baseURL`. */
  url: string;
  /** Requests to the Messages API (`POST /v1/messages`) and anything unrouted. */
  requests: RecordedRequest[];
  /** Requests to the Models API (`GET /v1/models[/<id>]`), kept apart from the Messages API's. */
  modelRequests: RecordedRequest[];
  /** Requests to the token-counting endpoint (`POST /v1/messages/count_tokens`), kept apart from the Messages API's. */
  countRequests: RecordedRequest[];
  /**
   * Answers token counts with `fn(request)` instead (a number of input tokens, or a scripted
   * response such as an error); by default a count is the request's system and message text at 4
   * characters a token, as the gate estimates.
   */
  countTokensWith(fn: ((request: RecordedRequest) => number | ScriptedResponse) | undefined): void;
  /** The model ids the Models API knows (a default list of current ids; tests may add or remove). */
  models: Set<string>;
  /** Answers Models API requests with `fn(request)` instead (undefined falls back to `models`). */
  respondModels(fn: Responder | undefined): void;
  /** Appends answers to the script. */
  enqueue(...responses: ScriptedResponse[]): void;
  /** How many scripted answers are not used yet. */
  pending(): number;
  /**
   * Answers each request with `fn(request)` before the queue is consulted (undefined falls back
   * to the queue). For parallel callers whose order is not fixed, e.g. the three specialists.
   */
  respondWith(fn: Responder | undefined): void;
  close(): Promise<void>;
}

/** Model ids the fake Models API knows by default. */
export const KNOWN_MODELS: readonly string[] = [
  "claude-fable-5-1",
  "claude-opus-5-5",
  "claude-sonnet-5-5",
  "claude-haiku-5-5",
  "claude-opus-5",
  "claude-sonnet-5",
  "claude-opus-4-8",
  "claude-sonnet-4-6",
  "claude-haiku-4-5",
];

function modelInfo(id: string) {
  return { type: "model", id, display_name: id, created_at: "2026-09-28T00:00:00Z" };
}

/**
 * A loopback fake of the Anthropic API. `POST /v1/messages` replays a scripted queue and records
 * every request; with the script spent it answers 400 (not retryable), so a test that makes an
 * unexpected call fails loudly instead of hanging. `GET /v1/models/<id>` and `GET /v1/models`
 * answer from `models` (404 for an unknown id), as the Models API does.
 *
 * @example const api = await startFakeAnthropic([textMessage({ findings: [], verdicts: [] })]);
 */
export async function startFakeAnthropic(script: ScriptedResponse[] = []): Promise<FakeAnthropic> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const modelRequests: RecordedRequest[] = [];
  const countRequests: RecordedRequest[] = [];
  let counter: ((request: RecordedRequest) => number | ScriptedResponse) | undefined;
  const models = new Set(KNOWN_MODELS);
  let modelResponder: Responder | undefined;
  let responder: Responder | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: MessagesRequestBody | undefined;
      try {
        body = JSON.parse(raw) as MessagesRequestBody;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        raw,
        body,
      };
      const modelPath = /^\/v1\/models(?:\/([^/?]+))?(?:\?.*)?$/.exec(req.url ?? "");
      if (req.method === "GET" && modelPath) {
        modelRequests.push(recorded);
        const scripted = modelResponder?.(recorded);
        if (scripted) return send(res, scripted);
        const id = modelPath[1] ? decodeURIComponent(modelPath[1]) : undefined;
        if (id === undefined) {
          const data = [...models].map(modelInfo);
          return send(res, {
            body: { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
          });
        }
        return models.has(id)
          ? send(res, { body: modelInfo(id) })
          : send(res, { status: 404, body: apiError("not_found_error", `model: ${id}`) });
      }
      if (req.method === "POST" && (req.url ?? "").split("?")[0] === "/v1/messages/count_tokens") {
        countRequests.push(recorded);
        const answer = counter?.(recorded) ?? Math.ceil(textOf(body).length / 4);
        return send(res, typeof answer === "number" ? { body: { input_tokens: answer } } : answer);
      }
      requests.push(recorded);
      if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/messages")) {
        return send(res, { status: 404, body: apiError("not_found_error", `no route ${req.method} ${req.url}`) });
      }
      const next = responder?.(recorded) ??
        queue.shift() ?? {
          status: 400,
          body: apiError("invalid_request_error", "fake Anthropic API: no scripted response left"),
        };
      if (next.delayMs && next.delayMs > 0) {
        const timer = setTimeout(() => send(res, next), next.delayMs);
        res.on("close", () => clearTimeout(timer));
      } else send(res, next);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    modelRequests,
    countRequests,
    countTokensWith: (fn) => {
      counter = fn;
    },
    models,
    respondModels: (fn) => {
      modelResponder = fn;
    },
    enqueue: (...r) => void queue.push(...r),
    pending: () => queue.length,
    respondWith: (fn) => {
      responder = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The text of a request's system prompt and messages (string content or text blocks). */
function textOf(body: MessagesRequestBody | undefined): string {
  const texts = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : Array.isArray(value)
        ? value.flatMap((b: unknown) =>
            typeof b === "object" && b !== null && "text" in b && typeof b.text === "string" ? [b.text] : [],
          )
        : [];
  return [...texts(body?.system), ...(body?.messages ?? []).flatMap((m) => texts(m.content))].join("\n");
}

function send(res: ServerResponse, r: ScriptedResponse): void {
  if (res.writableEnded || res.destroyed) return;
  const text = r.raw ?? JSON.stringify(r.body ?? {});
  res.writeHead(r.status ?? 200, {
    "content-type": "application/json",
    "request-id": `req_fake_${Math.random().toString(36).slice(2, 10)}`,
    ...r.headers,
  });
  res.end(text);
}

/** Token counts of a fake response (the API's `usage` object). */
export interface FakeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

const DEFAULT_USAGE: Required<FakeUsage> = {
  input_tokens: 1200,
  output_tokens: 150,
  cache_creation_input_tokens: 800,
  cache_read_input_tokens: 0,
};

let counter = 0;

function message(content: unknown[], stopReason: string, usage: FakeUsage, model: string): ScriptedResponse {
  counter++;
  return {
    body: {
      id: `msg_fake_${counter}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: {
        ...DEFAULT_USAGE,
        ...usage,
        cache_creation: null,
        inference_geo: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: "standard",
        speed: null,
      },
      container: null,
      diagnostics: null,
      stop_details: null,
    },
  };
}

/**
 * An `end_turn` message whose one text block is `json` (serialised unless already a string).
 *
 * @example textMessage({ findings: [], verdicts: [] }, { input_tokens: 10 })
 */
export function textMessage(json: unknown, usage: FakeUsage = {}, model = "claude-sonnet-5-5"): ScriptedResponse {
  const text = typeof json === "string" ? json : JSON.stringify(json);
  return message([{ type: "text", text, citations: null }], "end_turn", usage, model);
}

/**
 * A `tool_use` message calling the given tools (ids made up when absent).
 *
 * @example toolUseMessage([{ name: "list_dir", input: { path: "" } }])
 */
export function toolUseMessage(
  calls: Array<{ id?: string; name: string; input: unknown }>,
  usage: FakeUsage = {},
  model = "claude-sonnet-5-5",
): ScriptedResponse {
  const content = calls.map((c, i) => ({
    type: "tool_use",
    id: c.id ?? `toolu_fake_${counter + 1}_${i}`,
    name: c.name,
    input: c.input,
    caller: { type: "direct" },
  }));
  return message([{ type: "text", text: "Let me look.", citations: null }, ...content], "tool_use", usage, model);
}

/** A message cut off at max_tokens: its text is the start of a JSON object. */
export function maxTokensTruncated(usage: FakeUsage = {}, model = "claude-sonnet-5-5"): ScriptedResponse {
  return message(
    [{ type: "text", text: '{"findings":[{"policy":"SEC-0', citations: null }],
    "max_tokens",
    usage,
    model,
  );
}

function apiError(type: string, msg: string): unknown {
  return { type: "error", error: { type, message: msg }, request_id: "req_fake_error" };
}

/** 529 overloaded, retryable; `retry-after-ms: 1` keeps the SDK's backoff short. */
export function overloaded(): ScriptedResponse {
  return {
    status: 529,
    body: apiError("overloaded_error", "Overloaded"),
    headers: { "retry-after": "0", "retry-after-ms": "1" },
  };
}

/** 401: a wrong API key. Not retryable. */
export function unauthorized(): ScriptedResponse {
  return { status: 401, body: apiError("authentication_error", "invalid x-api-key") };
}
