import { expect } from "vitest";
import type { EvidenceRow } from "../../src/review/evidence-row.js";
import { DECIDED_AT, EXTRA_MERGES, type EvidenceCases, MERGED_AT } from "../helpers/evidence-store.js";
import type { CliRun } from "../helpers/run-cli.js";

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      record.push(field);
      field = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += ch;
  }
  expect(field).toBe("");
  return records;
}

/** The CSV's rows as objects under its header row. */
export function csvObjects(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => Object.fromEntries((header ?? []).map((h, i) => [h, r[i] ?? ""])));
}

const at = (iso: string) => new Date(iso).toISOString();

/** What the JSON evidence says of each case (the same on either database). */
export function expectJsonEvidence(run: CliRun, cases: EvidenceCases): EvidenceRow[] {
  expect(run.code).toBe(0);
  const rows = JSON.parse(run.stdout) as EvidenceRow[];
  expect(rows).toHaveLength(5 + EXTRA_MERGES);
  expect(run.stderr).toContain(`${5 + EXTRA_MERGES} changes (${1 + EXTRA_MERGES} not reviewed)`);
  const row = (pr: string) => rows.find((r) => r.pr === pr);
  // Ordered by when each reached the branch.
  expect(rows.map((r) => r.merged_at)).toEqual([...rows.map((r) => r.merged_at)].sort());
  expect(row(cases.autoApproved)).toMatchObject({
    kind: "merge",
    repo: "acme/web",
    review_id: cases.ids.autoApproved,
    route: "auto_approved",
    decision: "auto",
    decided_by: "gate",
    decided: "before_merge",
    merged_by: "octo-admin",
    merged_at: at(MERGED_AT.autoApproved),
    branch: "main",
    reviewed: true,
    emergency: false,
    overdue: false,
  });
  expect(row(cases.autoApproved)?.commit_sha).toMatch(/^[0-9a-fc]{40}$/);
  expect(row(cases.approvedBeforeMerge)).toMatchObject({
    review_id: cases.ids.approvedBeforeMerge,
    review_status: "done",
    route: "human_approved",
    decision: "approve",
    decided_by: "alice",
    decided_at: at(DECIDED_AT.approvedBeforeMerge),
    decided: "before_merge",
    reviewed: true,
  });
  expect(row(cases.approvedBeforeMerge)?.policies.length).toBeGreaterThan(0);
  expect(row(cases.approvedAfterMerge)).toMatchObject({
    review_id: cases.ids.approvedAfterMerge,
    review_status: "merged_unapproved",
    route: "merged_unapproved",
    decision: "approve_after_merge",
    decided_by: "bob",
    decided_at: at(DECIDED_AT.approvedAfterMerge),
    decided: "after_merge",
    reviewed: true,
  });
  expect(row(cases.mergedUnapproved)).toMatchObject({
    review_id: cases.ids.mergedUnapproved,
    route: "merged_unapproved",
    decision: null,
    decided: null,
    reviewed: false,
  });
  for (const pr of cases.unreviewed) {
    expect(row(pr)).toMatchObject({ review_id: null, route: null, decision: null, reviewed: false, author: "someone" });
  }
  expect(row(cases.approvedByGate)).toMatchObject({
    route: "approved",
    decision: "auto",
    decided: "before_merge",
    reviewed: true,
  });
  // A merge into another branch is no change to the default branch; one row per PR (017 and 018 are one PR's heads).
  expect(row("acme/legacy#999")).toBeUndefined();
  expect(rows.filter((r) => r.pr === cases.mergedUnapproved)).toHaveLength(1);
  return rows;
}

/** The CSV evidence: a header row, then the same rows as the JSON's, fields as text. */
export function expectCsvEvidence(run: CliRun, json: EvidenceRow[], cases: EvidenceCases): void {
  expect(run.code).toBe(0);
  expect(run.stdout.startsWith("change,kind,repo,pr,commit_sha,head_sha,branch,author,merged_by,merged_at,")).toBe(
    true,
  );
  const rows = csvObjects(run.stdout);
  expect(rows.map((r) => r.change)).toEqual(json.map((r) => r.change));
  const before = rows.find((r) => r.pr === cases.approvedBeforeMerge);
  expect(before).toMatchObject({ decision: "approve", decided_by: "alice", decided: "before_merge", reviewed: "true" });
  const policies = json.find((r) => r.pr === cases.approvedBeforeMerge)?.policies ?? [];
  expect(before?.policies).toBe(policies.join("; "));
  expect(rows.find((r) => r.pr === cases.mergedUnapproved)).toMatchObject({
    route: "merged_unapproved",
    decision: "",
    reviewed: "false",
  });
}
