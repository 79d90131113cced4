import { z } from "zod";
import { SeveritySchema } from "../../domain/finding.js";

/** One problem the model found in the change, citing one policy of the specialty. */
export const ModelFindingSchema = z.object({
  policy: z.string().describe("The id of the policy this finding cites, exactly as listed (e.g. SEC-02)"),
  severity: SeveritySchema.describe("How bad it is: low, medium, high or critical"),
  blocking: z
    .boolean()
    .describe("True when the change must not merge until a person decides; follow the policy's own blocking flag"),
  needs_more_context: z
    .boolean()
    .describe("True when the diff alone cannot settle it and code outside the diff must be read"),
  file: z.string().describe("Path of the file in the pull request, when the finding is about one").optional(),
  line: z.number().int().describe("Head line number from the numbered diff (1-based), when known").optional(),
  message: z
    .string()
    .describe("One or two sentences a reviewer reads: what is wrong and what to do; never repeat a secret"),
});

/** The model's view of one policy it examined. */
export const ModelVerdictSchema = z.object({
  policy: z.string().describe("The id of a policy listed in the system prompt"),
  verdict: z
    .enum(["violated", "compliant", "unsure"])
    .describe("violated: the change breaks it; compliant: it does not; unsure: cannot tell from what is shown"),
  reason: z.string().describe("Why, in one sentence"),
});

/**
 * The specialist's whole answer: the findings, and a verdict for each policy it examined.
 *
 * @example SpecialistAnswerSchema.parse({ findings: [], verdicts: [{ policy: "SEC-01", verdict: "compliant", reason: "no keys" }] })
 */
export const SpecialistAnswerSchema = z.object({
  findings: z.array(ModelFindingSchema).describe("Every policy violation or open question found; empty when none"),
  verdicts: z.array(ModelVerdictSchema).describe("One verdict per listed policy"),
});
export type SpecialistAnswer = z.infer<typeof SpecialistAnswerSchema>;
