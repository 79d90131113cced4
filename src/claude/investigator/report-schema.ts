import { zodOutputFormat } from "@anthropic-ai/sdk/helpers/zod";
import { z } from "zod";
import { describeIssues } from "../../domain/errors.js";

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
        policy: z
          .string()
          .regex(/^[A-Z]+-\d{2,}$/)
          .describe("The policy it bears on, e.g. SEC-03"),
        message: z.string().describe("What is wrong"),
        evidence: EvidenceSchema.describe("The line that shows it"),
      }),
    )
    .describe("Problems a policy forbids, found in the code read; empty when all is well"),
  conclusive: z.boolean().describe("True when what was read settles the question"),
  reason: z.string().optional().describe("When not conclusive: why not"),
});
export type InvestigatorReport = z.infer<typeof InvestigatorReportSchema>;

/** The report schema as `output_config.format`: the API constrains the final answer to it. */
export const REPORT_FORMAT = zodOutputFormat(InvestigatorReportSchema);

/**
 * Reads the final answer strictly: the whole text must be the schema's JSON. Anything else (prose,
 * a fenced block, a truncated or invalid object) is a problem, which the caller turns into an
 * inconclusive report: it fails closed.
 *
 * @example readReportText('{"answers":[],"evidence":[],"concerns":[],"conclusive":false}').ok // true
 */
export function readReportText(
  text: string,
): { ok: true; report: InvestigatorReport } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: "the model's final answer is not the report's JSON" };
  }
  const report = InvestigatorReportSchema.safeParse(json);
  if (!report.success) {
    return {
      ok: false,
      problem: `the model's final answer does not match the report schema (${describeIssues(report.error, { max: 3 })})`,
    };
  }
  return { ok: true, report: report.data };
}
