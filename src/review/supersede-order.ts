/** What ordering reviews of one PR needs to know about each. */
export interface SupersedeCandidate {
  id: string;
  headSha: string;
  /** When the PR changed to this head, per GitHub's clock (a webhook's `updated_at`). */
  eventAt?: string;
}

/** One review to supersede, and the head that supersedes it. */
export interface SupersedeStep {
  id: string;
  bySha: string;
}

/**
 * Which open reviews of a PR a new head supersedes, and by which head. Pure.
 *
 * `open` lists the PR's unfinished reviews in registration order. Without `newId` (or when that
 * review is no longer open), every open review of another head is superseded by `newHeadSha`.
 * With `newId`, "older" means an earlier change by GitHub's clock (`eventAt`), else registered
 * before it; and when a later change is already under review (deliveries arrived out of order),
 * the new review is the stale one and is superseded itself by the newest head, so a newer head
 * never closes as neutral.
 *
 * @example supersedePlan([{ id: "a", headSha: "1" }, { id: "b", headSha: "2" }], "2", "b") // [{ id: "a", bySha: "2" }]
 */
export function supersedePlan(
  open: readonly SupersedeCandidate[],
  newHeadSha: string,
  newId?: string,
): SupersedeStep[] {
  const self = newId === undefined ? undefined : open.find((r) => r.id === newId);
  if (!self)
    return open.filter((r) => r.headSha !== newHeadSha && r.id !== newId).map((r) => ({ id: r.id, bySha: newHeadSha }));
  const rank = (r: SupersedeCandidate) => open.indexOf(r);
  const later = (a: SupersedeCandidate, b: SupersedeCandidate): boolean => {
    const ta = a.eventAt ? Date.parse(a.eventAt) : NaN;
    const tb = b.eventAt ? Date.parse(b.eventAt) : NaN;
    return Number.isFinite(ta) && Number.isFinite(tb) && ta !== tb ? ta > tb : rank(a) > rank(b);
  };
  const others = open.filter((r) => r.id !== self.id);
  const newest = others.filter((r) => later(r, self)).sort((a, b) => (later(a, b) ? -1 : 1))[0];
  if (newest) return [{ id: self.id, bySha: newest.headSha }];
  return others.map((r) => ({ id: r.id, bySha: newHeadSha }));
}
