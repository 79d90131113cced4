/**
 * How the languages read after JavaScript, Python and Go write strings and comments, one table per
 * line family: which quotes open a string, what a string splices in (`"$user.email"`,
 * `$"{user.Email}"`, `"{$user->email}"`, `"#{user.email}"`, Rust's `"{email}"`), and where a comment
 * starts. `sanitizeFamilyLine` reads one line with a table: string text emptied, interpolated
 * values kept as code between spaces, comments dropped (the shape `sanitizeCode` gives JavaScript
 * template literals and Python f-strings).
 *
 * @example sanitizeFamilyLine('log.info("to $email") // x', LINE_FAMILIES.kotlin) // 'log.info(" email ") '
 */

/** The families with a table here; the others are read by `sanitizeCode`'s own loop. */
export type TabledFamily =
  | "kotlin"
  | "csharp"
  | "rust"
  | "php"
  | "ruby"
  | "shell"
  | "scala"
  | "swift"
  | "dart"
  | "elixir"
  | "lua";

/** A string literal read from its opening quote: where it ends and the code it keeps. */
interface ReadString {
  end: number;
  kept: string;
}

/** One family's rules. */
export interface LineFamily {
  /** Characters where plain code may stop: quotes and comment starts. */
  special: RegExp;
  /** A comment that runs to the end of the line, tested where a special character stands. */
  lineComment: RegExp;
  /** Whether `/* ... *\/` is a comment. */
  blockComments: boolean;
  /** A line that continues a block comment (` * text`), read as blank. */
  commentLine?: RegExp;
  /**
   * The string (or character literal) that opens at `i`, or undefined when the quote there opens
   * none (a Rust lifetime `'a`): then the quote is copied as code.
   */
  readString(src: string, i: number): ReadString | undefined;
}

/** An interpolation found inside a string: the index after it and its expression. */
interface Spliced {
  end: number;
  expr: string;
}

/** Reads a string's text from `from` until `close`, keeping what `splice` finds. */
function readBody(
  src: string,
  from: number,
  close: string,
  opts: { escapes: boolean; doubled?: boolean; splice?: (src: string, i: number) => Spliced | undefined },
): { end: number; kept: string } {
  let i = from;
  let kept = "";
  while (i < src.length) {
    const c = src[i] ?? "";
    if (opts.doubled && c === close && src[i + 1] === close) {
      i += 2;
      continue;
    }
    if (src.startsWith(close, i)) break;
    // A splice is looked for first: Swift's `\(x)` starts with the escape character.
    const spliced = opts.splice?.(src, i);
    if (spliced) {
      if (spliced.expr !== "") kept += ` ${spliced.expr} `;
      i = spliced.end;
      continue;
    }
    if (opts.escapes && c === "\\") {
      i += 2;
      continue;
    }
    i++;
  }
  return { end: Math.min(src.length, i + close.length), kept };
}

/** The text inside braces opened at `open` (the `{`), to the brace that closes it. */
function braced(src: string, open: number): Spliced {
  let depth = 1;
  let i = open + 1;
  while (i < src.length) {
    const c = src[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) break;
    i++;
  }
  return { end: i + 1, expr: src.slice(open + 1, i) };
}

const IDENT = /[A-Za-z_][\w]*/y;

function identAt(src: string, i: number): string | undefined {
  IDENT.lastIndex = i;
  return IDENT.exec(src)?.[0];
}

/** Kotlin: `$name` and `${expr}`. */
function kotlinSplice(src: string, i: number): Spliced | undefined {
  if (src[i] !== "$") return undefined;
  if (src[i + 1] === "{") return braced(src, i + 1);
  const name = identAt(src, i + 1);
  return name ? { end: i + 1 + name.length, expr: name } : undefined;
}

/** C#: `{expr}`, `{expr:format}`, `{expr,width}`; `{{` is a brace. The format is dropped. */
function csharpSplice(src: string, i: number): Spliced | undefined {
  if (src[i] !== "{") return undefined;
  if (src[i + 1] === "{") return { end: i + 2, expr: "" };
  const inner = braced(src, i);
  let depth = 0;
  for (let k = 0; k < inner.expr.length; k++) {
    const c = inner.expr[k];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth === 0 && (c === "," || (c === ":" && inner.expr[k + 1] !== ":" && inner.expr[k - 1] !== ":")))
      return { end: inner.end, expr: inner.expr.slice(0, k) };
  }
  return inner;
}

const RUST_NAMED = /\{([A-Za-z_]\w*)(?::[^{}]*)?\}/y;

/** Rust format strings: `{name}` and `{name:?}` capture a variable; `{}`, `{0}` and `{{` do not. */
function rustSplice(src: string, i: number): Spliced | undefined {
  if (src[i] !== "{") return undefined;
  if (src[i + 1] === "{") return { end: i + 2, expr: "" };
  RUST_NAMED.lastIndex = i;
  const m = RUST_NAMED.exec(src);
  return m?.[1] ? { end: i + m[0].length, expr: m[1] } : undefined;
}

const PHP_SIMPLE = /\$([A-Za-z_]\w*)(?:(\??->)([A-Za-z_]\w*)|\[\s*['"]?([\w-]*)['"]?\s*\])?/y;

/** PHP double quotes and heredoc: `{$expr}`, `${name}`, `$name`, `$name->prop`, `$name[key]`. */
function phpSplice(src: string, i: number): Spliced | undefined {
  if (src[i] === "{" && src[i + 1] === "$") return braced(src, i);
  if (src[i] !== "$") return undefined;
  if (src[i + 1] === "{") {
    const inner = braced(src, i + 1);
    return { end: inner.end, expr: `$${inner.expr}` };
  }
  PHP_SIMPLE.lastIndex = i;
  const m = PHP_SIMPLE.exec(src);
  if (!m) return undefined;
  const expr = m[2] ? `$${m[1]}${m[2]}${m[3]}` : m[4] ? `$${m[1]}.${m[4]}` : `$${m[1]}`;
  return { end: i + m[0].length, expr };
}

/** Ruby double quotes and backticks: `#{expr}`, `#@ivar`. */
function rubySplice(src: string, i: number): Spliced | undefined {
  if (src[i] !== "#") return undefined;
  if (src[i + 1] === "{") return braced(src, i + 1);
  if (src[i + 1] === "@") {
    const name = identAt(src, i + 2);
    return name ? { end: i + 2 + name.length, expr: `@${name}` } : undefined;
  }
  return undefined;
}

/** A quoted literal whose quote is kept around what it splices: `"` + kept + `"`. */
function quoted(
  src: string,
  i: number,
  quote: string,
  opts: Parameters<typeof readBody>[3],
  closeWith = quote,
): ReadString {
  const body = readBody(src, i + quote.length, closeWith, opts);
  return { end: body.end, kept: `${quote[0]}${body.kept}${quote[0]}` };
}

function kotlinString(src: string, i: number): ReadString {
  if (src[i] === "'") return quoted(src, i, "'", { escapes: true });
  if (src.startsWith('"""', i)) return quoted(src, i, '"""', { escapes: false, splice: kotlinSplice });
  return quoted(src, i, '"', { escapes: true, splice: kotlinSplice });
}

function csharpString(src: string, i: number): ReadString {
  if (src[i] === "'") return quoted(src, i, "'", { escapes: true });
  const prefix = /[$@]*$/.exec(src.slice(Math.max(0, i - 3), i))?.[0] ?? "";
  const splice = prefix.includes("$") ? csharpSplice : undefined;
  const run = /^"{3,}/.exec(src.slice(i))?.[0];
  if (run) return quoted(src, i, run, { escapes: false, splice });
  if (prefix.includes("@")) return quoted(src, i, '"', { escapes: false, doubled: true, splice });
  return quoted(src, i, '"', { escapes: true, splice });
}

const RUST_CHAR = /'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n])'/y;

function rustString(src: string, i: number): ReadString | undefined {
  if (src[i] === "'") {
    RUST_CHAR.lastIndex = i;
    const m = RUST_CHAR.exec(src);
    // Not a character literal: a lifetime (`&'a str`, `'static`) or a loop label, which is code.
    return m ? { end: i + m[0].length, kept: "''" } : undefined;
  }
  const raw = /(?<![\w])b?r(#*)$/.exec(src.slice(Math.max(0, i - 40), i));
  if (raw) return quoted(src, i, '"', { escapes: false, splice: rustSplice }, `"${raw[1] ?? ""}`);
  return quoted(src, i, '"', { escapes: true, splice: rustSplice });
}

function phpString(src: string, i: number): ReadString {
  if (src[i] === "'") return quoted(src, i, "'", { escapes: true });
  return quoted(src, i, src[i] ?? '"', { escapes: true, splice: phpSplice });
}

function rubyString(src: string, i: number): ReadString {
  if (src[i] === "'") return quoted(src, i, "'", { escapes: true });
  return quoted(src, i, src[i] ?? '"', { escapes: true, splice: rubySplice });
}

const SHELL_NAME = /[A-Za-z_]\w*|[0-9@*#?$!-]/y;

/** Shell double quotes: `$name`, `${name...}`, `$(command)`; `\$` is a dollar. */
function shellSplice(src: string, i: number): Spliced | undefined {
  if (src[i] !== "$") return undefined;
  if (src[i + 1] === "{") return braced(src, i + 1);
  if (src[i + 1] === "(") return parenthesized(src, i + 2);
  SHELL_NAME.lastIndex = i + 1;
  const name = SHELL_NAME.exec(src)?.[0];
  return name ? { end: i + 1 + name.length, expr: name } : undefined;
}

/** Swift: `\(expr)`, to its closing parenthesis. */
function swiftSplice(src: string, i: number): Spliced | undefined {
  if (src[i] !== "\\" || src[i + 1] !== "(") return undefined;
  return parenthesized(src, i + 2);
}

/** The text from `start` (just after an opening parenthesis) to its closing one, nested ones skipped. */
function parenthesized(src: string, start: number): Spliced {
  let depth = 1;
  let k = start;
  while (k < src.length && depth > 0) {
    if (src[k] === "(") depth++;
    else if (src[k] === ")") depth--;
    k++;
  }
  return { end: k, expr: src.slice(start, depth === 0 ? k - 1 : k) };
}

function shellString(src: string, i: number): ReadString {
  // Single quotes take everything literally, backslashes included.
  if (src[i] === "'") return quoted(src, i, "'", { escapes: false });
  return quoted(src, i, '"', { escapes: true, splice: shellSplice });
}

/** Scala: `s"..."`, `f"..."`, `raw"..."` and other interpolators splice `$x` and `${x}`; a plain string does not. */
function scalaString(src: string, i: number): ReadString | undefined {
  if (src[i] === "'") {
    RUST_CHAR.lastIndex = i;
    const m = RUST_CHAR.exec(src);
    // A symbol (`'name`) is code.
    return m ? { end: i + m[0].length, kept: "''" } : undefined;
  }
  const interpolated = /[A-Za-z_]\w*$/.test(src.slice(Math.max(0, i - 20), i));
  const splice = interpolated ? kotlinSplice : undefined;
  if (src.startsWith('"""', i)) return quoted(src, i, '"""', { escapes: false, splice });
  return quoted(src, i, '"', { escapes: true, splice });
}

function swiftString(src: string, i: number): ReadString {
  if (src.startsWith('"""', i)) return quoted(src, i, '"""', { escapes: true, splice: swiftSplice });
  return quoted(src, i, '"', { escapes: true, splice: swiftSplice });
}

/** Dart: both quotes splice `$x` and `${x}`, unless raw (`r'...'`). */
function dartString(src: string, i: number): ReadString {
  const quote = src[i] ?? '"';
  const raw = /(?<![\w])r$/.test(src.slice(Math.max(0, i - 2), i));
  const splice = raw ? undefined : kotlinSplice;
  const triple = quote.repeat(3);
  if (src.startsWith(triple, i)) return quoted(src, i, triple, { escapes: !raw, splice });
  return quoted(src, i, quote, { escapes: !raw, splice });
}

/** Elixir: double quotes and charlists splice `#{x}`; `?"` is a character. */
function elixirString(src: string, i: number): ReadString | undefined {
  if (src[i - 1] === "?") return { end: i + 1, kept: "''" };
  const quote = src[i] ?? '"';
  const triple = quote.repeat(3);
  if (src.startsWith(triple, i)) return quoted(src, i, triple, { escapes: true, splice: rubySplice });
  return quoted(src, i, quote, { escapes: true, splice: rubySplice });
}

/** Lua: quotes without splices, and long brackets `[[...]]`, `[==[...]==]`. */
function luaString(src: string, i: number): ReadString | undefined {
  if (src[i] === "[") {
    const open = /^\[(=*)\[/.exec(src.slice(i));
    if (!open) return undefined;
    const close = `]${open[1] ?? ""}]`;
    const end = src.indexOf(close, i + open[0].length);
    return { end: end < 0 ? src.length : end + close.length, kept: '""' };
  }
  return quoted(src, i, src[i] ?? '"', { escapes: true });
}

/** `//` comments, `/* *\/` blocks, and ` * ` lines continuing a block (not `*x` dereferences). */
const SLASHES = {
  lineComment: /\/\//y,
  blockComments: true,
  commentLine: /^(?:\*(?:\s|\/|$))/,
} as const;

/** Every family with a table. */
export const LINE_FAMILIES: Readonly<Record<TabledFamily, LineFamily>> = {
  kotlin: { ...SLASHES, special: /["'/]/g, readString: kotlinString },
  csharp: { ...SLASHES, special: /["'/]/g, readString: csharpString },
  rust: { ...SLASHES, special: /["'/]/g, readString: rustString },
  // `#` starts a comment, except PHP 8's attributes `#[Route(...)]`.
  php: { ...SLASHES, lineComment: /\/\/|#(?!\[)/y, special: /["'`/#]/g, readString: phpString },
  ruby: { lineComment: /#/y, blockComments: false, special: /["'`#]/g, readString: rubyString },
  // `#` starts a comment only where a word could start: `$#`, `${#a}` and `a#b` are code.
  shell: { lineComment: /(?<![^\s;&|()])#/y, blockComments: false, special: /["'#]/g, readString: shellString },
  scala: { ...SLASHES, special: /["'/]/g, readString: scalaString },
  swift: { ...SLASHES, special: /["/]/g, readString: swiftString },
  dart: { ...SLASHES, special: /["'/]/g, readString: dartString },
  elixir: { lineComment: /#/y, blockComments: false, special: /["'#]/g, readString: elixirString },
  lua: { lineComment: /--/y, blockComments: false, special: /["'[-]/g, readString: luaString },
};

/**
 * One line reduced to its code with a family's table: strings emptied with their interpolated
 * values kept between spaces, comments dropped.
 *
 * @example sanitizeFamilyLine('puts "hi #{user.email}" # note', LINE_FAMILIES.ruby) // 'puts " user.email " '
 */
export function sanitizeFamilyLine(src: string, family: LineFamily): string {
  if (family.commentLine?.test(src.trimStart())) return "";
  let out = "";
  let i = 0;
  while (i < src.length) {
    family.special.lastIndex = i;
    const next = family.special.exec(src)?.index ?? src.length;
    out += src.slice(i, next);
    i = next;
    if (i >= src.length) break;
    family.lineComment.lastIndex = i;
    if (family.lineComment.test(src)) break;
    const ch = src[i] ?? "";
    if (family.blockComments && ch === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) break;
      i = end + 2;
      continue;
    }
    const str = ch === "/" || ch === "#" || ch === "-" ? undefined : family.readString(src, i);
    if (str) {
      out += str.kept;
      i = str.end;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}
