import type { ApproverConfig } from "../domain/decision.js";
import type { EffectiveConfig } from "./effective.js";

/**
 * Who may decide, with a configuration's approvers over the settings' (`GATE_APPROVERS*`): its
 * `any` list replaces `GATE_APPROVERS`, and each specialty it names replaces that specialty's list.
 * Unset parts keep the settings'.
 *
 * @example approversWith({ approvers: ["U1"] }, { any: [], bySpecialty: { licensing: ["U9"] } }).bySpecialty // { licensing: ["U9"] }
 */
export function approversWith(
  settings: ApproverConfig,
  configured: EffectiveConfig["approvers"] | undefined,
): ApproverConfig {
  if (!configured) return settings;
  return {
    ...settings,
    approvers: configured.any.length > 0 ? [...configured.any] : settings.approvers,
    bySpecialty: { ...(settings.bySpecialty ?? {}), ...configured.bySpecialty },
  };
}
