import { z } from "zod";
import { SeveritySchema, SpecialtySchema } from "./finding.js";

/**
 * One ast-grep rule a policy carries as its own detector, written as ast-grep's rule files write
 * it (https://ast-grep.github.io/reference/yaml.html): `rule`, `constraints`, `utils`, `language`,
 * `message`, `severity`, `files`, `ignores`. Its findings cite the policy.
 *
 * @example PolicyRuleSchema.parse({ id: "no-legacy-auth", language: "TypeScript", rule: { pattern: "legacyAuth($$$ARGS)" }, message: "legacyAuth is retired" })
 */
export const PolicyRuleSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, "must be a rule id like no-legacy-auth")
      .describe("The rule's id, named in its findings and errors"),
    language: z
      .string()
      .min(1)
      .describe("ast-grep's language name: TypeScript, Tsx, JavaScript, Python, Go, Java, ..."),
    rule: z
      .record(z.string(), z.unknown())
      .describe("The ast-grep rule object (pattern, kind, has, inside, all, any, ...)"),
    constraints: z.record(z.string(), z.unknown()).optional(),
    utils: z.record(z.string(), z.unknown()).optional(),
    message: z.string().min(3).describe("What a reviewer reads; $NAME is replaced by what the metavariable matched"),
    note: z.string().optional(),
    severity: z
      .enum(["error", "warning", "info", "hint", "off"])
      .optional()
      .describe(
        "ast-grep's severity: error (the policy's severity and blocking, the default), warning, info or hint (non-blocking notes), off",
      ),
    files: z
      .array(z.string())
      .optional()
      .describe("Globs of the files it reads (all files of its language when absent)"),
    ignores: z.array(z.string()).optional().describe("Globs of files it skips"),
  })
  .strict();
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

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
    rules: z.array(PolicyRuleSchema).default([]).describe("ast-grep rules: the policy's own detector"),
  })
  .strict();

/** One policy: its fields and the prose a reviewer (or a model) reads. */
export type Policy = z.infer<typeof PolicyMetaSchema> & {
  /** The Markdown body below the front matter. */
  text: string;
  /** The file it was read from. */
  source: string;
  /** The line of each rule in the file (1-based), for errors that name it. */
  ruleLines?: number[];
};
