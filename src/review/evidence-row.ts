import type {
  ChangeCursor,
  ChangeFilter,
  ChangeKind,
  ChangeLedger,
  StoredChange,
} from "../domain/store/change-ledger.js";
import type { ReviewResult, ReviewStatus, Route } from "../domain/review-result.js";

/**
 * One change that reached a default branch, with its chain of authorisation, as `gate evidence`
 * prints it (docs/operations.md, "How an auditor gets evidence"). Plain JSON.
 */
export interface EvidenceRow {
  /** The change's key: the PR ("acme/web#12") for a merge, "owner/name@sha" for a pushed commit. */
  change: string;
  kind: ChangeKind;
  repo: string;
  pr: string | null;
  /** The commit that reached the branch (the merge commit), when GitHub said it. */
  commit_sha: string | null;
  head_sha: string | null;
  branch: string | null;
  author: string;
  merged_by: string;
  merged_at: string;
  /** The review that stood for the change's head; null when the gate had none. */
  review_id: string | null;
  review_status: ReviewStatus | null;
  route: Route | null;
  /** The policies the review's findings cite, each once, sorted. */
  policies: string[];
  /**
   * The decision that stands: `auto` (the gate approved it), `approve`/`reject` (a person at the
   * gate), `approve_after_merge`/`incident` (a person after the fact); null when none was made.
   */
  decision: "auto" | "approve" | "reject" | "approve_after_merge" | "incident" | null;
  decided_by: string | null;
  decided_at: string | null;
  /** Whether that decision came before the change reached the branch, or after it. */
  decided: "before_merge" | "after_merge" | null;
  /** The configuration's exceptions that cleared a finding: "POLICY (granted by, until)". */
  exceptions: string[];
  emergency: boolean;
  /** An emergency's approval deadline. */
  emergency_due_at: string | null;
  overdue: boolean;
  /** A decision carried forward from an earlier head: that review's id. */
  carried_from: string | null;
  /**
   * Whether the change was accounted for: the gate let its head pass before it reached the branch,
   * or a person recorded a decision after the fact. False: nobody has decided on it yet.
   */
  reviewed: boolean;
}

/** The evidence's columns, in the order CSV prints them. */
export const EVIDENCE_COLUMNS: ReadonlyArray<keyof EvidenceRow> = [
  "change",
  "kind",
  "repo",
  "pr",
  "commit_sha",
  "head_sha",
  "branch",
  "author",
  "merged_by",
  "merged_at",
  "review_id",
  "review_status",
  "route",
  "policies",
  "decision",
  "decided_by",
  "decided_at",
  "decided",
  "exceptions",
  "emergency",
  "emergency_due_at",
  "overdue",
  "carried_from",
  "reviewed",
];

/** The decision that stands on a change's review, with who made it and when. */
function standingDecision(
  change: StoredChange,
  result: ReviewResult | undefined,
): Pick<EvidenceRow, "decision" | "decided_by" | "decided_at"> {
  const after = result?.after_the_fact;
  if (after) {
    return {
      decision: after.kind === "incident" ? "incident" : "approve_after_merge",
      decided_by: after.by,
      decided_at: after.at,
    };
  }
  if (result?.decision)
    return { decision: result.decision.kind, decided_by: result.decision.by, decided_at: result.decision.at };
  // The gate approved it on its own (no finding, or its investigation cleared them): when it settled the review.
  if ((result?.route === "auto_approved" || result?.route === "approved") && change.review)
    return { decision: "auto", decided_by: "gate", decided_at: change.review.updatedAt };
  return { decision: null, decided_by: null, decided_at: null };
}

/**
 * A recorded change as its evidence row: its review's saved result says the route, the findings'
 * policies, the exceptions, the decision (and whether it came before the merge), an emergency.
 *
 * @example evidenceRow(await store.changesPage({}, undefined, 1).then((p) => p[0]))
 */
export function evidenceRow(change: StoredChange): EvidenceRow {
  const result = change.review?.resultJson ? (JSON.parse(change.review.resultJson) as ReviewResult) : undefined;
  const findings = result?.findings ?? [];
  const decision = standingDecision(change, result);
  const before =
    decision.decided_at === null
      ? null
      : Date.parse(decision.decided_at) <= Date.parse(change.mergedAt)
        ? "before_merge"
        : "after_merge";
  const exceptions = findings.flatMap((f) =>
    f.exception?.status === "applied"
      ? [`${f.exception.policy} (${f.exception.granted_by}, until ${f.exception.expires})`]
      : [],
  );
  return {
    change: change.key,
    kind: change.kind,
    repo: change.repo,
    pr: change.pr ?? null,
    commit_sha: change.commitSha ?? null,
    head_sha: change.headSha ?? null,
    branch: change.branch ?? null,
    author: change.author,
    merged_by: change.mergedBy,
    merged_at: change.mergedAt,
    review_id: change.reviewId ?? null,
    review_status: change.review?.status ?? null,
    route: result?.route ?? null,
    policies: [...new Set(findings.map((f) => f.policy))].sort(),
    ...decision,
    decided: before,
    exceptions: [...new Set(exceptions)],
    emergency: result?.emergency !== undefined,
    emergency_due_at: result?.emergency?.due_at ?? null,
    overdue: result?.emergency?.overdue ?? false,
    carried_from: result?.decision?.carried_from?.review_id ?? null,
    reviewed: change.passed || result?.after_the_fact !== undefined,
  };
}

/**
 * Every recorded change matching `filter` as evidence rows, page by page in the order they reached
 * their branch (a keyset over the changes' time and key: each page is one indexed read).
 *
 * @example for await (const page of evidencePages(store, { repo: "acme/web" })) print(page);
 */
export async function* evidencePages(
  ledger: ChangeLedger,
  filter: ChangeFilter,
  pageSize = 2000,
): AsyncGenerator<EvidenceRow[]> {
  let after: ChangeCursor | undefined;
  for (;;) {
    const page = await ledger.changesPage(filter, after, pageSize);
    if (page.length === 0) return;
    yield page.map(evidenceRow);
    const last = page[page.length - 1] as StoredChange;
    after = { mergedAt: last.mergedAt, key: last.key };
    if (page.length < pageSize) return;
  }
}
