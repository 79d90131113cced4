import type * as ChildProcesses from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Logger } from "pino";
import { GateError } from "../../domain/errors.js";
import type { Policy } from "../../domain/policy.js";
import type { PullRequest } from "../../domain/pull-request.js";
import type { DetectorOutcome } from "./protocol.js";
import { readProgress } from "./rule-progress.js";
import type {
  CheckPoliciesJob,
  PoliciesChecked,
  PolicyText,
  RulesDone,
  RulesJob,
  RulesSearching,
} from "./rules-protocol.js";

/** Node's child_process, loaded at the first fork: a review with no team rule never pays for it. */
let childProcesses: typeof ChildProcesses | undefined;

/** How long past the rules' budget the rules process is left before it is killed (a rule that returns in time is stopped there, naming itself). */
export const RULES_GRACE_MS = 250;

/**
 * Teams' rules that ran past their budget (GATE_RULES_BUDGET_MS) while ast-grep searched: the
 * rules process was killed, and `rule` names what it was searching with (rule id, policy and its
 * file, the file searched) when it is known.
 */
export class RulesOverrun extends GateError {
  constructor(
    readonly ms: number,
    readonly rule: string | undefined,
  ) {
    super(
      "POLICY_RULE_TIMEOUT",
      `${rule ?? "a teams' rule"} was still searching after ${ms} ms (GATE_RULES_BUDGET_MS); it was stopped, and the rules not run count as not read`,
    );
    this.name = "RulesOverrun";
  }
}

/** Runs teams' ast-grep rules in a child process that is killed when they overrun. */
export interface RulesRunner {
  /**
   * The server's rule `policies` and the repository's own policy `texts` (parsed there) over
   * `pr`'s files: one outcome per policy (`rules:ID`), and the files each reads. Rejects with
   * `RulesOverrun` past `budgetMs` (the process is killed mid-search and replaced on the next
   * job); with another error when the process could not take the job.
   */
  rules(
    pr: PullRequest,
    policies: readonly Policy[],
    texts: readonly PolicyText[],
    budgetMs: number,
  ): Promise<{ outcomes: DetectorOutcome[]; readBy: RulesDone["readBy"] }>;
  /** `repositoryPolicies` there: a repository's policy files parsed and their rules compiled off the answering thread. */
  checkPolicies(
    texts: readonly PolicyText[],
    server: readonly Pick<Policy, "id" | "source">[],
  ): Promise<{ policies: Policy[]; problem?: string }>;
  close(): Promise<void>;
}

/** How to start the rules process from this module (`.js` in dist/, `.ts` under tsx or vitest); undefined without the file (the CLI bundle). */
function processScript(): { file: string; execArgv: string[] } | undefined {
  const here = import.meta.url;
  const ts = here.endsWith(".ts");
  const file = fileURLToPath(new URL(`./rules-process.${ts ? "ts" : "js"}`, here));
  if (!fs.existsSync(file)) return undefined;
  if (!ts) return { file, execArgv: [] };
  try {
    const tsx = path.join(path.dirname(createRequire(here).resolve("tsx/package.json")), "dist/loader.mjs");
    return { file, execArgv: ["--import", pathToFileURL(tsx).href] };
  } catch {
    return undefined;
  }
}

interface Queued {
  message: (job: number) => RulesJob | CheckPoliciesJob;
  /** How long the job may take to start searching (parsing, compiling), or in all for a check. */
  timeoutMs: number;
  /** How long its searches may take once they start (a `RulesSearching` message), if it searches. */
  searchMs?: number;
  overran(rule: string | undefined): Error;
  resolve(done: RulesDone | PoliciesChecked): void;
  reject(error: unknown): void;
}

/**
 * One rules process, started on first use, running one job at a time (the others wait their
 * turn; a job's budget starts when it is handed over). Past a job's time the process is killed
 * (SIGKILL) and the next job starts a fresh one. Undefined without the process's script beside
 * this module (the CLI bundle): the caller then runs the rules in-thread.
 *
 * @example const runner = rulesRunner(log, 120_000); await runner?.rules(pr, [], texts, 5_000);
 */
export function rulesRunner(log: Logger, timeoutMs = 120_000): RulesRunner | undefined {
  const script = processScript();
  if (!script) return undefined;
  const progressFile = path.join(os.tmpdir(), `gate-rules-${process.pid}-${randomUUID()}.progress`);
  let child: ChildProcess | undefined;
  type Running = Queued & { job: number; child: ChildProcess; timer?: NodeJS.Timeout };
  let running: Running | undefined;
  const waiting: Queued[] = [];
  let jobs = 0;
  let closed = false;

  const finish = (outcome: { done?: RulesDone | PoliciesChecked; error?: unknown }) => {
    const r = running;
    if (!r) return;
    running = undefined;
    clearTimeout(r.timer);
    if (outcome.done) r.resolve(outcome.done);
    else r.reject(outcome.error);
    pump();
  };

  const spawn = (): ChildProcess => {
    fs.writeFileSync(progressFile, Buffer.alloc(8));
    // The progress file is the process's one argument.
    childProcesses ??= createRequire(import.meta.url)("node:child_process") as typeof ChildProcesses;
    const c = childProcesses.fork(script.file, [progressFile], {
      execArgv: script.execArgv,
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    c.on("message", (message: RulesDone | PoliciesChecked | RulesSearching) => {
      if (!running || message.job !== running.job) return;
      if (message.type !== "searching") finish({ done: message });
      else if (running.searchMs !== undefined) {
        // The searches' budget starts now: parsing and compiling 20,000 rules took their own time.
        clearTimeout(running.timer);
        running.timer = overrunAfter(running, running.searchMs);
      }
    });
    c.on("exit", (code, signal) => {
      if (child === c) child = undefined;
      if (running?.child === c) finish({ error: new Error(`the rules process exited (${signal ?? code})`) });
    });
    c.on("error", (error) => log.error({ err: error }, "the rules process failed"));
    return c;
  };

  /** Kills the process `ms` from now unless `r` has finished: the job rejects naming the rule that was searching. */
  const overrunAfter = (r: Running, ms: number): NodeJS.Timeout =>
    setTimeout(() => {
      if (running !== r) return;
      const at = readProgress(progressFile);
      const rule = at && at.job === r.job ? at.label : undefined;
      log.error({ job: r.job, ms, rule }, "teams' rules ran out of time; the rules process is killed");
      if (child === r.child) child = undefined;
      r.child.kill("SIGKILL");
      finish({ error: r.overran(rule) });
    }, ms);

  const pump = () => {
    if (running || closed) return;
    const next = waiting.shift();
    if (!next) {
      child?.channel?.unref();
      child?.unref();
      return;
    }
    const c = child ?? spawn();
    child = c;
    c.ref();
    c.channel?.ref();
    const job = ++jobs;
    const r: Running = { ...next, job, child: c };
    r.timer = overrunAfter(r, next.timeoutMs);
    running = r;
    try {
      c.send(next.message(job), (error) => {
        if (error) finish({ error });
      });
    } catch (error) {
      finish({ error });
    }
  };

  const submit = (q: Omit<Queued, "resolve" | "reject">) =>
    new Promise<RulesDone | PoliciesChecked>((resolve, reject) => {
      if (closed) return reject(new Error("the rules runner is closed"));
      waiting.push({ ...q, resolve, reject });
      pump();
    });

  return {
    async rules(pr, policies, texts, budgetMs) {
      const done = await submit({
        message: (job) => ({ type: "rules", job, pr, policies: [...policies], texts: [...texts], budgetMs }),
        timeoutMs,
        searchMs: budgetMs + RULES_GRACE_MS,
        overran: (rule) => new RulesOverrun(budgetMs, rule),
      });
      return done.type === "rules-done"
        ? { outcomes: done.outcomes, readBy: done.readBy }
        : { outcomes: [], readBy: [] };
    },
    async checkPolicies(texts, server) {
      const done = await submit({
        message: (job) => ({
          type: "check-policies",
          job,
          texts: [...texts],
          server: server.map((p) => ({ id: p.id, source: p.source })),
        }),
        timeoutMs,
        overran: () =>
          new GateError("POLICY_RULE_TIMEOUT", `checking the repository's policies took over ${timeoutMs} ms`),
      });
      return done.type === "checked"
        ? { policies: done.policies, ...(done.problem !== undefined ? { problem: done.problem } : {}) }
        : { policies: [], problem: "the rules process gave no answer about the repository's policies" };
    },
    async close() {
      closed = true;
      if (running) finish({ error: new Error("the rules runner is closed") });
      for (const q of waiting.splice(0)) q.reject(new Error("the rules runner is closed"));
      child?.kill("SIGKILL");
      child = undefined;
      fs.rmSync(progressFile, { force: true });
    },
  };
}
