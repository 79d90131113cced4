import { z } from "zod";
import { SeveritySchema, SpecialtySchema } from "./finding.js";

/**
 * The machine-readable head of a policy file (YAML front matter above the prose).
 *
 * @example PolicyMetaSchema.parse({ id: "SEC-01", title: "No credentials", specialty: "security",
 *   severity: "critical", blocking: true, version: 1 })
 */
export const PolicyMetaSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Z]+-\d{2,}$/, "must look like SEC-01")
      .describe("The stable policy id findings cite"),
    title: z.string().min(3).describe("One line a reviewer reads"),
    specialty: SpecialtySchema.describe("Which specialist reviews it"),
    severity: SeveritySchema.describe("Severity of a violation by default"),
    blocking: z.boolean().describe("Whether a violation stops the PR until a person decides"),
    version: z.number().int().positive().describe("Bumped when the meaning changes"),
    paths: z.array(z.string()).default([]).describe("Globs of files the policy is about (empty: any file)"),
    triggers: z.array(z.string()).default([]).describe("Words in an added line that make the policy relevant"),
    detectors: z.array(z.string()).default([]).describe("Detector ids that raise it"),
  })
  .strict();

/** One policy: its fields and the prose a reviewer (or a model) reads. */
export type Policy = z.infer<typeof PolicyMetaSchema> & {
  /** The Markdown body below the front matter. */
  text: string;
  /** The file it was read from. */
  source: string;
};
