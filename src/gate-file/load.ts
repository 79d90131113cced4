import fs from "node:fs";
import YAML, { isMap, isPair, isScalar, LineCounter, type Document } from "yaml";
import { GateError, messageOf } from "../domain/errors.js";
import { entriesProblem, sizeProblem } from "./config-caps.js";
import type { ConfigProblem } from "./config-problem.js";
import { GateConfigSchema, type GateConfigFile } from "./schema.js";

export type { ConfigProblem } from "./config-problem.js";

/**
 * `file:line:col: key: message`, the form editors and CI logs link.
 *
 * @example describeProblem({ file: "gate.yml", line: 3, col: 5, key: "licenses.deny", message: "expected array" })
 *   // "gate.yml:3:5: licenses.deny: expected array"
 */
export function describeProblem(p: ConfigProblem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.key}: ${p.message}`;
}

/** A configuration file that cannot be used, with every problem found in it. */
export class ConfigFileError extends GateError {
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    super("CONFIG_FILE_INVALID", `configuration file ${file} is invalid: ${problems.map(describeProblem).join("; ")}`);
    this.name = "ConfigFileError";
  }
}

/** The node at `path`, or the nearest ancestor that exists (a missing key is reported on its parent). */
function nodeAt(doc: Document, path: readonly PropertyKey[]): { range?: [number, number, number] | null } | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === "object" && "range" in node) return node;
  }
  return undefined;
}

/** The key node of `key` in the map at `path` (for an unknown key, the key itself is the place). */
function keyNode(doc: Document, path: readonly PropertyKey[], key: string) {
  const map = path.length === 0 ? doc.contents : doc.getIn(path as unknown[], true);
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key);
  return pair && isScalar(pair.key) ? pair.key : undefined;
}

/**
 * Parses and validates one configuration file's text. Every problem names the file, the line and
 * the key; nothing of a file with any problem is used (throws `ConfigFileError`). A file over
 * CONFIG_MAX_BYTES is refused before it is parsed, one over CONFIG_MAX_ENTRIES before it is
 * validated (config-caps.ts).
 *
 * @example parseConfigText("version: 1\nlicenses:\n  deny: [AGPL-3.0-only]\n", "gate.yml").licenses?.deny // ["AGPL-3.0-only"]
 */
export function parseConfigText(text: string, file: string): GateConfigFile {
  const tooLarge = sizeProblem(text, file);
  if (tooLarge) throw new ConfigFileError(file, [tooLarge]);
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number | undefined) => lineCounter.linePos(offset ?? 0);
  if (doc.errors.length > 0) {
    throw new ConfigFileError(
      file,
      doc.errors.map((e) => {
        const pos = at(e.pos[0]);
        return { file, line: pos.line, col: pos.col, key: "(yaml)", message: e.message.split("\n")[0] ?? e.message };
      }),
    );
  }
  const tooMany = entriesProblem(doc, lineCounter, file);
  if (tooMany) throw new ConfigFileError(file, [tooMany]);
  // One parse per file: zod's generated fast parser would cost more to build than it saves.
  const parsed = GateConfigSchema.safeParse(doc.toJS() ?? {}, { jitless: true });
  if (parsed.success) return parsed.data;
  const problems: ConfigProblem[] = [];
  for (const issue of parsed.error.issues) {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
    for (const unknown of keys) {
      const path = unknown === undefined ? issue.path : [...issue.path, unknown];
      const node =
        unknown === undefined
          ? nodeAt(doc, issue.path)
          : (keyNode(doc, issue.path, unknown) ?? nodeAt(doc, issue.path));
      const pos = at(node?.range?.[0] ?? undefined);
      problems.push({
        file,
        line: pos.line,
        col: pos.col,
        key: path.map(String).join(".") || "(file)",
        message: unknown === undefined ? issue.message : "unknown key (README, Configuration lists the keys)",
      });
    }
  }
  throw new ConfigFileError(file, problems);
}

/**
 * Where a key sits in a configuration file's text (1-based line and column), or its nearest
 * ancestor's place when it is not there.
 *
 * @example locateKey("version: 1\npolicies:\n  ACME-01: {}\n", ["policies", "ACME-01"], true) // { line: 3, col: 3 }
 */
export function locateKey(
  text: string,
  path: readonly (string | number)[],
  atKey = false,
): { line: number; col: number } {
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter, prettyErrors: false });
  const last = path.at(-1);
  const key = atKey && typeof last === "string" ? keyNode(doc, path.slice(0, -1), last) : undefined;
  const node = key ?? nodeAt(doc, path);
  return lineCounter.linePos(node?.range?.[0] ?? 0);
}

/**
 * Reads and validates a configuration file from disk (the server-wide one, or one given to
 * `gate config check`).
 *
 * @example loadConfigFile(BUNDLED_CONFIG_FILE).version // 1
 */
export function loadConfigFile(file: string): GateConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigFileError(file, [
      { file, line: 0, col: 0, key: "(file)", message: `cannot be read: ${messageOf(error)}` },
    ]);
  }
  return parseConfigText(text, file);
}
