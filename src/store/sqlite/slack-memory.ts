import type { SlackMemory } from "../../domain/store/slack-memory.js";
import { SLACK_NOTES } from "../once-keys.js";
import type { SqliteConnection } from "./connection.js";

/**
 * Slack's memory on SQLite (a review's post intent, `gate_slack_notes`, `gate_people`).
 *
 * @example await sqliteSlackMemory(connection).personName("U123");
 */
export function sqliteSlackMemory(c: SqliteConnection): SlackMemory {
  return {
    async recordSlackPostIntent(id, at) {
      await c.ready();
      c.sql(`UPDATE gate_reviews SET slack_post_started_at = COALESCE(slack_post_started_at, ?) WHERE id = ?`).run(
        at,
        id,
      );
    },
    claimSlackNote: (key, reviewId) => c.insertOnce(SLACK_NOTES, key, reviewId),
    async recordPerson(slackId, name) {
      await c.ready();
      c.sql(`INSERT OR REPLACE INTO gate_people (slack_id, name, at) VALUES (?, ?, ?)`).run(slackId, name, c.now());
    },
    async personName(slackId) {
      await c.ready();
      const row = c.sql(`SELECT name FROM gate_people WHERE slack_id = ?`).get(slackId) as { name: string } | undefined;
      return row?.name;
    },
  };
}
