import type { ServerResponse } from "node:http";

/** Text made safe inside HTML content and quoted attributes. */
export function escapeHtml(text: unknown): string {
  return String(text ?? "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Plain CSS for the auditor's pages: readable on screen, printable (links spelled out, no form). */
const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#111}
h1{font-size:1.3rem}h2{font-size:1.1rem;margin-top:1.5rem}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #bbb;padding:.25rem .4rem;text-align:left;vertical-align:top}
th{background:#eee}tr.unreviewed td{background:#fff3f0}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}
form.filter{margin:1rem 0}form.filter label{margin-right:.8rem}nav{margin:.8rem 0}
@media print{form,nav{display:none}a{color:inherit;text-decoration:none}body{margin:0}th{background:none}}`;

/** A whole HTML page around `body` (already escaped), with the pages' CSS. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body>${body}</body></html>
`;
}

/** Headers every auditor page carries: no caching of evidence, no framing, no outside scripts or styles. */
export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
} as const;

/** Answers with an HTML page (unless an answer went out already). */
export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, { ...PAGE_HEADERS, ...headers }).end(html);
}
