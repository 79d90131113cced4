import { parentPort } from "node:worker_threads";
import { messageOf } from "../domain/errors.js";
import { ConfigFileError, parseConfigText } from "./load.js";
import { lowerThisThreadsPriority } from "../worker-priority.js";

/** What the config parser asks a worker (config-parser.ts). */
export interface ParseRequest {
  id: number;
  text: string;
  file: string;
}

/** A worker's answer: the file's values, its problems, or what went wrong otherwise. */
export type ParseAnswer =
  | { id: number; ok: unknown }
  | { id: number; problems: ConfigFileError["problems"]; file: string }
  | { id: number; error: string };

// A worker thread of the config parser: parses each text it is sent, off the thread that answers HTTP
// (and below it: on a busy machine a webhook or a click is answered first).
lowerThisThreadsPriority();
parentPort?.on("message", (request: ParseRequest) => {
  let answer: ParseAnswer;
  try {
    answer = { id: request.id, ok: parseConfigText(request.text, request.file) };
  } catch (error) {
    answer =
      error instanceof ConfigFileError
        ? { id: request.id, problems: error.problems, file: error.file }
        : { id: request.id, error: messageOf(error) };
  }
  parentPort?.postMessage(answer);
});
