import os from "node:os";
import { z } from "zod";
import { duration } from "./fields.js";

/** The PostgreSQL job queue's settings (several replicas on one database; SQLite ignores them). */
export interface JobSettings {
  /** `GATE_JOB_LEASE`: a job whose replica stops renewing it is taken over after this long. */
  leaseMs: number;
  /** `GATE_REPLICA_ID`: who holds a job's lease (in the logs and the `gate_jobs` table). */
  replicaId: string;
}

/** @example jobsSchema.parse({ GATE_JOB_LEASE: "2m" }).leaseMs // 120000 */
export const jobsSchema = z
  .object({
    GATE_JOB_LEASE: duration.default(60_000),
    GATE_REPLICA_ID: z
      .string()
      .trim()
      .regex(/^[\w.:@-]{1,100}$/, "must be 1 to 100 letters, digits or . _ - : @")
      .optional(),
  })
  .transform(
    (e): JobSettings => ({
      leaseMs: e.GATE_JOB_LEASE,
      replicaId: e.GATE_REPLICA_ID ?? `${os.hostname()}-${process.pid}`,
    }),
  );
