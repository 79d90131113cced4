import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { GateError, messageOf } from "../../domain/errors.js";
import { ANSWERS, type Answers, SLICE_MS, Turns } from "../../domain/turns.js";
import type { PullRequest } from "../../domain/pull-request.js";
import { workerScript } from "../../worker-script.js";
import type { DetectContext } from "../detector.js";
import { ALL_DETECTORS } from "../index.js";
import type { CallReply, CallRequest, DetectJob, DetectorOutcome, FilesOfJob, ForgetJob, JobDone } from "./protocol.js";

/** A change is large, and detected on a worker, from this many files... */
export const LARGE_CHANGE_FILES = 200;
/** ...or this many bytes of patches. */
export const LARGE_CHANGE_BYTES = 1024 * 1024;

/** Whether a change is large enough to be detected off the answering thread. */
export function isLargeChange(pr: PullRequest): boolean {
  if (pr.files.length >= LARGE_CHANGE_FILES) return true;
  let bytes = 0;
  for (const f of pr.files) {
    bytes += f.patch?.length ?? 0;
    if (bytes >= LARGE_CHANGE_BYTES) return true;
  }
  return false;
}

/** A detection job that did not finish in time: its worker was stopped, and the change is not detected again here. */
export class DetectionTimeout extends GateError {
  constructor(readonly ms: number) {
    super("DETECTION_TIMEOUT", `the detectors did not finish within ${ms} ms (GATE_DETECT_TIMEOUT_MS)`);
    this.name = "DetectionTimeout";
  }
}

/** Runs built-in detectors on worker threads. */
export interface DetectionPool {
  /**
   * Runs the detectors of ALL_DETECTORS named by `ids` over `ctx` on a worker: each one's
   * findings or error, as running them here would give. Rejects when the worker cannot take the
   * job (it died, or the change could not be sent); the caller then runs them here. Rejects with
   * `DetectionTimeout` when the job takes longer than the pool's limit: the worker is stopped
   * (what hung there would hang here too), and the caller records the detectors as failed.
   */
  detect(ctx: DetectContext, ids: readonly string[]): Promise<DetectorOutcome[]>;
  /** The ids of the detectors a worker can run (the built-in ones, ALL_DETECTORS). */
  readonly runs: ReadonlySet<string>;
  close(): Promise<void>;
}

/** The most patch text one message to a worker carries (see `send`). */
export const CHUNK_BYTES = 256 * 1024;

/**
 * Sends a job to its worker: the changed files in pieces of about `CHUNK_BYTES` of patches, then
 * the job itself. A message is copied (a structured clone) on this thread, so the 3 MB of a
 * 3,000-file change sent in one message would hold it for 10-15 ms; in pieces, it takes a turn
 * between them and lets the requests being answered go first (`Turns`). Rejects when a piece
 * cannot be sent.
 */
async function send(
  worker: Worker,
  job: number,
  ctx: DetectContext,
  ids: readonly string[],
  answers: Answers,
): Promise<void> {
  const turns = new Turns(SLICE_MS, answers);
  const { files } = ctx.pr;
  for (let from = 0; from < files.length; ) {
    let to = from;
    for (let bytes = 0; to < files.length && (to === from || bytes < CHUNK_BYTES); to++)
      bytes += files[to]?.patch?.length ?? 0;
    if (turns.due()) await turns.take();
    worker.postMessage({ type: "files", job, files: files.slice(from, to) } satisfies FilesOfJob);
    from = to;
  }
  if (turns.due()) await turns.take();
  worker.postMessage({
    type: "detect",
    job,
    detectors: [...ids],
    pr: { ...ctx.pr, files: [] },
    licenseRules: ctx.licenseRules,
    ...(ctx.vulnerabilityRules ? { vulnerabilityRules: ctx.vulnerabilityRules } : {}),
  } satisfies DetectJob);
}

/** The ids of the built-in detectors (the ones a worker can run). */
export const BUILT_IN_DETECTORS: ReadonlySet<string> = new Set(ALL_DETECTORS.map((d) => d.id));

interface Running {
  ctx: DetectContext;
  resolve(outcomes: DetectorOutcome[]): void;
  reject(error: unknown): void;
}

/**
 * A pool of `size` detection workers (GATE_WORKERS), each started on first use and replaced
 * after it dies; undefined with size 0 or without a worker file beside this module (the CLI bundle).
 * The workers step aside while this thread is answering requests (`answers`, shared with them).
 *
 * @example const pool = detectionPool(1, log); const outcomes = await pool?.detect(ctx, ["credentials"]);
 */
export function detectionPool(
  size: number,
  log: Logger,
  timeoutMs = 120_000,
  answers: Answers = ANSWERS,
): DetectionPool | undefined {
  const start = size > 0 ? workerScript(import.meta.url, "detect-worker") : undefined;
  if (!start) return undefined;
  const slots: Array<{ worker: Worker; jobs: Map<number, Running> } | undefined> = Array.from({ length: size });
  let next = 0;
  let jobs = 0;

  const answer = (worker: Worker, running: Running | undefined, call: CallRequest): void => {
    const reply = (r: Omit<CallReply, "type" | "call">) => worker.postMessage({ type: "reply", call: call.call, ...r });
    if (!running) {
      reply({ error: "no such job" });
      return;
    }
    const { ctx } = running;
    const work =
      call.target === "head"
        ? ctx.head.read(String(call.args[0]))
        : call.target === "licenses"
          ? ctx.licenses.lookup(...(call.args as Parameters<DetectContext["licenses"]["lookup"]>))
          : ctx.advisories
            ? ctx.advisories.lookup(call.args[0] as Parameters<NonNullable<DetectContext["advisories"]>["lookup"]>[0])
            : Promise.resolve([]);
    work.then(
      (ok) => reply({ ok }),
      (error: unknown) => reply({ error: messageOf(error) }),
    );
  };

  const spawn = (slot: number) => {
    const worker = new Worker(start.script, { eval: start.eval, workerData: { answering: answers.shared() } });
    worker.unref();
    const entry = { worker, jobs: new Map<number, Running>() };
    const fail = (error: unknown) => {
      if (slots[slot] === entry) slots[slot] = undefined;
      for (const r of entry.jobs.values()) r.reject(error);
      entry.jobs.clear();
    };
    worker.on("message", (message: JobDone | CallRequest) => {
      if (message.type === "call") {
        answer(worker, entry.jobs.get(message.job), message);
        return;
      }
      const running = entry.jobs.get(message.job);
      entry.jobs.delete(message.job);
      if (entry.jobs.size === 0) worker.unref();
      for (const [file, detail] of message.notRead) running?.ctx.notRead(file, detail);
      if (message.steppedAsideMs > 0)
        log.debug(
          { job: message.job, steppedAsideMs: Math.round(message.steppedAsideMs) },
          "a detection job stepped aside while requests were answered",
        );
      running?.resolve(message.outcomes);
    });
    worker.on("error", (error) => {
      log.error({ err: error }, "a detection worker failed");
      fail(error);
    });
    worker.on("exit", (code) => fail(new Error(`the detection worker exited (${code})`)));
    slots[slot] = entry;
    return entry;
  };

  return {
    runs: BUILT_IN_DETECTORS,
    detect(ctx, ids) {
      const slot = next++ % size;
      const entry = slots[slot] ?? spawn(slot);
      const job = ++jobs;
      return new Promise<DetectorOutcome[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          if (!entry.jobs.delete(job)) return;
          log.error({ job, timeoutMs }, "a detection job ran out of time; its worker is stopped");
          reject(new DetectionTimeout(timeoutMs));
          // Its other jobs fail over to in-thread detection; the next job starts a new worker.
          if (slots[slot] === entry) slots[slot] = undefined;
          void entry.worker.terminate();
        }, timeoutMs);
        timer.unref();
        entry.jobs.set(job, {
          ctx,
          resolve: (outcomes) => {
            clearTimeout(timer);
            resolve(outcomes);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        entry.worker.ref();
        send(entry.worker, job, ctx, ids, answers).catch((error: unknown) => {
          entry.jobs.delete(job);
          entry.worker.postMessage({ type: "forget", job } satisfies ForgetJob);
          reject(error);
        });
      });
    },
    async close() {
      await Promise.all(slots.splice(0).map((s) => s?.worker.terminate()));
    },
  };
}
