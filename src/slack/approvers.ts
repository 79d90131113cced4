import type { Specialty } from "../domain/finding.js";
import { GateError } from "../domain/errors.js";

/** Who may decide on a review from Slack. Ids are Slack user ids (U…/W…) or user-group ids (S…). */
export interface ApproverConfig {
  approvers: string[];
  /** When a specialty with a blocking finding has a list here, deciders must be in that list. */
  bySpecialty?: Partial<Record<Specialty, string[]>>;
  /** GitHub login → Slack user id, to recognise the PR author in Slack. */
  githubToSlack?: Record<string, string>;
}

export type MayDecide = { ok: true } | { ok: false; why: string };

export interface MayDecideInput {
  userId: string;
  /** The user groups (S…) the user belongs to, among those the config names. */
  userGroupIds: string[];
  /** Specialties with at least one blocking finding on the review. */
  blockingSpecialties: Specialty[];
  /** The PR author's Slack id, when known (githubToSlack). */
  prAuthorSlackId?: string;
  config: ApproverConfig;
}

/**
 * Whether a Slack user may approve, reject or request info on a review. Fails closed: with no
 * approvers configured, nobody may decide; the PR author never may.
 *
 * @example mayDecide({ userId: "U1", userGroupIds: [], blockingSpecialties: [], config: { approvers: ["U1"] } }) // { ok: true }
 */
export function mayDecide(input: MayDecideInput): MayDecide {
  const { userId, userGroupIds, blockingSpecialties, prAuthorSlackId, config } = input;
  if (prAuthorSlackId !== undefined && userId === prAuthorSlackId) {
    return { ok: false, why: "you opened this pull request, and its author can never decide on it" };
  }
  const isIn = (list: string[]): boolean => list.includes(userId) || userGroupIds.some((g) => list.includes(g));
  const specialties = [...new Set(blockingSpecialties)].filter((s) => (config.bySpecialty?.[s]?.length ?? 0) > 0);
  if (specialties.length > 0) {
    const missing = specialties.filter((s) => !isIn(config.bySpecialty?.[s] ?? []));
    if (missing.length === 0) return { ok: true };
    return { ok: false, why: `this review has blocking ${missing.join(" and ")} findings, and you are not among the ${missing.join("/")} approvers` };
  }
  if (config.approvers.length === 0) {
    return { ok: false, why: "no approvers are configured for this gate, so nobody may decide from Slack (it fails closed)" };
  }
  if (!isIn(config.approvers)) return { ok: false, why: "you are not among the configured approvers" };
  return { ok: true };
}

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
