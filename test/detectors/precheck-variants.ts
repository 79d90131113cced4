/**
 * Rewrites of source text that keep what it means (or nearly: a parser recovers from the rest) and
 * change how it is spelled: the spellings a textual pre-check may get wrong. Each takes the text
 * and its file's extension and returns the variant.
 *
 * @example VARIANTS.spaceBeforeParen('exec("ls")', "js") // 'exec ("ls")'
 */
export type Variant = (text: string, ext: string) => string;

const slashes = (ext: string) => ext !== "py";
/** White space every JavaScript parser skips but a pre-check looking for " " and "\t" does not. */
const ODD_SPACES = ["\u00a0", "\f", "\v", "\ufeff", "\u2028", "\u3000", "\u2009"];

function eachLine(text: string, fn: (line: string, i: number) => string): string {
  return text
    .split("\n")
    .map((line, i) => fn(line, i))
    .join("\n");
}

/** One line padded to just under the 2,000-character line cap, with `fill` repeated after its code. */
function padded(line: string, fill: string): string {
  const room = 1990 - line.length;
  return room > fill.length ? `${line}${fill.repeat(Math.floor(room / fill.length))}` : line;
}

export const VARIANTS: Readonly<Record<string, Variant>> = {
  asWritten: (t) => t,
  spaceBeforeParen: (t) => t.replace(/([\w$\]])\(/g, "$1 ("),
  tabs: (t) => t.replace(/ +/g, "\t"),
  extraSpaces: (t) => t.replace(/ /g, "   ").replace(/([.,(])/g, "$1  "),
  oddSpaceBeforeParen: (t) => {
    let k = 0;
    return t.replace(/([\w$])\(/g, (_m, c: string) => `${c}${ODD_SPACES[k++ % ODD_SPACES.length]}(`);
  },
  oddSpaces: (t) => {
    let k = 0;
    return t.replace(/ /g, () => ODD_SPACES[k++ % ODD_SPACES.length] ?? " ");
  },
  breakAfterParen: (t, ext) => t.replace(/\((?=[^)\n])/g, ext === "py" ? "(\n        " : "(\n    "),
  breakAfterComma: (t) => t.replace(/, /g, ",\n    "),
  breakAroundDot: (t, ext) =>
    ext === "py"
      ? t.replace(/(\w)\.(\w)/g, "$1\\\n    .$2")
      : t.replace(/(\w)\.(\w)/g, ext === "go" ? "$1.\n\t$2" : "$1\n  .$2"),
  breakAroundPlus: (t, ext) => t.replace(/ \+ /g, ext === "py" ? " + \\\n    " : " +\n    "),
  commentInCall: (t, ext) => (slashes(ext) ? t.replace(/\(/g, "(/* note */ ").replace(/(\w)\.(\w)/g, "$1/**/.$2") : t),
  commentInName: (t, ext) => (slashes(ext) ? t.replace(/\b(\w{2})(\w{3,})/g, "$1/**/$2") : t),
  slashStarString: (t, ext) => eachLine(t, (l) => (l.trim() === "" || !slashes(ext) ? l : `"/*"; ${l}`)),
  // A string holding "/*" before a comment that splits a word: which "/*" opens the comment?
  slashStarThenCommentInName: (t, ext) => VARIANTS.slashStarString?.(VARIANTS.commentInName?.(t, ext) ?? t, ext) ?? t,
  lineComment: (t, ext) => eachLine(t, (l) => `${l} ${ext === "py" ? "#" : "//"} see /* notes */ ${"x".repeat(20)}`),
  longLines: (t, ext) => eachLine(t, (l) => (l.trim() === "" ? l : padded(`${l} `, ext === "py" ? " " : " "))),
  longCommentAfter: (t, ext) =>
    eachLine(t, (l) => (l.trim() === "" ? l : padded(`${l} ${ext === "py" ? "#" : "//"} `, "comment "))),
  longStringBefore: (t, ext) => {
    const filler = "y".repeat(1970);
    const line =
      ext === "py" ? `FILLER = "${filler}"` : ext === "go" ? `var filler = "${filler}"` : `const filler = "${filler}";`;
    return `${line}\n${t}`;
  },
  overTheCap: (t) => eachLine(t, (l, i) => (i % 2 === 1 ? padded(`${l} `, " ").padEnd(2001, " ") : l)),
  crlf: (t) => t.replace(/\n/g, "\r\n"),
  indented: (t, ext) => (ext === "py" ? `if True:\n${eachLine(t, (l) => `    ${l}`)}` : eachLine(t, (l) => `\t\t${l}`)),
  stringKeys: (t, ext) => (ext === "go" ? t : t.replace(/(\w)\.([a-z]\w*)(?!\s*\()/g, '$1["$2"]')),
  byteOrderMark: (t) => `\ufeff${t}`,
};

/** A small deterministic generator (mulberry32), so the combined variants are the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` compositions of two or three variants, chosen by `seed`, each named by its parts.
 *
 * @example combinedVariants(7, 2).map((v) => v.name) // ["tabs+commentInCall", "crlf+oddSpaces+breakAfterComma"]
 */
export function combinedVariants(seed: number, count: number): Array<{ name: string; apply: Variant }> {
  const names = Object.keys(VARIANTS).filter((n) => n !== "asWritten");
  const next = seeded(seed);
  return Array.from({ length: count }, () => {
    const parts = Array.from(
      { length: 2 + Math.floor(next() * 2) },
      () => names[Math.floor(next() * names.length)] ?? "tabs",
    );
    const fns = parts.map((p) => VARIANTS[p] as Variant);
    return { name: parts.join("+"), apply: (t: string, ext: string) => fns.reduce((acc, fn) => fn(acc, ext), t) };
  });
}
