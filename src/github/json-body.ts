import { cappedText, DEFAULT_MAX_ANSWER_BYTES } from "../domain/capped-text.js";

/**
 * Octokit's request option that leaves an answer's body unparsed, and the body's JSON parsed with
 * `JSON.parse`. Octokit's own parser keeps integers past 2^53 and costs about ten times as much, in
 * one piece on the thread that answers webhooks (a 1 MB file's contents: 15-19 ms against 1.3-2.1);
 * the answers read this way (files, contents) hold no such integers.
 *
 * @example const { data } = await octokit.rest.repos.getContent({ ...at, request: UNPARSED }); await jsonBody(data)
 */
export const UNPARSED = { parseSuccessResponseBody: false } as const;

/**
 * The JSON of a body Octokit left unparsed (`UNPARSED`), read as a stream no further than `maxBytes`
 * (`GATE_MAX_ANSWER_BYTES`; throws `AnswerTooLarge` past it); throws on text that is not JSON.
 */
export async function jsonBody(data: unknown, maxBytes = DEFAULT_MAX_ANSWER_BYTES): Promise<unknown> {
  return JSON.parse(await cappedText(new Response(data as ReadableStream).body, maxBytes));
}
