import type { ApproverConfig } from "../domain/decision.js";
import type { Specialty } from "../domain/finding.js";
import { GateError } from "../domain/errors.js";

export type { ApproverConfig } from "../domain/decision.js";

/** Every user-group id (S…) the config names, for `resolveUserGroups`. */
export function groupIdsIn(config: ApproverConfig): string[] {
  const all = [...config.approvers, ...Object.values(config.bySpecialty ?? {}).flat()];
  return [...new Set(all.filter((id) => id.startsWith("S")))];
}

const SLACK_ID = /^[USW][A-Z0-9]+$/;

/**
 * Parses a comma-separated list of Slack user and user-group ids, e.g. `GATE_SLACK_APPROVERS`.
 *
 * @example parseApprovers("U123, S456") // ["U123", "S456"]
 */
export function parseApprovers(value: string | undefined): string[] {
  if (!value || value.trim() === "") return [];
  const ids = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const id of ids) {
    if (!SLACK_ID.test(id)) throw new GateError("SLACK_CONFIG", `"${id}" is not a Slack user id (U…/W…) or user-group id (S…)`);
  }
  return [...new Set(ids)];
}

const SPECIALTY_NAMES = ["security", "licensing", "data"] as const;

/**
 * Parses per-specialty approvers, e.g. `GATE_SLACK_APPROVERS_BY_SPECIALTY`.
 *
 * @example parseApproversBySpecialty("security=U1,S2;licensing=U3") // { security: ["U1", "S2"], licensing: ["U3"] }
 */
export function parseApproversBySpecialty(value: string | undefined): Partial<Record<Specialty, string[]>> {
  const out: Partial<Record<Specialty, string[]>> = {};
  if (!value || value.trim() === "") return out;
  for (const part of value.split(";").map((s) => s.trim()).filter((s) => s !== "")) {
    const eq = part.indexOf("=");
    const name = eq > 0 ? part.slice(0, eq).trim() : "";
    const specialty = SPECIALTY_NAMES.find((s) => s === name);
    if (!specialty) {
      throw new GateError("SLACK_CONFIG", `"${part}" should be <security|licensing|data>=<ids>, e.g. security=U1,S2`);
    }
    out[specialty] = [...new Set([...(out[specialty] ?? []), ...parseApprovers(part.slice(eq + 1))])];
  }
  return out;
}
