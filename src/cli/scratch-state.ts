import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Env } from "../settings/index.js";

/** The environment a command runs with, and the temp folder to remove after it (when one was made). */
export interface ScratchState {
  env: Env;
  /** Whether the review outlives the command (GATE_DB or GATE_DATABASE_URL named where it is kept). */
  kept: boolean;
  remove(): void;
}

const blank = (v: string | undefined) => v === undefined || v.trim() === "";

/**
 * `gate check`'s state: where GATE_DB (or GATE_DATABASE_URL) and GATE_DATA_DIR say, or else a temp
 * folder made for this one run and removed after it, so a CI job leaves nothing in its checkout.
 *
 * @example const scratch = scratchState(env); try { run(scratch.env) } finally { scratch.remove() }
 */
export function scratchState(env: Env): ScratchState {
  const kept = !blank(env.GATE_DB) || !blank(env.GATE_DATABASE_URL);
  if (kept && !blank(env.GATE_DATA_DIR)) return { env, kept, remove: () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gate-check-"));
  return {
    env: {
      ...env,
      ...(kept ? {} : { GATE_DB: path.join(dir, "gate.db") }),
      ...(blank(env.GATE_DATA_DIR) ? { GATE_DATA_DIR: path.join(dir, "data") } : {}),
    },
    kept,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
