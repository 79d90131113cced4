/**
 * Safe mrkdwn building for Slack: escaping untrusted text (PR titles, finding messages, model
 * answers) and truncating without leaving half an entity or half a link behind.
 */

/** Block Kit's limit on a section's text. */
export const SECTION_TEXT_MAX = 3000;
/** Block Kit's limit on one context element's text. */
export const CONTEXT_TEXT_MAX = 3000;
/** Block Kit's limit on a header's plain text. */
export const HEADER_TEXT_MAX = 150;
/** Block Kit's limit on a button's text. */
export const BUTTON_TEXT_MAX = 75;

/**
 * Escapes the three characters Slack treats as control characters in mrkdwn, so that untrusted
 * text can neither form links nor mentions (`<!channel>`).
 *
 * @example escapeMrkdwn("a <b> & c") // "a &lt;b&gt; &amp; c"
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Cuts `text` to at most `max` characters, ending with "…" when cut. Never leaves a dangling
 * `&amp;` fragment, an unclosed `<link|label>` or half a surrogate pair.
 *
 * @example truncateMrkdwn("x".repeat(5000), 3000).length // 3000
 */
export function truncateMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  const lastCode = cut.charCodeAt(cut.length - 1);
  if (lastCode >= 0xd800 && lastCode <= 0xdbff) cut = cut.slice(0, -1);
  cut = cut.replace(/&[a-z#0-9]{0,5}$/i, "");
  const open = cut.lastIndexOf("<");
  if (open > cut.lastIndexOf(">")) cut = cut.slice(0, open);
  return `${cut}…`;
}

/**
 * Plain-text truncation (for header and button texts, which are not mrkdwn).
 *
 * @example truncatePlain("Approve", 75) // "Approve"
 */
export function truncatePlain(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  const lastCode = cut.charCodeAt(cut.length - 1);
  if (lastCode >= 0xd800 && lastCode <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * A mrkdwn link with an escaped label; `|` and `>` in the URL are percent-encoded so the link
 * cannot be broken out of.
 *
 * @example mrkdwnLink("https://github.com/a/b/pull/1", "Fix <bug>") // "<https://github.com/a/b/pull/1|Fix &lt;bug&gt;>"
 */
export function mrkdwnLink(url: string, label: string): string {
  const safeUrl = url.replace(/\|/g, "%7C").replace(/>/g, "%3E").replace(/</g, "%3C");
  const safeLabel = escapeMrkdwn(label).replace(/\|/g, "¦");
  return `<${safeUrl}|${safeLabel}>`;
}

/**
 * A user mention for a Slack user id, or the escaped name for anything else (a CLI user name).
 *
 * @example mentionOrName("U0123ABCD") // "<@U0123ABCD>"
 */
export function mentionOrName(who: string): string {
  return /^[UW][A-Z0-9]+$/.test(who) ? `<@${who}>` : escapeMrkdwn(who);
}

/**
 * A date Slack renders in the reader's time zone, with the ISO string as the fallback.
 *
 * @example slackDate("2026-01-02T03:04:05Z") // "<!date^1767323045^{date_short_pretty} at {time}|2026-01-02T03:04:05Z>"
 */
export function slackDate(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return escapeMrkdwn(iso);
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} at {time}|${escapeMrkdwn(iso)}>`;
}

/**
 * A US-dollar amount with enough digits for model costs.
 *
 * @example formatUsd(0.01234) // "$0.0123"
 */
export function formatUsd(amount: number): string {
  return `$${amount.toFixed(amount >= 1 ? 2 : 4)}`;
}
