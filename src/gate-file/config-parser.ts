import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { workerScript } from "../worker-script.js";
import type { ParseAnswer, ParseRequest } from "./config-worker.js";
import { ConfigFileError, parseConfigText } from "./load.js";
import type { GateConfigFile } from "./schema.js";

/** Parses a configuration file's text (a repository's `.github/gate.yml`), where it cannot delay HTTP answers. */
export interface ConfigParser {
  /** The file's values; rejects with `ConfigFileError` naming the line, as `parseConfigText` does. */
  parse(text: string, file: string): Promise<GateConfigFile>;
  /** "workers" when parsing runs on worker threads, "in-thread" otherwise. */
  readonly where: "workers" | "in-thread";
  close(): Promise<void>;
}

/** Parsing on the calling thread: GATE_WORKERS=0, and the CLI bundle (a command answers no one meanwhile). */
export const inThreadParser: ConfigParser = {
  where: "in-thread",
  parse: async (text, file) => parseConfigText(text, file),
  close: async () => {},
};

interface Pending {
  resolve(value: GateConfigFile): void;
  reject(error: unknown): void;
}

/**
 * A pool of `size` worker threads parsing configuration files (GATE_WORKERS), each started
 * when first needed; a worker that dies rejects what it was parsing and is replaced on the next
 * request. With size 0, or no worker file beside this module, parsing stays in-thread.
 *
 * @example const parser = configParser(2, log); await parser.parse(text, "acme/web:.github/gate.yml@abc");
 */
export function configParser(size: number, log?: Logger): ConfigParser {
  const start = size > 0 ? workerScript(import.meta.url, "config-worker") : undefined;
  if (!start) return inThreadParser;
  const workers: Array<{ worker: Worker; pending: Map<number, Pending> } | undefined> = Array.from({ length: size });
  let next = 0;
  let ids = 0;
  const spawn = (slot: number) => {
    const worker = new Worker(start.script, { eval: start.eval });
    worker.unref();
    const pending = new Map<number, Pending>();
    const entry = { worker, pending };
    const fail = (error: unknown) => {
      if (workers[slot] === entry) workers[slot] = undefined;
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    worker.on("message", (answer: ParseAnswer) => {
      const p = pending.get(answer.id);
      if (!p) return;
      pending.delete(answer.id);
      if (pending.size === 0) worker.unref();
      if ("ok" in answer) p.resolve(answer.ok as GateConfigFile);
      else if ("problems" in answer) p.reject(new ConfigFileError(answer.file, answer.problems));
      else p.reject(new Error(answer.error));
    });
    worker.on("error", (error) => {
      log?.error({ err: error }, "a config parser worker failed");
      fail(error);
    });
    worker.on("exit", (code) => fail(new Error(`the config parser worker exited (${code})`)));
    workers[slot] = entry;
    return entry;
  };
  return {
    where: "workers",
    parse(text, file) {
      const slot = next++ % size;
      const entry = workers[slot] ?? spawn(slot);
      const id = ++ids;
      return new Promise<GateConfigFile>((resolve, reject) => {
        entry.pending.set(id, { resolve, reject });
        entry.worker.ref();
        entry.worker.postMessage({ id, text, file } satisfies ParseRequest);
      });
    },
    async close() {
      await Promise.all(workers.splice(0).map((w) => w?.worker.terminate()));
    },
  };
}
