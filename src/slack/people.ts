import type { Logger } from "pino";
import type { SlackMemory } from "../domain/store/slack-memory.js";

/** Deciders by their Slack display name (what cards, thread notes and check runs call them). */
export interface People {
  /** Remembers a person's display name (this process and the store). */
  record(slackId: string, name: string): Promise<void>;
  /** A person's name as shown: `Name (@login)`, `Name`, `@login`, or undefined (the id stands in). */
  name(slackId: string): string | undefined;
}

/**
 * Deciders by their Slack display name, with their GitHub login where GATE_GITHUB_TO_SLACK maps
 * one. Names are rendered synchronously (cards, check runs): this process keeps the ones it
 * recorded or read, and reads a name it lacks from the store for the next rendering.
 *
 * @example const people = createPeople({ memory: store, githubToSlack: { octocat: "U123" }, log });
 */
export function createPeople(opts: {
  memory: Pick<SlackMemory, "recordPerson" | "personName">;
  githubToSlack: Readonly<Record<string, string>>;
  log: Logger;
}): People {
  const names = new Map<string, string>();
  return {
    async record(slackId, name) {
      names.set(slackId, name);
      await opts.memory.recordPerson(slackId, name);
    },
    name(slackId) {
      const name = names.get(slackId);
      if (name === undefined)
        void opts.memory
          .personName(slackId)
          .then((stored) => stored !== undefined && names.set(slackId, stored))
          .catch((error: unknown) => opts.log.warn({ err: error }, "cannot read a person's name"));
      const login = Object.entries(opts.githubToSlack).find(([, id]) => id === slackId)?.[0];
      if (name && login) return `${name} (@${login})`;
      return name ?? (login ? `@${login}` : undefined);
    },
  };
}
