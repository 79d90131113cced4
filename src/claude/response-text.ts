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

/**
 * The JSON object in a free-text answer: the text itself, or a fenced ```json block, or the span
 * from the first `{` to the last `}`. Undefined when nothing parses.
 *
 * @example extractJson('Here you go: {"a": 1}') // { a: 1 }
 */
export function extractJson(text: string): unknown {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  for (const c of candidates) {
    try {
      return JSON.parse(c) as unknown;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}
