import os from "node:os";

/** How far below the answering thread a worker thread runs (a nice value; 19 is the lowest). */
export const WORKER_NICENESS = 10;

/**
 * Lowers the calling worker thread's scheduling priority, so that on a busy machine the thread
 * that answers webhooks and Slack gets the CPU first and the heavy work waits. Linux only: there
 * a nice value belongs to one thread (`setpriority` of id 0 is the calling thread), elsewhere it
 * would lower the whole process, answering thread included. Returns the thread's nice value after,
 * or undefined when it was left alone (another platform, or a sandbox that refuses).
 *
 * @example lowerThisThreadsPriority() // 10 (on Linux, from a thread at 0)
 */
export function lowerThisThreadsPriority(platform: NodeJS.Platform = process.platform): number | undefined {
  if (platform !== "linux") return undefined;
  try {
    const now = os.getPriority(0);
    os.setPriority(0, Math.min(19, now + WORKER_NICENESS));
    return os.getPriority(0);
  } catch {
    return undefined;
  }
}
