import { z } from "zod";
import type { Escalation, ResultFinding } from "./review-result.js";
import type { ResumeValue } from "./review.js";
import type { Risk } from "./risk.js";

/** What the human gate's `interrupt()` carries: JSON only, enough to render the card. */
export interface HumanGatePayload {
  reviewId: string;
  pr: string;
  title: string;
  risk: Risk | null;
  findings: ResultFinding[];
  escalation: Escalation | null;
  budget: { cycles_used: number; cycles_max: number };
}

const CoverageSchema = z.enum(["security", "licensing", "data", "general"]);
const ApprovalSchema = z
  .object({
    by: z.string().min(1),
    at: z.string().min(1),
    covers: z.array(CoverageSchema).max(4),
    note: z.string().max(3000).optional(),
  })
  .strict();

/** The only resume values the human gate accepts; anything else is rejected and it asks again. */
const DecidedViaSchema = z
  .object({ kind: z.enum(["slack", "cli", "github"]), groups: z.array(z.string()).max(100).optional() })
  .strict();
const CarriedFromSchema = z
  .object({ review_id: z.string().min(1), head_sha: z.string().regex(/^[0-9a-f]{40}$/), at: z.string() })
  .strict();
/** What a decision may carry besides who and why: the door it came through, and (only the runner's) its origin. */
const decisionFields = {
  by: z.string().min(1),
  note: z.string().max(3000).optional(),
  via: DecidedViaSchema.optional(),
  carried: CarriedFromSchema.optional(),
};

export const ResumeSchema = z.discriminatedUnion("kind", [
  z
    .object({ kind: z.literal("approve"), ...decisionFields, approvals: z.array(ApprovalSchema).max(8).optional() })
    .strict(),
  z.object({ kind: z.literal("reject"), ...decisionFields }).strict(),
  z.object({ kind: z.literal("info"), by: z.string().min(1), question: z.string().min(3).max(2000) }).strict(),
]) satisfies z.ZodType<ResumeValue>;
