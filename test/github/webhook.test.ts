import { readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { type EmitterWebhookEvent, Webhooks } from "@octokit/webhooks";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  createWebhookHandler,
  type PullRequestEvent,
  REVIEWED_ACTIONS,
  type Recorded,
  type WebhookDelivery,
  type WebhookSink,
} from "../../src/github/webhook.js";

const SECRET = "test-webhook-secret";
const webhooks = new Webhooks({ secret: SECRET });

/** GitHub's own example payloads, from @octokit/webhooks-examples. */
const ExamplesSchema = z.array(z.object({ name: z.string(), examples: z.array(z.record(z.string(), z.unknown())) }));
const examples = ExamplesSchema.parse(
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@octokit/webhooks-examples"), "utf8")),
);
function examplesOf(event: string): Record<string, unknown>[] {
  return examples.find((e) => e.name === event)?.examples ?? [];
}
function example(event: string, action?: string): Record<string, unknown> {
  const found = examplesOf(event).find((e) => action === undefined || e.action === action);
  if (!found) throw new Error(`no ${event}.${action} example`);
  return found;
}

class RecordingSink implements WebhookSink {
  seen = new Set<string>();
  accepted: WebhookDelivery[] = [];
  /** Every time the handler asked the sink anything. */
  calls = 0;
  accept(delivery: WebhookDelivery): Recorded {
    this.calls += 1;
    if (this.seen.has(delivery.id)) return { duplicate: true };
    this.seen.add(delivery.id);
    this.accepted.push(delivery);
    return { duplicate: false };
  }
}

describe("PullRequestEvent", () => {
  it("is a subset of GitHub's own pull_request payload types", () => {
    expectTypeOf<EmitterWebhookEvent<"pull_request.opened">["payload"]>().toExtend<PullRequestEvent>();
    expectTypeOf<EmitterWebhookEvent<"pull_request.synchronize">["payload"]>().toExtend<PullRequestEvent>();
    expect(REVIEWED_ACTIONS.has("closed")).toBe(false);
  });
});

describe("GitHub webhook handler on a loopback server", () => {
  let server: Server;
  let url: string;
  let sink: RecordingSink;
  let logLines: string[];
  let deliveryNo = 0;

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(chunk.toString("utf8"));
        done();
      },
    });
    const log = pino({ level: "debug" }, logStream);
    server = createServer((req, res) => {
      // The sink is swapped per test; the handler reads it through this indirection.
      const handler = createWebhookHandler({ secret: SECRET, sink, log, maxBodyBytes: 5 * 1024 * 1024 });
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/github/webhook`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  beforeEach(() => {
    sink = new RecordingSink();
    logLines = [];
  });

  const newId = () => `72d3162e-cc78-11e3-81ab-4c9367dc${String(++deliveryNo).padStart(4, "0")}`;

  async function post(
    event: string,
    body: string,
    opts: { id?: string; signature?: string | null; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { "content-type": "application/json", ...(opts.headers ?? {}) };
    if (opts.id !== "") headers["x-github-delivery"] = opts.id ?? newId();
    if (event !== "") headers["x-github-event"] = event;
    const signature = opts.signature === undefined ? await webhooks.sign(body) : opts.signature;
    if (signature !== null) headers["x-hub-signature-256"] = signature;
    const res = await fetch(url, { method: "POST", headers, body });
    return { status: res.status, text: await res.text() };
  }

  it("accepts every real opened/synchronize/reopened/ready_for_review example (202)", async () => {
    const reviewed = examplesOf("pull_request").filter(
      (e) => typeof e.action === "string" && REVIEWED_ACTIONS.has(e.action),
    );
    expect(reviewed.length).toBeGreaterThanOrEqual(8);
    for (const payload of reviewed) {
      const res = await post("pull_request", JSON.stringify(payload));
      expect(res.status, String(payload.action)).toBe(202);
    }
    expect(sink.accepted).toHaveLength(reviewed.length);
    expect(new Set(sink.accepted.map((d) => d.action))).toEqual(
      new Set(["opened", "synchronize", "reopened", "ready_for_review"]),
    );
  });

  it("hands an opened PR to the sink once, with the fields the gate reads", async () => {
    const payload = example("pull_request", "opened");
    const id = newId();
    const res = await post("pull_request", JSON.stringify(payload), { id });
    expect(res).toEqual({ status: 202, text: "accepted" });
    expect(sink.accepted).toHaveLength(1);
    const d = sink.accepted[0];
    expect(d).toMatchObject({ id, event: "pull_request", action: "opened", draft: false });
    expect(d?.payload.repository.full_name).toMatch(/^[^/]+\/[^/]+$/);
    expect(d?.payload.pull_request.head.sha).toMatch(/^[0-9a-f]{40}$/);
    // One line for the delivery, naming its PR.
    const lines = logLines.filter((l) => l.includes(`"deliveryId":"${id}"`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("webhook accepted");
    expect(lines[0]).toContain(`"pr":"${d?.payload.repository.full_name}#${d?.payload.number}"`);
  });

  it("passes drafts through with the flag set", async () => {
    const payload = example("pull_request", "opened");
    const draft = {
      ...payload,
      pull_request: { ...z.record(z.string(), z.unknown()).parse(payload.pull_request), draft: true },
    };
    expect((await post("pull_request", JSON.stringify(draft))).status).toBe(202);
    expect(sink.accepted[0]?.draft).toBe(true);
  });

  it("answers the same delivery three times but accepts it once", async () => {
    const body = JSON.stringify(example("pull_request", "synchronize"));
    const id = newId();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post("pull_request", body, { id }));
    expect(answers).toEqual([
      { status: 202, text: "accepted" },
      { status: 200, text: "duplicate" },
      { status: 200, text: "duplicate" },
    ]);
    expect(sink.accepted).toHaveLength(1);
  });

  it("rejects a bad signature with 401 before reading the payload or asking the sink", async () => {
    const body = JSON.stringify(example("pull_request", "opened"));
    const wrong = await new Webhooks({ secret: "another-secret" }).sign(body);
    expect((await post("pull_request", body, { signature: wrong })).status).toBe(401);
    expect((await post("pull_request", body, { signature: "sha256=00" })).status).toBe(401);
    expect((await post("pull_request", body, { signature: "sha1=abc" })).status).toBe(401);
    // Signed body, then altered in transit.
    const signed = await webhooks.sign(body);
    expect((await post("pull_request", body.replace("opened", "closed!"), { signature: signed })).status).toBe(401);
    expect(sink.accepted).toHaveLength(0);
    expect(sink.calls).toBe(0);
  });

  it("requires the delivery, event and signature headers", async () => {
    const body = JSON.stringify(example("pull_request", "opened"));
    expect((await post("pull_request", body, { id: "" })).status).toBe(400);
    expect((await post("", body)).status).toBe(400);
    expect((await post("pull_request", body, { id: "../../etc/passwd" })).status).toBe(400);
    expect((await post("pull_request", body, { signature: null })).status).toBe(401);
    expect(sink.accepted).toHaveLength(0);
    expect(sink.calls).toBe(0);
  });

  it("answers 400 to a correctly signed body that is not JSON, or lacks the PR fields", async () => {
    expect((await post("pull_request", "{not json")).status).toBe(400);
    expect((await post("pull_request", JSON.stringify({ action: "opened", number: 1 }))).status).toBe(400);
    for (const body of ["null", "[]", '"opened"', "7"]) {
      expect(await post("pull_request", body), body).toEqual({ status: 400, text: "body is not a JSON object" });
    }
    expect(sink.accepted).toHaveLength(0);
  });

  it("answers a ping with pong, and ignores other events and actions", async () => {
    expect(await post("ping", JSON.stringify(example("ping")))).toEqual({ status: 200, text: "pong" });
    expect(await post("issues", JSON.stringify(example("issues", "opened")))).toEqual({ status: 200, text: "ignored" });
    expect(await post("pull_request", JSON.stringify(example("pull_request", "closed")))).toEqual({
      status: 200,
      text: "ignored",
    });
    expect(sink.accepted).toHaveLength(0);
  });

  it("refuses a 10 MB body with 413 (declared length)", async () => {
    const body = JSON.stringify({ action: "opened", pad: "x".repeat(10 * 1024 * 1024) });
    const res = await post("pull_request", body, { signature: `sha256=${"0".repeat(64)}` });
    expect(res.status).toBe(413);
    expect(sink.accepted).toHaveLength(0);
    expect(sink.calls).toBe(0);
  });

  it("refuses a 10 MB chunked body with 413 without waiting for all of it", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, {
        method: "POST",
        headers: {
          "x-github-delivery": newId(),
          "x-github-event": "pull_request",
          "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
          "transfer-encoding": "chunked",
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", reject);
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 10 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (!req.destroyed) req.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(sink.accepted).toHaveLength(0);
  });

  it("answers 405 to anything but POST", async () => {
    const res = await fetch(url, { method: "GET" });
    expect(res.status).toBe(405);
  });

  it("answers 500, not a crash, when the sink fails", async () => {
    const failing: WebhookSink = {
      accept: () => {
        throw new Error("disk full");
      },
    };
    sink = Object.assign(new RecordingSink(), { accept: failing.accept });
    expect((await post("pull_request", JSON.stringify(example("pull_request", "opened")))).status).toBe(500);
    const line = logLines.find((l) => l.includes("webhook handling failed"));
    // The sink's own error is logged, not the library's wrapper around it.
    expect(line).toContain("disk full");
    expect(line).not.toContain("AggregateError");
  });
});
