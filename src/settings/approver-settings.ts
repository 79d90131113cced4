import { z } from "zod";
import type { ApproverConfig } from "../domain/decision.js";
import { SPECIALTIES, type Specialty } from "../domain/finding.js";
import { listOf } from "./fields.js";

type Ctx = z.RefinementCtx;

const SLACK_ID = /^[USW][A-Z0-9]+$/;
const SLACK_USER = /^[UW][A-Z0-9]+$/;

/** `U123,S456`: Slack user ids (U…/W…) and user-group ids (S…). */
function slackIds(value: string, ctx: Ctx, where: string): string[] {
  const ids = listOf(value);
  for (const id of ids.filter((i) => !SLACK_ID.test(i))) {
    ctx.addIssue({
      code: "custom",
      path: [where],
      message: `"${id}" is not a Slack user id (U…/W…) or user-group id (S…)`,
    });
  }
  return ids;
}

/** `security=S1;licensing=U2,U3`. */
function bySpecialty(value: string, ctx: Ctx): Partial<Record<Specialty, string[]>> {
  const out: Partial<Record<Specialty, string[]>> = {};
  for (const part of listOf(value, ";")) {
    const eq = part.indexOf("=");
    const name = eq > 0 ? part.slice(0, eq).trim() : "";
    const specialty = SPECIALTIES.find((s) => s === name);
    if (!specialty) {
      ctx.addIssue({
        code: "custom",
        path: ["GATE_APPROVERS_BY_SPECIALTY"],
        message: `"${part}" should be <security|licensing|data>=<ids>, e.g. security=U1,S2`,
      });
      continue;
    }
    out[specialty] = [
      ...new Set([...(out[specialty] ?? []), ...slackIds(part.slice(eq + 1), ctx, "GATE_APPROVERS_BY_SPECIALTY")]),
    ];
  }
  return out;
}

/** `octocat=U123,dana=W456`: GitHub login → Slack user id. */
function loginMap(value: string, ctx: Ctx): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of listOf(value)) {
    const [login, id] = part.split("=").map((s) => s.trim());
    if (!login || !id || !SLACK_USER.test(id)) {
      ctx.addIssue({ code: "custom", path: ["GATE_GITHUB_TO_SLACK"], message: `"${part}" is not login=U…` });
      continue;
    }
    out[login] = id;
  }
  return out;
}

/**
 * Who may decide, at every door (Slack and `gate decide`): `GATE_APPROVERS`,
 * `GATE_APPROVERS_BY_SPECIALTY` and `GATE_GITHUB_TO_SLACK`, parsed into lists and maps; a
 * malformed id or entry names its variable.
 *
 * @example approversSchema.parse({ GATE_APPROVERS: "U1, S2" }).approvers // ["U1", "S2"]
 */
export const approversSchema = z
  .object({
    GATE_APPROVERS: z.string().optional(),
    GATE_APPROVERS_BY_SPECIALTY: z.string().optional(),
    GATE_GITHUB_TO_SLACK: z.string().optional(),
  })
  .transform(
    (e, ctx): Required<ApproverConfig> => ({
      approvers: slackIds(e.GATE_APPROVERS ?? "", ctx, "GATE_APPROVERS"),
      bySpecialty: bySpecialty(e.GATE_APPROVERS_BY_SPECIALTY ?? "", ctx),
      githubToSlack: loginMap(e.GATE_GITHUB_TO_SLACK ?? "", ctx),
    }),
  );
