import { z } from "zod";

/** What only the `gate` command reads. */
export interface CliSettings {
  /** `USER`: who `gate decide` records when `--by` is not given. */
  user?: string;
}

/** @example cliSchema.parse({ USER: "alice" }).user // "alice" */
export const cliSchema = z
  .object({ USER: z.string().trim().optional() })
  .transform((e): CliSettings => (e.USER ? { user: e.USER } : {}));
