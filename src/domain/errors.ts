/**
 * Every code an error the gate raises on purpose carries, with the advice a person can act on.
 * Advice names only the README's sections or files in `docs/`.
 */
export const ERROR_ADVICE = {
  CONFIG_INVALID: "fix the setting named above (README, Settings) and start again",
  SERVICE_UNREACHABLE:
    "the setting may well be right: the host named above gave no answer (network, DNS, a proxy or firewall, or the service is down); check the route to it, or its address setting, and start again",
  CONFIG_FILE_INVALID:
    "fix the configuration file at the line and key named above (README, Configuration); `gate config check <file>` checks a file",
  POLICY_INVALID: "fix the policy file named above, or point GATE_POLICIES_DIR at a valid corpus (README, Policies)",
  POLICY_RULE_TIMEOUT:
    "a policy's ast-grep rule took longer than its budget, so a person reviews the PR; narrow the rule (its files, a kind before a pattern) and `gate policies test` it (README, Policies)",
  FIXTURE_INVALID: "a fixture needs pr.json and files.json in GitHub's REST shapes (docs/fixtures.md)",
  FIXTURE_NOT_FOUND:
    "name a fixture folder (a path), or a bundled fixture by its name; `gate demo` and docs/fixtures.md show them",
  FIXTURE_NAME_REFUSED: "fixture folder names are plain: letters, digits, '.', '_' and '-'",
  PULL_REQUEST_MALFORMED: "the pull request or its files are not in the REST shapes GitHub returns (docs/fixtures.md)",
  PR_REF_INVALID: "name a pull request as owner/repo#123 or by its URL",
  SANDBOX_REFUSED: "the investigator reads only inside the PR's head snapshot; nothing outside it was touched",
  SNAPSHOT_OVER_CAP:
    "the head snapshot passed the cap named above, so nothing of it was kept and a person reviews the PR; raise that setting only for a repository you trust (README, Security)",
  SNAPSHOT_INCOMPLETE:
    "the head snapshot could not be extracted whole (a full disk, an I/O error, a name the filesystem cannot hold, a damaged download), so nothing is read as absent from it and a person reviews the PR; free space under GATE_DATA_DIR and re-run the review (README, Security)",
  REGISTRY_UNAVAILABLE:
    "a licence lookup got no usable answer, so a person decides; check the registry settings (GATE_NPM_REGISTRY_URL, GATE_PYPI_URL, GATE_CRATES_URL, GATE_GO_LICENSE_URL, GATE_MAVEN_LICENSE_URL, GATE_NUGET_LICENSE_URL, GATE_PACKAGIST_URL, GATE_RUBYGEMS_URL)",
  ADVISORIES_UNAVAILABLE:
    "an advisory lookup got no usable answer, so a person decides; check GATE_OSV_URL or GATE_OSV_DIR (README, Known vulnerabilities)",
  OSV_EXPORT_UNAVAILABLE:
    "`gate osv sync` could not download or unpack the export named above; check the route to it, or point GATE_OSV_EXPORT_URL at a mirror (README, Known vulnerabilities), and run it again",
  ANSWER_TOO_LARGE:
    "an outside answer (GitHub, OSV, a licence registry) was larger than GATE_MAX_ANSWER_BYTES, so it was not read and a person decides; raise the cap only for a service you trust (docs/operations.md)",
  GITHUB_INTAKE:
    "check the GitHub credentials, and that the App is installed on the repository (README, Running it for real)",
  REVIEW_NOT_FOUND: "`gate status <owner/repo#n>` lists the reviews of a PR",
  REVIEW_FAILED: "the review could not finish and waits for a person; the log says why (GATE_LOG_LEVEL)",
  DETECTION_TIMEOUT:
    "the detectors took longer than GATE_DETECT_TIMEOUT_MS over this change, so their worker was stopped and a person decides",
  SPECIALIST_TIMEOUT:
    "the specialist got no answer in time, so a person decides; GATE_SPECIALIST_TIMEOUT_MS sets the limit",
  MODEL_OUTPUT_INVALID: "the model's answer was unusable twice; the review goes to a person",
  MODEL_CALL_ABORTED: "the model call was cut off and its input counted in the budget; the review goes to a person",
  DATABASE_TOO_NEW:
    "a newer release of the gate migrated this database; run that release (or newer) against it, never an older one (README, Settings)",
  REVIEW_CONFIG_MISSING:
    "the database no longer holds the configuration this review ran with (was it copied without its gate_configs table?); re-run the review so it runs with today's",
  DATABASE_BUSY:
    "another process held the SQLite file GATE_DB's write lock past the busy timeout, so nothing of the change was written; run one gate per SQLite file (replicas share PostgreSQL, GATE_DATABASE_URL), and redeliver or retry (docs/operations.md)",
  DATABASE_FULL:
    "the disk (or the file's size limit) holding GATE_DB is full, so nothing of the change was written; free space, then redeliver or retry (docs/operations.md)",
  LOCK_LOST:
    "the database connection holding a replica's lock was lost (a failover, a proxy restart), so another replica may have done the same work meanwhile; a publish is done again on its own (docs/operations.md)",
  DATABASE_NOT_EMPTY:
    "copy into an empty database: create a fresh one and name it in --to (README, Moving from SQLite to PostgreSQL)",
  SIGNIN_REFUSED:
    "Sign in with Slack did not let this person in (another workspace, not in GATE_SLACK_SIGNIN_ALLOW, or a sign-in not started in this browser); nothing was stored but the audit entry (docs/operations.md)",
  INVESTIGATION_STOPPED:
    "the investigation reached a limit (GATE_INVESTIGATOR_* settings); its report is inconclusive and a person decides",
} as const satisfies Record<string, string>;

/** Every error the gate raises on purpose carries one of these codes; `describeError` adds its advice. */
export type GateErrorCode = keyof typeof ERROR_ADVICE;

/**
 * The gate's one error class: a code (with advice in `ERROR_ADVICE`) and an optional cause.
 * Errors that carry more (what a cut-off model call spent) extend it.
 *
 * @example throw new GateError("REVIEW_NOT_FOUND", `no review r-123`)
 */
export class GateError extends Error {
  constructor(
    readonly code: GateErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "GateError";
  }
}

/**
 * The message of whatever was thrown: an Error's message, else the value as text. The one
 * normaliser for a caught `unknown` (no `(error as Error).message` casts).
 *
 * @example messageOf(new Error("boom")) // "boom"; messageOf("boom") // "boom"
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The deepest cause's message: what the network said under a client's own wording.
 *
 * @example rootCauseMessage(new Error("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") })) // "connect ECONNREFUSED 127.0.0.1:9"
 */
export function rootCauseMessage(error: unknown): string {
  let e: unknown = error;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return messageOf(e);
}

/** One line a person can act on, for any error. */
export function describeError(error: unknown): string {
  if (error instanceof GateError) return `${error.message} (${ERROR_ADVICE[error.code]})`;
  return messageOf(error);
}

/**
 * zod's issues as one line a person reads: `field.path: message; …` (at most `max` of them).
 *
 * @example describeIssues(schema.safeParse(x).error!, { root: "(root)" }) // "base.sha: expected string"
 */
export function describeIssues(
  error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> },
  opts: { max?: number; root?: string } = {},
): string {
  return error.issues
    .slice(0, opts.max ?? error.issues.length)
    .map((i) => `${i.path.map(String).join(".") || (opts.root ?? "(root)")}: ${i.message}`)
    .join("; ");
}
