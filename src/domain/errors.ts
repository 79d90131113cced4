/** Every error the gate raises on purpose carries a code; `adviceFor` turns it into what to do. */
export type GateErrorCode =
  | "CONFIG_INVALID"
  | "POLICY_INVALID"
  | "FIXTURE_INVALID"
  | "FIXTURE_NAME_REFUSED"
  | "SANDBOX_REFUSED"
  | "REVIEW_NOT_FOUND"
  | "REVIEW_NOT_WAITING"
  | "REVIEW_BUSY"
  | "BUDGET_SPENT"
  | "DECISION_REFUSED"
  | "PR_REF_INVALID"
  | "GITHUB_SIGNATURE"
  | "GITHUB_INTAKE"
  | "SLACK_CONFIG"
  | "MODEL_OUTPUT_INVALID";

/**
 * An error with a code and an optional cause.
 *
 * @example throw new GateError("REVIEW_NOT_FOUND", `no review r-123`)
 */
export class GateError extends Error {
  constructor(
    readonly code: GateErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "GateError";
  }
}

const ADVICE: Partial<Record<GateErrorCode, string>> = {
  CONFIG_INVALID: "fix the setting named above (see README, Settings) and start again",
  POLICY_INVALID: "fix the policy file named above, or point GATE_POLICIES_DIR at a valid corpus",
  FIXTURE_INVALID: "a fixture needs pr.json and files.json in GitHub's REST shapes (docs/fixtures.md)",
  FIXTURE_NAME_REFUSED: "fixture folder names are plain: letters, digits, '.', '_' and '-'",
  REVIEW_NOT_FOUND: "`gate status <owner/repo#n>` lists the reviews of a PR",
  REVIEW_NOT_WAITING: "only a review waiting for a person can be decided",
  REVIEW_BUSY: "another decision on this review is being applied; try again in a moment",
  BUDGET_SPENT: "approve or reject: no investigation cycles are left for this review",
  GITHUB_SIGNATURE: "the webhook secret does not match GITHUB_WEBHOOK_SECRET",
  MODEL_OUTPUT_INVALID: "the model's answer was unusable twice; the review goes to a person",
};

/** One line a person can act on, for any error. */
export function describeError(error: unknown): string {
  if (error instanceof GateError) {
    const advice = ADVICE[error.code];
    return advice ? `${error.message} (${advice})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * zod's issues as one line a person reads: `field.path: message; …` (at most `max` of them).
 *
 * @example describeIssues(schema.safeParse(x).error!, { root: "(root)" }) // "base.sha: expected string"
 */
export function describeIssues(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }, opts: { max?: number; root?: string } = {}): string {
  return error.issues
    .slice(0, opts.max ?? error.issues.length)
    .map((i) => `${i.path.map(String).join(".") || (opts.root ?? "(root)")}: ${i.message}`)
    .join("; ");
}
