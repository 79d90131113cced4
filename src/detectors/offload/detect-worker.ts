import { parentPort, workerData } from "node:worker_threads";
import { messageOf } from "../../domain/errors.js";
import { installStepAside, StepAside } from "../../domain/step-aside.js";
import { lowerThisThreadsPriority } from "../../worker-priority.js";
import type { DetectContext } from "../detector.js";
import { DependencyReading } from "../../ecosystems/dependency-reading.js";
import { ALL_DETECTORS } from "../index.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import type {
  CallReply,
  CallRequest,
  CallTarget,
  DetectJob,
  DetectorOutcome,
  FilesOfJob,
  ForgetJob,
  JobDone,
} from "./protocol.js";

// A worker thread of the detection pool (detect-pool.ts): runs detectors over a large change, off
// the thread that answers HTTP. Head files, licence and advisory lookups are asked of the main thread.
const port = parentPort;
// Below the answering thread: on a busy machine a webhook or a click is answered first.
lowerThisThreadsPriority();
// And aside while it answers: the pool shares its count of requests being answered.
const answering = (workerData as { answering?: SharedArrayBuffer } | null)?.answering;
const aside = answering ? new StepAside(new Int32Array(answering)) : undefined;
installStepAside(aside);
const calls = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
let nextCall = 0;

function ask(job: number, target: CallTarget, args: unknown[]): Promise<unknown> {
  const call = ++nextCall;
  return new Promise((resolve, reject) => {
    calls.set(call, { resolve, reject });
    port?.postMessage({ type: "call", job, call, target, args } satisfies CallRequest);
  });
}

async function run(job: DetectJob): Promise<Omit<JobDone, "steppedAsideMs">> {
  const notRead: JobDone["notRead"] = [];
  const asking = (target: CallTarget, args: unknown[]) => ask(job.job, target, args);
  const ctx: DetectContext = {
    pr: job.pr,
    head: { read: async (path) => (await asking("head", [path])) as string | undefined },
    licenses: { lookup: async (...args) => (await asking("licenses", args)) as never },
    advisories: { lookup: async (queries) => (await asking("advisories", [queries])) as never },
    licenseRules: job.licenseRules,
    ...(job.vulnerabilityRules ? { vulnerabilityRules: job.vulnerabilityRules } : {}),
    notRead: (file, detail) => void notRead.push([file, detail]),
    // One reading of the manifests for this review's detectors: the licence checks and SEC-07 share it.
    dependencies: new DependencyReading(),
  };
  const wanted = new Set(job.detectors);
  const outcomes = await Promise.all(
    ALL_DETECTORS.filter((d) => wanted.has(d.id)).map(async (d): Promise<DetectorOutcome> => {
      try {
        return { detector: d.id, findings: await d.detect(ctx) };
      } catch (error) {
        return { detector: d.id, error: messageOf(error) };
      }
    }),
  );
  return { type: "done", job: job.job, outcomes, notRead };
}

/** The files of each job sent so far (FilesOfJob), until its DetectJob comes. */
const filesOf = new Map<number, ChangedFile[]>();

port?.on("message", (message: DetectJob | FilesOfJob | ForgetJob | CallReply) => {
  if (message.type === "files") {
    const files = filesOf.get(message.job) ?? [];
    for (const f of message.files) files.push(f);
    filesOf.set(message.job, files);
    return;
  }
  if (message.type === "forget") {
    filesOf.delete(message.job);
    return;
  }
  if (message.type === "reply") {
    const pending = calls.get(message.call);
    calls.delete(message.call);
    if (message.error !== undefined) pending?.reject(new Error(message.error));
    else pending?.resolve(message.ok);
    return;
  }
  const sent = filesOf.get(message.job) ?? [];
  filesOf.delete(message.job);
  const job = { ...message, pr: { ...message.pr, files: [...sent, ...message.pr.files] } };
  const before = aside?.waitedMs ?? 0;
  void (aside ? aside.during(() => run(job)) : run(job)).then((done) =>
    port.postMessage({ ...done, steppedAsideMs: (aside?.waitedMs ?? 0) - before } satisfies JobDone),
  );
});
