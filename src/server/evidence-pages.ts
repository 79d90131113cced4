import type { ServerResponse } from "node:http";
import { boundOf } from "../cli/commands/evidence.js";
import { GateError } from "../domain/errors.js";
import type { ChangeCursor, ChangeFilter } from "../domain/store/change-ledger.js";
import { EVIDENCE_COLUMNS, type EvidenceRow, evidenceRow } from "../review/evidence-row.js";
import type { ReviewResult } from "../domain/review-result.js";
import { escapeHtml, htmlPage, sendHtml } from "./html.js";
import { auditTable, CHANGE_PATH, decisionList, EVIDENCE_PATH } from "./review-html.js";
import type { GateRoute } from "./http-routes.js";
import { REVIEW_PAGE_PATH } from "./review-page.js";
import { type AuditorPageDeps, signedIn } from "./sign-in.js";

/** Rows per page of the table: the default, and the most a page may ask for. */
const PAGE_SIZE = 100;
const MOST_ROWS = 1000;

/** The table's query: its filter, its page size and where the page starts. Throws CONFIG_INVALID naming a bad parameter. */
export function evidenceQuery(q: URLSearchParams): { filter: ChangeFilter; limit: number; after?: ChangeCursor } {
  const repo = q.get("repo") || undefined;
  if (repo !== undefined && !/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    throw new GateError("CONFIG_INVALID", `repo ${repo}: give owner/name`);
  }
  const since = q.get("since") || undefined;
  const until = q.get("until") || undefined;
  const filter: ChangeFilter = {
    ...(repo ? { repo } : {}),
    ...(since ? { since: boundOf("since", since) } : {}),
    ...(until ? { until: boundOf("until", until) } : {}),
  };
  if (filter.since && filter.until && filter.since >= filter.until) {
    throw new GateError("CONFIG_INVALID", `since ${since} is not before until ${until}`);
  }
  const size = q.get("limit") || String(PAGE_SIZE);
  if (!/^\d{1,4}$/.test(size) || Number(size) < 1 || Number(size) > MOST_ROWS) {
    throw new GateError("CONFIG_INVALID", `limit ${size}: give 1 to ${MOST_ROWS} rows`);
  }
  const afterAt = q.get("after_at");
  const afterKey = q.get("after_key");
  const after = afterAt && afterKey ? { mergedAt: afterAt, key: afterKey } : undefined;
  return { filter, limit: Number(size), ...(after ? { after } : {}) };
}

const changeLink = (key: string) => `${CHANGE_PATH}?${new URLSearchParams({ key })}`;
const reviewLink = (id: string) => `${REVIEW_PAGE_PATH}?${new URLSearchParams({ id })}`;

/** One cell's text: lists joined, booleans and nulls spelled out. */
function cell(value: EvidenceRow[keyof EvidenceRow]): string {
  if (Array.isArray(value)) return value.join(", ");
  if (value === null) return "";
  return String(value);
}

/** The table of rows, each change and review linked to its page. */
function evidenceTable(rows: readonly EvidenceRow[]): string {
  const head = EVIDENCE_COLUMNS.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join("");
  const body = rows
    .map((r) => {
      const cells = EVIDENCE_COLUMNS.map((c) => {
        if (c === "change") return `<td><a href="${escapeHtml(changeLink(r.change))}">${escapeHtml(r.change)}</a></td>`;
        if (c === "review_id" && r.review_id)
          return `<td><a href="${escapeHtml(reviewLink(r.review_id))}">${escapeHtml(r.review_id)}</a></td>`;
        return `<td>${escapeHtml(cell(r[c]))}</td>`;
      }).join("");
      return `<tr class="${r.reviewed ? "reviewed" : "unreviewed"}">${cells}</tr>`;
    })
    .join("\n");
  return `<table id="evidence"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** The filter form, filled with the query's values. */
function filterForm(q: URLSearchParams): string {
  const field = (name: string, label: string, hint: string) =>
    `<label>${label} <input name="${name}" value="${escapeHtml(q.get(name) ?? "")}" placeholder="${hint}"></label>`;
  return `<form class="filter" method="get" action="${EVIDENCE_PATH}">
${field("repo", "Repository", "owner/name")}${field("since", "Since", "2026-03-01")}${field("until", "Until", "2026-03-31")}${field("limit", "Rows", String(PAGE_SIZE))}
<button type="submit">Filter</button></form>`;
}

function badRequest(res: ServerResponse, error: unknown): void {
  const message = error instanceof GateError ? error.message : "bad request";
  sendHtml(
    res,
    400,
    htmlPage("Bad request", `<p>${escapeHtml(message)}</p><p><a href="${EVIDENCE_PATH}">All changes</a></p>`),
  );
}

/**
 * `GET /evidence` (the table of `gate evidence`'s rows, filtered by `repo`, `since`, `until`, a
 * page of `limit` rows, `after_at`/`after_key` for the next) and `GET /evidence/change?key=…` (one
 * change's chain: its row, its review's decisions and audit entries). Signed-in auditors only;
 * every view is in the audit log (actor `auditor:<name>` or `slack:<user id>`, action `view`).
 */
export function evidenceRoutes(deps: AuditorPageDeps): GateRoute[] {
  const viewed = (actor: string, reviewId: string, detail: Record<string, unknown>) =>
    deps.store.audit({ reviewId, actor, action: "view", outcome: "shown", detail });
  return [
    {
      path: EVIDENCE_PATH,
      method: "GET",
      handler: signedIn(deps, async (req, res, viewer) => {
        const q = new URL(req.url ?? "/", "http://gate").searchParams;
        let query: ReturnType<typeof evidenceQuery>;
        try {
          query = evidenceQuery(q);
        } catch (error) {
          return badRequest(res, error);
        }
        // One more row than shown says whether there is a next page.
        const page = await deps.store.changesPage(query.filter, query.after, query.limit + 1);
        const rows = page.slice(0, query.limit).map(evidenceRow);
        await viewed(viewer.actor, "", { page: EVIDENCE_PATH, filter: query.filter, rows: rows.length });
        const last = page.length > query.limit ? page[query.limit - 1] : undefined;
        const next = last
          ? (() => {
              const n = new URLSearchParams(q);
              n.set("after_at", last.mergedAt);
              n.set("after_key", last.key);
              return `<nav><a id="next" href="${escapeHtml(`${EVIDENCE_PATH}?${n}`)}">Next ${query.limit}</a></nav>`;
            })()
          : "";
        const unreviewed = rows.filter((r) => !r.reviewed).length;
        sendHtml(
          res,
          200,
          htmlPage(
            "The gate's evidence",
            `<h1>Changes that reached a default branch</h1>
<p>Signed in as ${escapeHtml(viewer.name)}. Each view is recorded in the audit log.</p>
${filterForm(q)}
<p id="count">${rows.length} change${rows.length === 1 ? "" : "s"} shown (${unreviewed} not reviewed).</p>
${evidenceTable(rows)}
${next}`,
          ),
        );
      }),
    },
    {
      path: CHANGE_PATH,
      method: "GET",
      handler: signedIn(deps, async (req, res, viewer) => {
        const key = new URL(req.url ?? "/", "http://gate").searchParams.get("key") ?? "";
        if (!key || key.length > 300)
          return badRequest(res, new GateError("CONFIG_INVALID", "name a change: ?key=owner/name#12"));
        const [change] = await deps.store.changesPage({ key }, undefined, 1);
        if (!change) return sendHtml(res, 404, htmlPage("No such change", `<p>No change ${escapeHtml(key)}.</p>`));
        const row = evidenceRow(change);
        const result = change.review?.resultJson ? (JSON.parse(change.review.resultJson) as ReviewResult) : undefined;
        const entries = change.reviewId ? await deps.store.auditFor(change.reviewId) : [];
        await viewed(viewer.actor, change.reviewId ?? "", { page: CHANGE_PATH, change: key });
        const fields = EVIDENCE_COLUMNS.map(
          (c) => `<tr><th scope="row">${escapeHtml(c)}</th><td>${escapeHtml(cell(row[c]))}</td></tr>`,
        ).join("");
        const review = change.reviewId
          ? `<p>Review <a href="${escapeHtml(reviewLink(change.reviewId))}">${escapeHtml(change.reviewId)}</a> (${escapeHtml(change.review?.status ?? "not stored")})</p>`
          : "<p>The gate had no review of this change.</p>";
        sendHtml(
          res,
          200,
          htmlPage(
            `Change ${key}`,
            `<nav><a href="${EVIDENCE_PATH}">All changes</a></nav>
<h1>Change ${escapeHtml(key)}</h1>
<table id="change">${fields}</table>
<h2>Review</h2>${review}
<h2>Decisions</h2>${decisionList(result)}
<h2>Audit log of its review</h2>${auditTable(entries)}`,
          ),
        );
      }),
    },
  ];
}
