import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SgNode } from "@ast-grep/napi";
import { callSites } from "../../detectors/code/call-sites.js";
import { parseSource, syntaxLanguageOf, type SyntaxLanguage } from "../../detectors/code/syntax-tree.js";
import { realRoot } from "../../snapshot/sandbox.js";
import { classifyCall } from "./line-check.js";
import type { CheckLanguage } from "./vocabulary.js";

/** How many calls deep a project's helper is followed (the cited call is the first). */
export const FOLLOW_DEPTH = 4;
/** Definitions read in all, per cited call: a helper that fans out further is not taken as verifying. */
const MAX_DEFINITIONS = 24;
/** Snapshot files looked at for definitions, and the largest one read. */
const MAX_FILES = 5000;
const MAX_FILE_BYTES = 512 * 1024;
/** Files parsed per cited call: past it the helper is not taken as verifying (a person decides). */
const MAX_PARSED = 200;
const SKIP_DIRS = new Set([".git", "node_modules"]);

/** Where a function of a language is defined: node kinds, and whether the node needs a function value. */
const DEFINITIONS: Record<CheckLanguage, { kinds: string[]; valued: string[] }> = {
  js: {
    kinds: ["function_declaration", "generator_function_declaration", "method_definition"],
    valued: ["variable_declarator", "pair", "public_field_definition", "field_definition"],
  },
  python: { kinds: ["function_definition"], valued: [] },
  go: { kinds: ["function_declaration", "method_declaration"], valued: [] },
  java: { kinds: ["method_declaration"], valued: [] },
  kotlin: { kinds: ["function_declaration"], valued: [] },
  csharp: { kinds: ["method_declaration", "local_function_statement"], valued: [] },
  php: { kinds: ["function_definition", "method_declaration"], valued: [] },
  ruby: { kinds: ["method", "singleton_method"], valued: [] },
  rust: { kinds: ["function_item"], valued: [] },
};
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

/** The answer for one cited helper call. */
export type FollowVerdict = { verifies: true; via: string } | { verifies: false; reason: string };

/** One definition found: where, and its node in the parsed file. */
interface Definition {
  file: string;
  line: number;
  node: SgNode;
  lang: SyntaxLanguage;
}

interface ParsedFile {
  lang: SyntaxLanguage;
  root: SgNode;
}

/**
 * Follows a project's own verify helper into the snapshot: a cited `jwtVerify.verify(token)` shows a
 * verification only when every definition of `verify` the snapshot holds (in files of the same
 * language family) calls a library's verifying API (`jwt.verify`, `jose.jwtVerify`, `crypto.verify`,
 * `timingSafeEqual`, `bcrypt.compare`, ... as the vocabulary lists them), itself or through helpers
 * it calls, up to `FOLLOW_DEPTH` calls deep. A helper that only decodes, one the snapshot does not
 * define, or one that fans out past `MAX_DEFINITIONS` definitions does not verify: the clearance then
 * does not count and a person decides. Never throws.
 *
 * @example await new CallFollower(root, "js").follow("jwtVerify.verify", "verify") // { verifies: false, reason: "jwtVerify.verify is defined in src/auth/jwt-verify.ts:4, whose body does not verify" }
 */
export class CallFollower {
  private files: Promise<string[]> | undefined;
  private readonly texts = new Map<string, string | undefined>();
  private readonly parsed = new Map<string, ParsedFile | undefined>();

  constructor(
    private readonly root: string,
    private readonly family: CheckLanguage,
    private readonly familyOf: (lang: SyntaxLanguage) => CheckLanguage | undefined,
  ) {}

  async follow(callee: string, method: string): Promise<FollowVerdict> {
    try {
      const budget = { left: MAX_DEFINITIONS };
      const verdict = await this.verifies(method, FOLLOW_DEPTH, new Set(), budget);
      if (verdict.verifies) return verdict;
      return { verifies: false, reason: `${callee} ${verdict.reason}` };
    } catch (error) {
      return { verifies: false, reason: `${callee} could not be followed: ${(error as Error).message}` };
    }
  }

  private async verifies(
    method: string,
    depth: number,
    seen: Set<string>,
    budget: { left: number },
  ): Promise<FollowVerdict> {
    const defs = await this.definitions(method);
    if (defs.length === 0)
      return { verifies: false, reason: "is not defined in the snapshot, so its body cannot be read" };
    seen.add(method);
    for (const def of defs) {
      const where = `${def.file}:${def.line}`;
      budget.left--;
      if (budget.left < 0) return { verifies: false, reason: `calls more helpers than are followed (at ${where})` };
      const verdict = await this.bodyVerifies(def, depth, seen, budget);
      if (!verdict) return { verifies: false, reason: `is defined in ${where}, whose body does not verify` };
    }
    const first = defs[0] as Definition;
    return { verifies: true, via: `${first.file}:${first.line}` };
  }

  /** True when the definition's body calls a library verification, or a helper whose body does. */
  private async bodyVerifies(
    def: Definition,
    depth: number,
    seen: Set<string>,
    budget: { left: number },
  ): Promise<boolean> {
    const family = this.family;
    const start = def.node.range().start.index;
    const end = def.node.range().end.index;
    const parsed = this.parsed.get(def.file);
    if (!parsed) return false;
    const inside = callSites({ lang: def.lang, root: parsed.root }).filter((c) => {
      const at = c.node.range().start.index;
      return at >= start && at < end;
    });
    const helpers: string[] = [];
    for (const call of inside) {
      const shown = classifyCall(family, call);
      if (shown?.library === true) {
        if (shown.shows === "verification") return true;
        continue; // a library's decode verifies nothing, and is not followed
      }
      if (!seen.has(call.method)) helpers.push(call.method);
    }
    if (depth <= 1) return false;
    for (const helper of [...new Set(helpers)]) {
      if (budget.left <= 0) return false;
      const verdict = await this.verifies(helper, depth - 1, new Set(seen), budget);
      if (verdict.verifies) return true;
    }
    return false;
  }

  /** Every definition of `name` in the snapshot's files of the same family. */
  private async definitions(name: string): Promise<Definition[]> {
    if (!/^[A-Za-z_$][\w$]*[?!]?$/.test(name)) return [];
    const out: Definition[] = [];
    for (const file of await this.list()) {
      // Only a file whose text names the function is parsed.
      const text = await this.text(file);
      if (!text?.includes(name)) continue;
      if (!this.parsed.has(file) && this.parsed.size >= MAX_PARSED) {
        throw new Error(`more than ${MAX_PARSED} files name ${name}; not followed further`);
      }
      const parsed = this.parse(file, text);
      // Each parse is synchronous: let the answering thread breathe between them.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!parsed) continue;
      for (const node of definitionNodes(parsed.root, this.family)) {
        const named = node.field("name") ?? node.field("key");
        if (named?.text().replace(/^["']|["']$/g, "") !== name) continue;
        out.push({ file, line: node.range().start.line + 1, node, lang: parsed.lang });
      }
    }
    return out;
  }

  private async text(file: string): Promise<string | undefined> {
    if (!this.texts.has(file)) {
      this.texts.set(file, await readFile(path.join(await realRoot(this.root), file), "utf8").catch(() => undefined));
    }
    return this.texts.get(file);
  }

  private parse(file: string, text: string): ParsedFile | undefined {
    if (this.parsed.has(file)) return this.parsed.get(file);
    const lang = syntaxLanguageOf(file);
    const result = lang !== undefined ? { lang, root: parseSource(lang, text) } : undefined;
    this.parsed.set(file, result);
    return result;
  }

  /** The snapshot's regular files a grammar of a known family reads, at most MAX_FILES. */
  private list(): Promise<string[]> {
    this.files ??= (async () => {
      const base = await realRoot(this.root);
      const out: string[] = [];
      const walk = async (rel: string): Promise<void> => {
        const entries = await readdir(path.join(base, rel), { withFileTypes: true });
        for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
          if (out.length >= MAX_FILES) return;
          const child = rel ? `${rel}/${entry.name}` : entry.name;
          if (entry.isDirectory() && !SKIP_DIRS.has(entry.name)) await walk(child);
          else if (entry.isFile()) {
            const lang = syntaxLanguageOf(child);
            if (lang === undefined || this.familyOf(lang) !== this.family) continue;
            const info = await lstat(path.join(base, child));
            if (info.isFile() && info.size <= MAX_FILE_BYTES) out.push(child);
          }
        }
      };
      await walk("");
      return out;
    })();
    return this.files;
  }
}

function definitionNodes(root: SgNode, family: CheckLanguage): SgNode[] {
  const { kinds, valued } = DEFINITIONS[family];
  const out: SgNode[] = [];
  for (const kind of [...kinds, ...valued]) {
    let found: SgNode[];
    try {
      found = root.findAll({ rule: { kind } });
    } catch {
      continue; // a kind this grammar does not have
    }
    for (const node of found) {
      if (valued.includes(kind) && !FUNCTION_VALUES.has(String(node.field("value")?.kind()))) continue;
      out.push(node);
    }
  }
  return out;
}
