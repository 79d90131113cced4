import type { ApproverConfig } from "../domain/decision.js";

export type { ApproverConfig } from "../domain/decision.js";

/** Every user-group id (S…) the config names, for `resolveUserGroups`. */
export function groupIdsIn(config: ApproverConfig): string[] {
  const all = [...config.approvers, ...Object.values(config.bySpecialty ?? {}).flat()];
  return [...new Set(all.filter((id) => id.startsWith("S")))];
}
