import path from "node:path";
import { z } from "zod";
import type { InvestigationLimits } from "../investigator/harness.js";
import type { SnapshotCaps } from "../domain/snapshot-ref.js";
import { BUNDLED_CONFIG_FILE, BUNDLED_POLICIES_DIR } from "../package-paths.js";
import type { RegistryUrls } from "../ecosystems/registry-resolver.js";
import type { DatabaseSetting } from "../store/open-state.js";
import { duration, httpUrl, integer } from "./fields.js";

/** pino's levels. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The review's own settings: storage, policies, cost gates, budgets, snapshots, licence lookups. */
export interface CoreSettings {
  /** Where the state lives: GATE_DATABASE_URL's PostgreSQL, else the SQLite file GATE_DB (absolute, or `:memory:`). */
  database: DatabaseSetting;
  /** Working files (absolute): snapshots go under it. */
  dataDir: string;
  /** The policy corpus in force (absolute): `GATE_POLICIES_DIR` or the package's `policies/`. */
  policiesDir: string;
  /** The server-wide configuration file (absolute): `GATE_CONFIG` or the package's `config/gate.default.yml`. */
  configFile: string;
  /** Unset: each entry point picks its own default (the CLI `warn`, the server `info`). */
  logLevel: LogLevel | undefined;
  review: {
    /** Risk score (0–100) at or above which specialists run. */
    riskThreshold: number;
    specialistTimeoutMs: number;
    /** Investigation cycles per review, shared by machine investigations and Request info. */
    maxCycles: number;
    /** Model spend (USD) after which no investigation or question starts. */
    maxCostUsd: number;
  };
  investigator: InvestigationLimits;
  snapshot: SnapshotCaps;
  /** Registries for live licence lookups; unset means the public ones. */
  licenses: RegistryUrls;
  /** Known vulnerabilities (SEC-07) of live reviews: OSV's API (`osvUrl`, the public one when unset) or a folder of its records. */
  advisories: { osvUrl?: string; osvDir?: string; exportUrl?: string; cacheTtlMs: number };
  /** GATE_WORKERS: worker threads that parse repositories' configuration files (0: on the main thread). */
  workers: number;
  /** GATE_DETECT_TIMEOUT_MS: how long a detection worker may take over one large change. */
  detectTimeoutMs: number;
  /**
   * Emergency changes (docs/operations.md, "Emergency changes"): a PR carrying `label` passes its
   * check while its review waits for a person, whose approval is due within `hours`. No `label`
   * (GATE_EMERGENCY_LABEL=off): there is no emergency path.
   */
  emergency: { label?: string; hours: number };
  /** GATE_RULES_BUDGET_MS: how long all the teams' ast-grep rules of one review may search (a worker past it is stopped). */
  rulesBudgetMs: number;
  /**
   * The caps on what the gate reads from outside and from a pull request: one answer of OSV or a
   * licence registry (`GATE_MAX_ANSWER_BYTES`), one file's diff (`GATE_MAX_FILE_LINES`,
   * `GATE_MAX_FILE_BYTES`). What a cap stops is recorded and the review goes to a person.
   */
  caps: { answerBytes: number; fileLines: number; fileBytes: number };
}

/**
 * Whether a URL names a PostgreSQL database (`postgres://` or `postgresql://`).
 *
 * @example isPostgresUrl("postgres://db/gate") // true
 */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\/./.test(url) && URL.canParse(url);
}

/**
 * The core settings, `GATE_*` by `GATE_*`, each with its default (README, Settings).
 *
 * @example coreSchema("/srv").parse({ GATE_MAX_CYCLES: "3" }).review.maxCycles // 3
 */
export function coreSchema(cwd: string) {
  return z
    .object({
      GATE_DB: z.string().default(".gate/gate.db"),
      GATE_DATABASE_URL: z
        .string()
        .refine(isPostgresUrl, {
          message: "must be a PostgreSQL URL: postgres://user:password@host:5432/database",
        })
        .optional(),
      GATE_DATA_DIR: z.string().default(".gate"),
      GATE_POLICIES_DIR: z.string().optional(),
      GATE_CONFIG: z.string().optional(),
      GATE_LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
      GATE_RISK_THRESHOLD: integer(0).max(100).default(30),
      GATE_SPECIALIST_TIMEOUT_MS: integer(1).default(60_000),
      GATE_MAX_CYCLES: integer(0).default(2),
      GATE_MAX_COST_USD: z.coerce.number().positive().default(1),
      GATE_INVESTIGATOR_MAX_TURNS: integer(1).default(8),
      GATE_INVESTIGATOR_MAX_TOOL_CALLS: integer(1).default(24),
      GATE_INVESTIGATOR_MAX_FILE_CHARS: integer(1).default(200_000),
      GATE_INVESTIGATOR_TIMEOUT_MS: integer(1).default(120_000),
      GATE_SNAPSHOT_MAX_BYTES: integer(1024).default(200 * 1024 * 1024),
      GATE_SNAPSHOT_MAX_FILES: integer(1).default(50_000),
      GATE_SNAPSHOT_MAX_DEPTH: integer(1).default(40),
      GATE_NPM_REGISTRY_URL: httpUrl.optional(),
      GATE_PYPI_URL: httpUrl.optional(),
      GATE_CRATES_URL: httpUrl.optional(),
      GATE_GO_LICENSE_URL: httpUrl.optional(),
      GATE_MAVEN_LICENSE_URL: httpUrl.optional(),
      GATE_NUGET_LICENSE_URL: httpUrl.optional(),
      GATE_PACKAGIST_URL: httpUrl.optional(),
      GATE_RUBYGEMS_URL: httpUrl.optional(),
      GATE_OSV_URL: httpUrl.optional(),
      GATE_OSV_DIR: z.string().optional(),
      GATE_OSV_EXPORT_URL: httpUrl.optional(),
      GATE_OSV_CACHE_TTL: duration.default(6 * 3_600_000),
      GATE_WORKERS: integer(0).max(16).default(1),
      GATE_DETECT_TIMEOUT_MS: integer(1).default(120_000),
      GATE_EMERGENCY_LABEL: z.string().trim().min(1).max(50).default("emergency"),
      GATE_EMERGENCY_HOURS: z.coerce
        .number()
        .positive()
        .max(24 * 365)
        .default(24),
      GATE_RULES_BUDGET_MS: integer(100).default(5_000),
      GATE_MAX_ANSWER_BYTES: integer(1024).default(32 * 1024 * 1024),
      GATE_MAX_FILE_LINES: integer(1).default(100_000),
      GATE_MAX_FILE_BYTES: integer(1024).default(8 * 1024 * 1024),
    })
    .transform(
      (e): CoreSettings => ({
        database: e.GATE_DATABASE_URL
          ? { kind: "postgres", url: e.GATE_DATABASE_URL }
          : { kind: "sqlite", path: e.GATE_DB === ":memory:" ? e.GATE_DB : path.resolve(cwd, e.GATE_DB) },
        dataDir: path.resolve(cwd, e.GATE_DATA_DIR),
        policiesDir: e.GATE_POLICIES_DIR ? path.resolve(cwd, e.GATE_POLICIES_DIR) : BUNDLED_POLICIES_DIR,
        configFile: e.GATE_CONFIG ? path.resolve(cwd, e.GATE_CONFIG) : BUNDLED_CONFIG_FILE,
        logLevel: e.GATE_LOG_LEVEL,
        review: {
          riskThreshold: e.GATE_RISK_THRESHOLD,
          specialistTimeoutMs: e.GATE_SPECIALIST_TIMEOUT_MS,
          maxCycles: e.GATE_MAX_CYCLES,
          maxCostUsd: e.GATE_MAX_COST_USD,
        },
        investigator: {
          maxTurns: e.GATE_INVESTIGATOR_MAX_TURNS,
          maxToolCalls: e.GATE_INVESTIGATOR_MAX_TOOL_CALLS,
          maxFileChars: e.GATE_INVESTIGATOR_MAX_FILE_CHARS,
          timeoutMs: e.GATE_INVESTIGATOR_TIMEOUT_MS,
        },
        snapshot: {
          maxBytes: e.GATE_SNAPSHOT_MAX_BYTES,
          maxFiles: e.GATE_SNAPSHOT_MAX_FILES,
          maxDepth: e.GATE_SNAPSHOT_MAX_DEPTH,
        },
        licenses: {
          ...(e.GATE_NPM_REGISTRY_URL ? { npmRegistryUrl: e.GATE_NPM_REGISTRY_URL } : {}),
          ...(e.GATE_PYPI_URL ? { pypiUrl: e.GATE_PYPI_URL } : {}),
          ...(e.GATE_CRATES_URL ? { cratesUrl: e.GATE_CRATES_URL } : {}),
          ...(e.GATE_GO_LICENSE_URL ? { goLicenseUrl: e.GATE_GO_LICENSE_URL } : {}),
          ...(e.GATE_MAVEN_LICENSE_URL ? { mavenLicenseUrl: e.GATE_MAVEN_LICENSE_URL } : {}),
          ...(e.GATE_NUGET_LICENSE_URL ? { nugetLicenseUrl: e.GATE_NUGET_LICENSE_URL } : {}),
          ...(e.GATE_PACKAGIST_URL ? { packagistUrl: e.GATE_PACKAGIST_URL } : {}),
          ...(e.GATE_RUBYGEMS_URL ? { rubygemsUrl: e.GATE_RUBYGEMS_URL } : {}),
        },
        advisories: {
          ...(e.GATE_OSV_URL ? { osvUrl: e.GATE_OSV_URL } : {}),
          ...(e.GATE_OSV_DIR ? { osvDir: path.resolve(cwd, e.GATE_OSV_DIR) } : {}),
          ...(e.GATE_OSV_EXPORT_URL ? { exportUrl: e.GATE_OSV_EXPORT_URL } : {}),
          cacheTtlMs: e.GATE_OSV_CACHE_TTL,
        },
        workers: e.GATE_WORKERS,
        detectTimeoutMs: e.GATE_DETECT_TIMEOUT_MS,
        emergency: {
          // A blank variable means its default (presentIn): `off` is how the path is turned off.
          ...(e.GATE_EMERGENCY_LABEL !== "off" ? { label: e.GATE_EMERGENCY_LABEL } : {}),
          hours: e.GATE_EMERGENCY_HOURS,
        },
        rulesBudgetMs: e.GATE_RULES_BUDGET_MS,
        caps: {
          answerBytes: e.GATE_MAX_ANSWER_BYTES,
          fileLines: e.GATE_MAX_FILE_LINES,
          fileBytes: e.GATE_MAX_FILE_BYTES,
        },
      }),
    );
}
