import { type Document, isMap, isSeq, type LineCounter, visit } from "yaml";
import type { ConfigProblem } from "./config-problem.js";

/** The largest configuration file the gate reads (bytes): a real one is a few KB. */
export const CONFIG_MAX_BYTES = 128 * 1024;
/** The most entries (keys of maps and items of lists, at any depth) a configuration file may hold. */
export const CONFIG_MAX_ENTRIES = 5_000;

/**
 * The problem with a file over CONFIG_MAX_BYTES, naming the line where the cap is crossed;
 * undefined when it fits. Checked before the text is parsed at all.
 *
 * @example sizeProblem("x".repeat(200_000), "gate.yml")?.line // 1
 */
export function sizeProblem(text: string, file: string): ConfigProblem | undefined {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= CONFIG_MAX_BYTES) return undefined;
  const head = Buffer.from(text, "utf8").subarray(0, CONFIG_MAX_BYTES).toString("utf8");
  const line = head.split("\n").length;
  return {
    file,
    line,
    col: 1,
    key: "(file)",
    message: `the file is ${bytes} bytes; at most ${CONFIG_MAX_BYTES} are read, a cap this line crosses, so none of it was used`,
  };
}

/**
 * The problem with a parsed file holding more than CONFIG_MAX_ENTRIES entries, naming the line
 * of the first entry past the cap; undefined when it holds fewer. Checked before the document
 * is turned into values and validated (the costly part of a large file).
 */
export function entriesProblem(doc: Document, lineCounter: LineCounter, file: string): ConfigProblem | undefined {
  let entries = 0;
  let offset: number | undefined;
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map)) return undefined;
      entries += map.items.length;
      if (entries > CONFIG_MAX_ENTRIES) {
        const past = map.items[map.items.length - (entries - CONFIG_MAX_ENTRIES)];
        offset = (past?.key as { range?: [number, number, number] } | null)?.range?.[0] ?? map.range?.[0];
        return visit.BREAK;
      }
      return undefined;
    },
    Seq(_key, seq) {
      if (!isSeq(seq)) return undefined;
      entries += seq.items.length;
      if (entries > CONFIG_MAX_ENTRIES) {
        const past = seq.items[seq.items.length - (entries - CONFIG_MAX_ENTRIES)];
        offset = (past as { range?: [number, number, number] } | null)?.range?.[0] ?? seq.range?.[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (offset === undefined && entries <= CONFIG_MAX_ENTRIES) return undefined;
  const pos = lineCounter.linePos(offset ?? 0);
  return {
    file,
    line: pos.line,
    col: pos.col,
    key: "(file)",
    message: `more than ${CONFIG_MAX_ENTRIES} entries (keys and list items); this one is past the cap, so none of the file was used`,
  };
}
