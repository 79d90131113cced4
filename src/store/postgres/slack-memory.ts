import type { SlackMemory } from "../../domain/store/slack-memory.js";
import { SLACK_NOTES } from "../once-keys.js";
import type { PgConnection } from "./connection.js";

/**
 * Slack's memory on PostgreSQL (a review's post intent, `gate_slack_notes`, `gate_people`).
 *
 * @example await pgSlackMemory(connection).personName("U123");
 */
export function pgSlackMemory(c: PgConnection): SlackMemory {
  return {
    async recordSlackPostIntent(id, at) {
      await c.changed(
        "UPDATE gate_reviews SET slack_post_started_at = COALESCE(slack_post_started_at, $1) WHERE id = $2",
        [at, id],
      );
    },
    claimSlackNote: (key, reviewId) => c.insertOnce(SLACK_NOTES, key, reviewId),
    async recordPerson(slackId, name) {
      await c.changed(
        `INSERT INTO gate_people (slack_id, name, at) VALUES ($1, $2, $3)
         ON CONFLICT (slack_id) DO UPDATE SET name = excluded.name, at = excluded.at`,
        [slackId, name, c.now()],
      );
    },
    async personName(slackId) {
      const [row] = await c.rows<{ name: string }>("SELECT name FROM gate_people WHERE slack_id = $1", [slackId]);
      return row?.name;
    },
  };
}
