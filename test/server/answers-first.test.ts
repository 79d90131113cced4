import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Answers } from "../../src/domain/turns.js";
import { AnswersFirst } from "../../src/server/answers-first.js";
import { ReviewQueue } from "../../src/server/review-queue.js";
import { silentLog } from "../helpers/gate.js";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A loopback server counting its requests in `answers` (as the gate's do), whose answers wait until the test lets them go. */
async function holdingServer(answers: Answers) {
  const held: Array<() => void> = [];
  const server = http.createServer((_req, res) => {
    answers.track(res);
    held.push(() => res.writeHead(202).end("accepted"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    held,
    post: () => fetch(url, { method: "POST", body: "{}" }).then((r) => r.status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** An AnswersFirst on a count of its own, with one request to a holding server being answered; `release` answers it. */
async function oneAnswerHeld(maxDelayMs: number) {
  const answers = new Answers();
  const first = new AnswersFirst(maxDelayMs, answers);
  const server = await holdingServer(answers);
  servers.push(server);
  const answer = server.post();
  while (server.held.length < 1) await tick(5);
  return {
    first,
    release: () => {
      server.held[0]?.();
      return answer;
    },
  };
}

describe("AnswersFirst", () => {
  it("holds background work while an answer is open and runs it once the last one has gone out", async () => {
    const counted = new Answers();
    const first = new AnswersFirst(60_000, counted);
    const server = await holdingServer(counted);
    servers.push(server);
    const answers = [server.post(), server.post()];
    while (server.held.length < 2) await tick(5);
    const ran: string[] = [];
    first.later(() => ran.push("announce"));
    const queue = new ReviewQueue(1, silentLog, first.later);
    queue.push(async () => void ran.push("review"));
    await tick(50);
    expect(ran).toEqual([]);
    server.held[0]?.();
    await tick(50);
    expect(ran).toEqual([]); // one answer is still open
    server.held[1]?.();
    expect(await Promise.all(answers)).toEqual([202, 202]);
    await queue.idle();
    expect(ran).toEqual(["announce", "review"]);
  });

  it("runs work on a later turn, never in the caller's, when no answer is open", async () => {
    const first = new AnswersFirst(1000, new Answers());
    const ran: string[] = [];
    first.later(() => ran.push("work"));
    expect(ran).toEqual([]);
    await new Promise((r) => setImmediate(r));
    await tick(0);
    expect(ran).toEqual(["work"]);
  });

  it("runs held work after maxDelayMs when answers never stop coming", async () => {
    const { first, release } = await oneAnswerHeld(100);
    const ran: string[] = [];
    first.later(() => ran.push("work"));
    await tick(20);
    expect(ran).toEqual([]);
    await tick(300);
    expect(ran).toEqual(["work"]);
    expect(await release()).toBe(202);
  });

  it("runs at once, when closed, what it was still holding", async () => {
    const { first, release } = await oneAnswerHeld(60_000);
    const ran: string[] = [];
    first.later(() => ran.push("held"));
    first.close();
    expect(ran).toEqual(["held"]);
    expect(await release()).toBe(202);
  });

  it("still runs held work within maxDelayMs when a request comes in after it was handed over, and never ends", async () => {
    const answers = new Answers();
    const first = new AnswersFirst(100, answers);
    const ran: string[] = [];
    // Nothing is being answered when the work comes: it is due on the next turn...
    first.later(() => ran.push("work"));
    // ...but by then a request is being answered, and it stays open.
    answers.track(new EventEmitter());
    await tick(20);
    expect(ran).toEqual([]);
    await tick(300);
    expect(ran).toEqual(["work"]);
  });
});
