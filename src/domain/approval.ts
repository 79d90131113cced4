import type { Specialty } from "./finding.js";

/** What one approval is given for: a blocking specialty, or the review as a whole when nothing blocks by specialty. */
export type Coverage = Specialty | "general";

/** One person's approval of a review whose blocking specialties need approvers of their own. Plain JSON. */
export interface Approval {
  by: string;
  at: string;
  /** The needs it covered (those still open that the person may approve). */
  covers: Coverage[];
  note?: string;
}
