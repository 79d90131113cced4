import { z } from "zod";

const EvidenceSchema = z.object({
  file: z.string().min(1).describe("Path of the file quoted, relative to the repository root"),
  line: z.number().int().nonnegative().describe("1-based line number of the quoted line"),
  excerpt: z.string().describe("The quoted line(s), short"),
});

/**
 * The investigator's final answer, as JSON in its last message.
 *
 * @example InvestigatorReportSchema.parse({ answers: ["yes"], evidence: [], concerns: [], conclusive: true })
 */
export const InvestigatorReportSchema = z.object({
  answers: z.array(z.string()).describe("Direct answers to the question, one sentence each"),
  evidence: z.array(EvidenceSchema).describe("Lines read that support the answers"),
  concerns: z
    .array(
      z.object({
        policy: z.string().regex(/^[A-Z]+-\d{2,}$/).describe("The policy it bears on, e.g. SEC-03"),
        message: z.string().describe("What is wrong"),
        evidence: EvidenceSchema.describe("The line that shows it"),
      }),
    )
    .describe("Problems a policy forbids, found in the code read; empty when all is well"),
  conclusive: z.boolean().describe("True when what was read settles the question"),
  reason: z.string().optional().describe("When not conclusive: why not"),
});
export type InvestigatorReport = z.infer<typeof InvestigatorReportSchema>;
