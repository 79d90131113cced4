import path from "node:path";
import { z } from "zod";
import { describeIssues, GateError } from "./domain/errors.js";
import { loadModelSettings, type ModelSettings } from "./claude/settings.js";

const int = (min: number) => z.coerce.number().int().min(min);

/**
 * Every `GATE_*` (and outside-service) setting, with its default. README "Settings" lists the same.
 * Read once, in `main.ts` or the CLI, never deep inside.
 */
const ConfigSchema = z.object({
  /** The SQLite file (checkpoints, reviews, audit log). */
  GATE_DB: z.string().min(1).default(".gate/gate.db"),
  /** Where snapshots and other working files go. */
  GATE_DATA_DIR: z.string().min(1).default(".gate"),
  /** A team's own policy corpus; default: the package's `policies/`. */
  GATE_POLICIES_DIR: z.string().min(1).optional(),
  /** Risk score (0-100) at or above which specialists run. */
  GATE_RISK_THRESHOLD: int(0).max(100).default(30),
  /** Per-specialist time limit. */
  GATE_SPECIALIST_TIMEOUT_MS: int(1).default(60_000),
  /** Investigation cycles per review, shared by machine investigations and human info requests. */
  GATE_MAX_CYCLES: int(0).default(2),
  /** Model spend (USD) after which a review makes no further investigation: it goes to a person. */
  GATE_MAX_COST_USD: z.coerce.number().positive().default(1),
  GATE_INVESTIGATOR_MAX_TURNS: int(1).default(8),
  GATE_INVESTIGATOR_MAX_TOOL_CALLS: int(1).default(24),
  GATE_INVESTIGATOR_MAX_FILE_CHARS: int(1).default(200_000),
  GATE_INVESTIGATOR_TIMEOUT_MS: int(1).default(120_000),
  /** Size cap of an extracted head snapshot of a live PR. */
  GATE_SNAPSHOT_MAX_BYTES: int(1024).default(200 * 1024 * 1024),
  /** Registries for live licence lookups (a private registry works). */
  GATE_NPM_REGISTRY_URL: z.string().url().optional(),
  GATE_PYPI_URL: z.string().url().optional(),
  /** crates.io (Cargo licences) and a deps.dev-compatible API (Go module licences). */
  GATE_CRATES_URL: z.string().url().optional(),
  GATE_GO_LICENSE_URL: z.string().url().optional(),
  /** pino level for stderr logs. */
  GATE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("warn"),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
});

export type Config = z.infer<typeof ConfigSchema> & {
  /** Absolute paths, resolved against the working directory once. */
  dbPath: string;
  dataDir: string;
  /** Model settings (GATE_MODEL_*, GATE_PRICES, GATE_MAX_INPUT_TOKENS), always validated. */
  model: ModelSettings;
};

/**
 * Reads and validates the settings. A bad value fails here, naming the variable.
 *
 * @example const config = loadConfig(process.env);
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = ConfigSchema.safeParse(present);
  if (!parsed.success) {
    throw new GateError("CONFIG_INVALID", `invalid setting ${describeIssues(parsed.error)}`);
  }
  const c = parsed.data;
  const model = loadModelSettings(env);
  return {
    ...c,
    model,
    dbPath: c.GATE_DB === ":memory:" ? c.GATE_DB : path.resolve(cwd, c.GATE_DB),
    dataDir: path.resolve(cwd, c.GATE_DATA_DIR),
    ...(c.GATE_POLICIES_DIR ? { GATE_POLICIES_DIR: path.resolve(cwd, c.GATE_POLICIES_DIR) } : {}),
  };
}
