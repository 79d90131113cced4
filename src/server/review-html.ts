import type { ReviewResult } from "../domain/review-result.js";
import type { AuditEntry } from "../domain/review-store.js";
import { escapeHtml } from "./html.js";

/** The evidence table's path, and one change's (src/server/evidence-pages.ts). */
export const EVIDENCE_PATH = "/evidence";
export const CHANGE_PATH = "/evidence/change";

/** The audit entries of a review as a table. */
export function auditTable(entries: readonly AuditEntry[], id = "audit"): string {
  if (entries.length === 0) return "<p>No audit entries.</p>";
  const rows = entries
    .map(
      (e) =>
        `<tr><td>${e.seq}</td><td>${escapeHtml(e.at)}</td><td>${escapeHtml(e.actor)}</td><td>${escapeHtml(e.action)}</td><td>${escapeHtml(e.outcome)}</td><td><code>${escapeHtml(JSON.stringify(e.detail))}</code></td></tr>`,
    )
    .join("\n");
  return `<table id="${id}"><thead><tr><th>#</th><th>at</th><th>actor</th><th>action</th><th>outcome</th><th>detail</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

/** A review's decisions as a list: the one that stands, each approval, a decision after the fact. */
export function decisionList(result: ReviewResult | undefined): string {
  const items: string[] = [];
  const d = result?.decision;
  if (d) {
    items.push(`${d.kind} by ${d.by} at ${d.at}${d.note ? `: ${d.note}` : ""}`);
    for (const a of d.approvals ?? []) items.push(`approval by ${a.by} at ${a.at} (${a.covers})`);
  }
  const after = result?.after_the_fact;
  if (after)
    items.push(`${after.kind} after the fact by ${after.by} at ${after.at}${after.note ? `: ${after.note}` : ""}`);
  if (items.length === 0) {
    const how = result?.route === "auto_approved" || result?.route === "approved" ? "approved by the gate" : "none yet";
    items.push(`no person's decision (${how})`);
  }
  return `<ul id="decisions">${items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")}</ul>`;
}
