import type { types } from "@slack/bolt";
import { type Attempt, type Checked, checkAttempt, ephemeral, type FlowDeps } from "./decision-flow.js";
import { type ModalMetadata, modalTitle, noticeModal } from "./modals.js";
import { lookupsNeeded } from "./slack-lookups.js";

/** A view Slack opened, as `views.update` names it. */
type ShownView = { view_id: string; hash?: string };

/**
 * Opens a card button's modal for a person the decision policy lets act, or tells them why not.
 * Slack's trigger id lasts 3 s: a check that needs only the store runs first (a refusal is then
 * an ephemeral, and no modal opens); a check that needs Slack's API (a user group, a profile) runs
 * after a modal saying so was opened with the trigger id, and the modal is then updated
 * (`views.update`) to the real one, or to why not.
 *
 * @example await openCheckedModal(deps, attempt, body.trigger_id, (c, meta) => rejectModal(c.review, meta));
 */
export async function openCheckedModal(
  deps: FlowDeps,
  attempt: Attempt,
  triggerId: string,
  view: (checked: Extract<Checked, { ok: true }>, meta: ModalMetadata) => types.ModalView,
): Promise<void> {
  const { client } = attempt;
  const title = modalTitle(attempt.action);
  const author = (await deps.service.get(attempt.reviewId))?.author ?? "";
  const shown = lookupsNeeded(deps.service.approvers, attempt.userId, author)
    ? await openFirst(client, triggerId, title)
    : undefined;
  const tell = shown ? (text: string) => showInstead(deps, attempt, shown, title, text) : undefined;
  const checked = await checkAttempt(deps, attempt, tell);
  if (!checked.ok) return;
  const meta = { reviewId: attempt.reviewId, channel: attempt.place?.channel ?? "", ts: attempt.place?.ts ?? "" };
  if (shown) await client.views.update({ ...shown, view: view(checked, meta) });
  else await client.views.open({ trigger_id: triggerId, view: view(checked, meta) });
}

/** Opens the "checking" modal with the click's trigger id, before any look-up. */
async function openFirst(client: Attempt["client"], triggerId: string, title: string): Promise<ShownView> {
  const opened = await client.views.open({
    trigger_id: triggerId,
    view: noticeModal(title, "Checking that you may act on this review…"),
  });
  const id = opened.view?.id;
  if (!id) throw new Error("views.open answered without a view id");
  return { view_id: id, ...(opened.view?.hash ? { hash: opened.view.hash } : {}) };
}

/** Shows why not in the open modal; an ephemeral when the modal cannot be updated (closed meanwhile). */
async function showInstead(
  deps: FlowDeps,
  attempt: Attempt,
  shown: ShownView,
  title: string,
  text: string,
): Promise<void> {
  try {
    await attempt.client.views.update({ ...shown, view: noticeModal(title, text) });
  } catch (error) {
    deps.log.warn({ err: error, reviewId: attempt.reviewId }, "views.update failed; telling the person ephemerally");
    await ephemeral(deps, attempt, text);
  }
}
