import type { Message } from "@anthropic-ai/sdk/resources/messages";

/**
 * The text of a response: its text blocks joined (thinking and tool blocks left out).
 *
 * @example responseText(message) // '{"findings":[],"verdicts":[]}'
 */
export function responseText(message: Pick<Message, "content">): string {
  return message.content
    .flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join("")
    .trim();
}
