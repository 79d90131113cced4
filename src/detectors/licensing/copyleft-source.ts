import type { SgNode } from "@ast-grep/napi";
import { normaliseCode, subjectDigest } from "../../domain/fingerprint.js";
import { addedLines, type PatchLine } from "../../domain/patch.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { classifyLicense } from "../../licenses/license-policy.js";
import type { DetectContext, Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import { parseSource, syntaxLanguageOf, syntaxOfPatch, type SyntaxLanguage } from "../code/syntax-tree.js";
import { GRAMMARS } from "../code/grammars.js";
import { precheck } from "../precheck.js";

/**
 * A licence text's file name: `COPYING`, `LICENSE`, `LICENCE`, bare or with a suffix (`COPYING.txt`,
 * `LICENSE-GPL`, `COPYING.LESSER`, `.md`), but not `license.go`.
 */
const LICENSE_FILE =
  /^(?:COPYING|LICEN[CS]E|Licen[cs]e|licen[cs]e|copying)(?:[-_.](?:txt|md|rst|markdown|[A-Z0-9][A-Za-z0-9.-]*))?$/;
/** An SPDX tag (`SPDX-License-Identifier: GPL-2.0-only`), in whatever comment it sits. */
const SPDX_TAG = /SPDX-License-Identifier:\s*([^*\n]+?)\s*(?:\*\/|-->|\*)?\s*$/;
/** A JSDoc or banner licence tag: `@license GPL-3.0`, `@license AGPL-3.0-or-later`. */
const LICENSE_TAG = /@licen[cs]e\s+([A-Za-z0-9.+() -]+?)\s*(?:\*\/)?\s*$/;

/** Copyleft licence families, as notices name them. Order matters: AGPL and LGPL before GPL. */
const NOTICES: ReadonlyArray<{ family: string; strong: boolean; re: RegExp }> = [
  { family: "AGPL", strong: true, re: /GNU\s+Affero\s+General\s+Public\s+Licen[cs]e|\bAGPL[-\s]?v?[123]?\b/i },
  {
    family: "LGPL",
    strong: false,
    re: /GNU\s+(?:Lesser|Library)\s+(?:General\s+)?Public\s+Licen[cs]e|\bLGPL(?:[-\s]?v?[23](?:\.[01])?)?\b/i,
  },
  {
    family: "GPL",
    strong: true,
    re: /GNU\s+General\s+Public\s+Licen[cs]e|\bGNU\s+GPL\b|\bGPL[-\s]?v?[123](?:\.0)?\b|(?:licen[cs]ed|released|distributed|available|covered)\s+under\s+(?:the\s+)?(?:terms\s+of\s+the\s+)?(?:GNU\s+)?GPL\b/i,
  },
  { family: "MPL", strong: false, re: /Mozilla\s+Public\s+Licen[cs]e|\bMPL[-\s]?v?(?:1\.[01]|2(?:\.0)?)\b/i },
  { family: "EPL", strong: false, re: /Eclipse\s+Public\s+Licen[cs]e/i },
  { family: "EUPL", strong: true, re: /European\s+Union\s+Public\s+Licen[cs]e/i },
  { family: "SSPL", strong: true, re: /Server\s+Side\s+Public\s+Licen[cs]e/i },
  { family: "OSL", strong: true, re: /Open\s+Software\s+Licen[cs]e\s+(?:v(?:ersion)?\s*)?[123]/i },
];
/** A notice that offers a permissive choice: "dual licensed under the MIT or GPL". */
const DUAL =
  /\bdual[-\s]licen[cs]ed\b|\b(?:MIT|BSD|Apache|ISC)\b[^.\n]{0,40}\bor\b[^.\n]{0,20}\bL?GPL|L?GPL[^.\n]{0,40}\bor\b[^.\n]{0,30}\b(?:MIT|BSD|Apache|ISC)\b/i;
/** Titles of licence texts: the first one near the top of a COPYING/LICENSE file names it. */
const TITLES: ReadonlyArray<{ family: string; strong: boolean; re: RegExp }> = [
  { family: "AGPL", strong: true, re: /GNU\s+AFFERO\s+GENERAL\s+PUBLIC\s+LICEN[CS]E/i },
  { family: "LGPL", strong: false, re: /GNU\s+(?:LESSER|LIBRARY)\s+GENERAL\s+PUBLIC\s+LICEN[CS]E/i },
  { family: "GPL", strong: true, re: /GNU\s+GENERAL\s+PUBLIC\s+LICEN[CS]E/i },
  { family: "MPL", strong: false, re: /Mozilla\s+Public\s+Licen[cs]e/i },
  { family: "EPL", strong: false, re: /Eclipse\s+Public\s+Licen[cs]e/i },
  { family: "SSPL", strong: true, re: /Server\s+Side\s+Public\s+License/i },
  { family: "EUPL", strong: true, re: /European\s+Union\s+Public\s+Licen[cs]e/i },
  { family: "OSL", strong: true, re: /Open\s+Software\s+License/i },
];
/** Weak (file- or library-level) copyleft SPDX ids: copying their source still carries their terms. */
const WEAK_COPYLEFT_ID = /(?:^|[\s(])(?:LGPL|MPL|EPL|CDDL|CPL|MS-RL)-/;
/** A licence notice sits at the top of a file. */
const HEADER_LINES = 60;
/** Prose and data files quote licence names without being under them: only an SPDX tag counts there. */
const NOT_SOURCE = /\.(?:md|markdown|rst|adoc|txt|json|ya?ml|toml|lock|csv|html?)$/i;
/** How a comment line starts in languages the parser does not read (C, Java, Rust, PHP, Ruby, shell, SQL...). */
const COMMENT_START = /^\s*(?:\/\/|\/\*|\*|#|--|;|%|<!--|\(\*|'|REM\b|"""|''')/;

/** Folders that hold third-party code: `vendor/`, `third_party/`, `external/`, ... */
const VENDOR_DIR = /(?:^|\/)(?:vendor|vendored|third[_-]party|3rdparty|external|extern)\//;
/** The names a licence text goes by in a vendored folder. */
const LICENSE_NAMES = ["LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE", "COPYING", "COPYING.txt", "COPYING.LESSER"];
/**
 * At most this many vendored folders are looked up per review (a vendoring PR adds thousands of
 * files); a file past the cap is recorded as not read (the coverage ledger), never skipped.
 */
const MAX_VENDOR_DIRS = 200;

const COMMENT_MARKER = /^\s*(?:\/\/+|\/\*+|\*+|#+|--|;+|%+)?\s*/;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

async function linesOf(ctx: DetectContext, file: ChangedFile): Promise<PatchLine[]> {
  if (file.patch !== undefined) return addedLines(file.patch);
  let text: string | undefined;
  try {
    text = await ctx.head.read(file.filename);
  } catch {
    text = undefined;
  }
  return (text ?? "").split("\n").map((t, i): PatchLine => ({ kind: "add", line: i + 1, text: t }));
}

/**
 * A LIC-03 finding. Its `subject` names the licence it is about (an SPDX expression, or a digest
 * of the notice or licence text with its family): the fingerprint changes with the licence, not
 * with the line it sits on.
 */
function finding(file: string, line: number, message: string, subject: string): Finding {
  return {
    specialty: "licensing",
    policy: "LIC-03",
    severity: "high",
    blocking: true,
    needs_more_context: false,
    file,
    line,
    message,
    source: "detector",
    detector: "copyleft-source",
    subject,
  };
}

function strength(strong: boolean): string {
  return strong ? "a strong copyleft licence" : "a weak (file- or library-level) copyleft licence";
}

/** A licence text file in a subfolder whose title is a copyleft licence. */
function licenseText(path: string, lines: PatchLine[]): Finding | undefined {
  // The first licence name near the top is the title; the GPL's preamble names the LGPL later on.
  const top = lines.filter((l) => l.text.trim() !== "").slice(0, 15);
  for (const l of top) {
    const title = TITLES.find((t) => t.re.test(l.text));
    if (!title) continue;
    // The whole text, not its title: the GPL's versions share one title line.
    const said = lines.map((x) => normaliseCode(x.text)).filter((x) => x !== "");
    return finding(
      path,
      l.line,
      `${path} is a ${title.family} licence text (${l.text.trim()}), ${strength(title.strong)}: the code vendored ` +
        "beside it comes under that licence. Replace it with a permissively licensed library, or get a licence exception.",
      `licence=${title.family}|${subjectDigest("text", path, ...said)}`,
    );
  }
  return undefined;
}

/** What an SPDX expression means for copied source: strong, weak, or no copyleft obligation. */
function expressionCopyleft(expression: string): { strong: boolean } | undefined {
  const cls = classifyLicense(expression);
  if (cls.copyleft) return { strong: true };
  if (cls.parsed && !cls.allowed && WEAK_COPYLEFT_ID.test(` ${cls.normalized}`)) return { strong: false };
  return undefined;
}

/** The lines of a new file a notice could sit in, with room for a long header comment to close. */
const PARSED_HEADER_LINES = 200;

/** A parsed header: the tree, and for each of its rows the file's line when that line is added. */
interface HeaderTree {
  root: SgNode;
  lineOf(row: number): number | undefined;
}

/**
 * The tree the header is read from. An added file's patch is the whole file, so the review's one
 * parse of it (shared with every detector) serves; a copied file's patch mixes in lines it did
 * not add, so the top of its added lines is parsed on its own (row N is line N + 1).
 */
function headerTree(file: ChangedFile, lang: SyntaxLanguage, lines: PatchLine[]): HeaderTree {
  const shared = file.status === "added" ? syntaxOfPatch(file) : undefined;
  if (shared) return { root: shared.root, lineOf: (row) => (shared.isAdded(row) ? shared.lineAt(row) : undefined) };
  const rows: string[] = [];
  for (const l of lines) if (l.line >= 1 && l.line <= PARSED_HEADER_LINES) rows[l.line - 1] = l.text;
  return {
    root: parseSource(lang, Array.from(rows, (r) => r ?? "").join("\n")),
    lineOf: (row) => (rows[row] !== undefined ? row + 1 : undefined),
  };
}

/**
 * The comment text of the header, line by line: only comments (and Python module docstrings) can
 * be notices. A notice sits at the top, so comments are read only as far as the header goes.
 */
function headerComments(file: ChangedFile, lines: PatchLine[]): PatchLine[] {
  const lang = syntaxLanguageOf(file.filename);
  if (lang) {
    const { root, lineOf } = headerTree(file, lang, lines);
    const out: PatchLine[] = [];
    const take = (node: SgNode): void => {
      const start = node.range().start.line;
      node
        .text()
        .split("\n")
        .forEach((text, i) => {
          const line = lineOf(start + i);
          if (line !== undefined && line <= HEADER_LINES) out.push({ kind: "add", line, text });
        });
    };
    for (const node of root.findAll({ rule: { any: GRAMMARS[lang].commentKinds.map((kind) => ({ kind })) } })) {
      if (node.range().start.line >= HEADER_LINES) break;
      take(node);
    }
    if (lang === "python") {
      // A module docstring, and `__license__ = "GPLv3"`.
      for (const node of root.children().slice(0, 8)) {
        if (node.kind() !== "expression_statement") continue;
        const inner = node.child(0);
        if (inner?.kind() === "string") take(inner);
        else if (inner?.kind() === "assignment" && inner.field("left")?.text() === "__license__") take(inner);
      }
    }
    return out.sort((a, b) => a.line - b.line);
  }
  const out: PatchLine[] = [];
  let inBlock = false;
  for (const l of lines) {
    if (l.line > HEADER_LINES) break;
    const comment = inBlock || COMMENT_START.test(l.text);
    if (/\/\*/.test(l.text) && !/\*\//.test(l.text.slice(l.text.lastIndexOf("/*")))) inBlock = true;
    else if (/\*\//.test(l.text)) inBlock = false;
    if (comment) out.push(l);
  }
  return out;
}

/**
 * Every tag and notice above names a licence, the GPL family or the MPL: a header without one of
 * these words has nothing to find, and is never parsed. The MPL only as a word's start, as the
 * notices name it (`MPL-2.0`): not the letters of "example", "simple" or "implements".
 */
const NAMES_A_LICENCE = /licen[cs]e|GPL|\bMPL/i;

/** The first header comment line of a source file that tags or announces a copyleft licence. */
function sourceNotice(file: ChangedFile, lines: PatchLine[]): Finding | undefined {
  const path = file.filename;
  if (!precheck(lines.some((l) => l.line <= HEADER_LINES && NAMES_A_LICENCE.test(l.text)))) return undefined;
  const comments = headerComments(file, lines);
  const prose = NOT_SOURCE.test(path);
  if (!prose && DUAL.test(comments.map((c) => c.text).join("\n"))) return undefined;
  for (const [i, l] of comments.entries()) {
    const tag = SPDX_TAG.exec(l.text) ?? (prose ? null : LICENSE_TAG.exec(l.text));
    if (tag?.[1] !== undefined) {
      const copyleft = expressionCopyleft(tag[1]);
      if (copyleft) {
        return finding(
          path,
          l.line,
          `${path} declares its licence as ${tag[1]}, ${strength(copyleft.strong)}: copying it in puts this code ` +
            "under its terms. Use a permissively licensed source, or get a licence exception.",
          `licence=${classifyLicense(tag[1]).normalized}`,
        );
      }
      continue;
    }
    if (prose) continue;
    // A notice may wrap: "...the Mozilla Public" / "License, v. 2.0".
    const following = comments[i + 1];
    const wrapped = following?.line === l.line + 1 ? `${l.text} ${following.text.replace(COMMENT_MARKER, "")}` : l.text;
    const notice =
      NOTICES.find((n) => n.re.test(l.text)) ??
      (following && !NOTICES.some((n) => n.re.test(following.text))
        ? NOTICES.find((n) => n.re.test(wrapped))
        : undefined);
    if (notice) {
      return finding(
        path,
        l.line,
        `${path} carries a ${notice.family} licence notice ("${l.text.trim().slice(0, 120)}"), ${strength(notice.strong)}: ` +
          "it is copied copyleft source. Use a permissively licensed source, or get a licence exception.",
        `licence=${notice.family}|${subjectDigest("notice", normaliseCode(wrapped))}`,
      );
    }
  }
  return undefined;
}

/** Reads a head file, or undefined when there is no snapshot or no such file. */
async function readHead(ctx: DetectContext, path: string): Promise<string | undefined> {
  try {
    return await ctx.head.read(path);
  } catch {
    return undefined;
  }
}

/**
 * For source files the PR adds under a vendored folder, the copyleft licence text that already
 * sits in that folder (or a parent up to the vendor root) in the head snapshot, once per folder.
 * Licence files the PR adds itself are judged as files.
 */
async function vendoredLicenses(ctx: DetectContext, added: readonly ChangedFile[]): Promise<Finding[]> {
  const inPr = new Set(ctx.pr.files.map((f) => f.filename));
  const checked = new Set<string>();
  const findings: Finding[] = [];
  for (const file of added) {
    const root = VENDOR_DIR.exec(file.filename);
    if (!root || LICENSE_FILE.test(baseName(file.filename))) continue;
    const rootDir = file.filename.slice(0, root.index + root[0].length - 1);
    for (
      let dir = file.filename.slice(0, file.filename.lastIndexOf("/"));
      dir.length > rootDir.length;
      dir = dir.slice(0, Math.max(dir.lastIndexOf("/"), 0))
    ) {
      if (checked.has(dir)) break;
      if (checked.size >= MAX_VENDOR_DIRS) {
        // A cap records what it did not read: the ledger lists the file and a person looks.
        ctx.notRead(
          file.filename,
          `its vendored folder's licence was not looked up: over ${MAX_VENDOR_DIRS} vendored folders in one pull request`,
        );
        break;
      }
      checked.add(dir);
      let licensed = false;
      for (const name of LICENSE_NAMES) {
        const path = `${dir}/${name}`;
        if (inPr.has(path)) {
          licensed = true; // judged as a file of the PR
          break;
        }
        const text = await readHead(ctx, path);
        if (text === undefined) continue;
        licensed = true;
        const found = licenseText(
          path,
          text.split("\n").map((t, i): PatchLine => ({ kind: "add", line: i + 1, text: t })),
        );
        if (found) {
          findings.push({
            ...found,
            file: file.filename,
            line: 1,
            message: `${file.filename} is added beside ${found.message.replace(/^\S+ is /, `${path}, `)}`,
          });
        }
        break;
      }
      if (licensed) break; // the nearest licence governs the folder
    }
  }
  return findings;
}

/**
 * Third-party source copied in under a copyleft licence (LIC-03): added files whose header
 * comments carry a copyleft SPDX tag, an `@license` tag, or a notice in any common form ("GNU
 * General Public License", "GNU GPL", "GPLv3", "licensed under the GPL", LGPL, AGPL, MPL, EPL,
 * EUPL, SSPL, OSL), and added COPYING/LICENSE files in a subfolder (vendor/, third_party/) whose
 * text is such a licence, or already sits in the head snapshot of the vendored folder a new source
 * file is added to. In JavaScript, TypeScript, Python and Go only comments (and a Python
 * module docstring or `__license__`) count, so a string that mentions the GPL is not a notice;
 * other languages are read by their comment markers. A notice that offers a permissive choice
 * ("dual licensed under the MIT or GPL") is not flagged, nor is the repository's own root licence.
 * One finding per file.
 *
 * @example await copyleftSourceDetector.detect(ctx) // [{ policy: "LIC-03", file: "vendor/fastjson/parse.c", line: 3, ... }]
 */
export const copyleftSourceDetector: Detector = {
  id: "copyleft-source",
  policies: ["LIC-03"],
  // Licence notices are looked for in what a PR adds or copies, whatever its kind.
  covers: [],
  reads: (file) => (file.status === "added" || file.status === "copied") && file.patch !== undefined,
  async detect(ctx) {
    const findings: Finding[] = [];
    for (const file of ctx.pr.files) {
      if (file.status !== "added" && file.status !== "copied") continue;
      const lines = await linesOf(ctx, file);
      const isLicenseText = LICENSE_FILE.test(baseName(file.filename));
      const found = isLicenseText
        ? file.filename.includes("/")
          ? licenseText(file.filename, lines)
          : undefined
        : sourceNotice(file, lines);
      if (found) findings.push(found);
    }
    const added = ctx.pr.files.filter(
      (f) => (f.status === "added" || f.status === "copied") && !findings.some((x) => x.file === f.filename),
    );
    findings.push(...(await vendoredLicenses(ctx, added)));
    return findings;
  },
};
