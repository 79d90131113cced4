import type { CodeLanguage } from "../code-lines.js";

/**
 * What the detectors need to know of each grammar, as data: which files it reads, how it names
 * calls, strings, comments and assignments, and which line family its text belongs to. A detector
 * asks this table; it never branches on a language's name to learn a node kind.
 *
 * @example GRAMMARS.java.callKinds.map((c) => c.kind) // ["method_invocation", "object_creation_expression"]
 */

/** The grammars the detectors parse with. */
export type SyntaxLanguage =
  | "javascript"
  | "typescript"
  | "tsx"
  | "python"
  | "go"
  | "java"
  | "kotlin"
  | "csharp"
  | "php"
  | "ruby"
  | "rust"
  | "bash"
  | "scala"
  | "swift"
  | "c"
  | "cpp"
  | "dart"
  | "elixir"
  | "lua";

/**
 * How one kind of call node gives its callee and its arguments.
 * - `function`: the callee is the node's `function` field (or the field `calleeField` names) and
 *   the arguments its `arguments` field.
 * - `before-arguments`: the callee is the text of the children before the argument list (`a.b.c`
 *   of Java's `a.b.c(x)`, `$o->m` of PHP's `$o->m($x)`, `format!` of Rust's `format!(…)`), and
 *   the arguments the first child of one of `argumentKinds`, looked for inside a child of kind
 *   `suffixKind` when there is one (Kotlin's `call_suffix`). A constructor call (`new T(x)`)
 *   drops its `new`: the callee is the type.
 * - `command`: a shell command: the callee is the `calleeField` child (`name`), the arguments are
 *   the node's other named children but those of `skipKinds` (redirections, `FOO=bar` prefixes).
 * - `after-callee`: the node holds only the argument list (Dart's `argument_part`, in a `selector`),
 *   and the callee is the text of the siblings before its parent: the `chainKinds` right before it
 *   and the one node before those (`a`, `.b`, `(x)` of Dart's `a.b(x)` stand side by side).
 */
export interface CallKind {
  kind: string;
  shape: "function" | "before-arguments" | "command" | "after-callee";
  calleeField?: string;
  argumentKinds?: readonly string[];
  /**
   * The fields that hold the argument list, in the order tried: when the grammar names one, the
   * callee is the node's text before it (two reads of the tree instead of one per child).
   */
  argumentFields?: readonly string[];
  /** A token every node of this kind holds (`->`, `::`, `new`): a text without it has none to look for. */
  token?: string;
  suffixKind?: string;
  /** For `command`: named children that are no argument. */
  skipKinds?: readonly string[];
  /** For `after-callee`: the sibling kinds that continue a callee (Dart's `selector`). */
  chainKinds?: readonly string[];
}

/** One grammar's table. */
export interface Grammar {
  /** The name ast-grep knows the grammar by (built-in grammars are capitalised). */
  astGrepName: string;
  /** The package of a grammar ast-grep does not build in, registered on first use. */
  dynamicPackage?: string;
  /** File names this grammar reads. */
  files: RegExp;
  /** The line family of its text: how strings and comments are written (see `sanitizeCode`). */
  family: CodeLanguage;
  callKinds: readonly CallKind[];
  /** Comment node kinds. */
  commentKinds: readonly string[];
  /** String literal node kinds, interpolating ones included. */
  stringKinds: readonly string[];
  /** Node kinds that splice a value into a string (`${x}`, `#{x}`, `{x}`, `$x`). */
  interpolationKinds: readonly string[];
  /** Node kinds that give a name a value. */
  assignmentKinds: readonly string[];
  /** Wrappers of one argument that hold the argument's expression as their one named child. */
  argumentWrappers: readonly string[];
  /**
   * Text a hunk needs before it to be read as code, put on its first row when the hunk lacks its
   * own opener: PHP reads everything before `<?php` as HTML, and a hunk from a file's middle has none.
   */
  prelude?: { text: string; unless: RegExp };
  /**
   * The character that opens a block, for a grammar whose hunks may start inside one: a hunk cut
   * from a file's middle that closes blocks it never opened (`}` first) gets as many openers on its
   * first row, so the parser does not swallow the lines after them into an error.
   */
  blockOpener?: "{";
  /** Member access written otherwise than `.`, `?.`, `->` or `::` (Lua's `obj:method`), read as `.` in a callee. */
  memberTokens?: RegExp;
}

const JS_LIKE = {
  dynamicPackage: undefined,
  family: "js",
  callKinds: [
    { kind: "call_expression", shape: "function" },
    // `new T(x)`: the callee is the type (`constructor`), as for the grammars that say `new` too.
    { kind: "new_expression", shape: "function", calleeField: "constructor", token: "new" },
  ],
  commentKinds: ["comment"],
  stringKinds: ["string", "template_string"],
  interpolationKinds: ["template_substitution"],
  assignmentKinds: ["variable_declarator", "assignment_expression", "augmented_assignment_expression"],
  argumentWrappers: [],
} as const;

/** Every grammar, by the name the detectors use. */
export const GRAMMARS: Readonly<Record<SyntaxLanguage, Grammar>> = {
  tsx: { ...JS_LIKE, astGrepName: "Tsx", files: /\.(?:c|m)?tsx$/i },
  typescript: { ...JS_LIKE, astGrepName: "TypeScript", files: /\.(?:c|m)?ts$/i },
  javascript: { ...JS_LIKE, astGrepName: "JavaScript", files: /\.(?:c|m)?jsx?$/i },
  python: {
    astGrepName: "python",
    dynamicPackage: "@ast-grep/lang-python",
    files: /\.py$/i,
    family: "python",
    callKinds: [{ kind: "call", shape: "function" }],
    commentKinds: ["comment"],
    stringKinds: ["string"],
    interpolationKinds: ["interpolation"],
    assignmentKinds: ["assignment", "augmented_assignment"],
    argumentWrappers: [],
  },
  go: {
    astGrepName: "go",
    dynamicPackage: "@ast-grep/lang-go",
    files: /\.go$/i,
    family: "go",
    callKinds: [{ kind: "call_expression", shape: "function" }],
    commentKinds: ["comment"],
    stringKinds: ["interpreted_string_literal", "raw_string_literal"],
    interpolationKinds: [],
    assignmentKinds: ["short_var_declaration", "assignment_statement", "var_spec"],
    argumentWrappers: [],
  },
  java: {
    astGrepName: "java",
    dynamicPackage: "@ast-grep/lang-java",
    files: /\.java$/i,
    family: "c-like",
    callKinds: [
      {
        kind: "method_invocation",
        shape: "before-arguments",
        argumentKinds: ["argument_list"],
        argumentFields: ["arguments"],
      },
      {
        kind: "object_creation_expression",
        shape: "before-arguments",
        argumentKinds: ["argument_list"],
        argumentFields: ["arguments"],
        token: "new",
      },
    ],
    commentKinds: ["line_comment", "block_comment"],
    stringKinds: ["string_literal"],
    interpolationKinds: [],
    assignmentKinds: ["variable_declarator", "assignment_expression"],
    argumentWrappers: [],
  },
  kotlin: {
    astGrepName: "kotlin",
    dynamicPackage: "@ast-grep/lang-kotlin",
    files: /\.kts?$/i,
    family: "kotlin",
    callKinds: [
      {
        kind: "call_expression",
        shape: "before-arguments",
        suffixKind: "call_suffix",
        argumentKinds: ["value_arguments", "annotated_lambda"],
      },
    ],
    commentKinds: ["line_comment", "multiline_comment"],
    stringKinds: ["string_literal"],
    interpolationKinds: ["interpolated_identifier", "interpolated_expression"],
    assignmentKinds: ["property_declaration", "assignment"],
    argumentWrappers: ["value_argument"],
  },
  csharp: {
    astGrepName: "csharp",
    dynamicPackage: "@ast-grep/lang-csharp",
    files: /\.cs$/i,
    family: "csharp",
    callKinds: [
      { kind: "invocation_expression", shape: "function" },
      {
        kind: "object_creation_expression",
        shape: "before-arguments",
        argumentKinds: ["argument_list"],
        argumentFields: ["arguments"],
        token: "new",
      },
    ],
    commentKinds: ["comment"],
    stringKinds: ["string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression"],
    interpolationKinds: ["interpolation"],
    assignmentKinds: ["variable_declarator", "assignment_expression"],
    argumentWrappers: ["argument"],
  },
  php: {
    astGrepName: "php",
    dynamicPackage: "@ast-grep/lang-php",
    files: /\.(?:php|phtml)$/i,
    family: "php",
    // Every call but `new` names its argument list's field: the callee is the text before it.
    callKinds: [
      {
        kind: "function_call_expression",
        shape: "before-arguments",
        argumentKinds: ["arguments"],
        argumentFields: ["arguments"],
      },
      {
        kind: "member_call_expression",
        shape: "before-arguments",
        argumentKinds: ["arguments"],
        argumentFields: ["arguments"],
        token: "->",
      },
      {
        kind: "nullsafe_member_call_expression",
        shape: "before-arguments",
        argumentKinds: ["arguments"],
        argumentFields: ["arguments"],
        token: "?->",
      },
      {
        kind: "scoped_call_expression",
        shape: "before-arguments",
        argumentKinds: ["arguments"],
        argumentFields: ["arguments"],
        token: "::",
      },
      { kind: "object_creation_expression", shape: "before-arguments", argumentKinds: ["arguments"], token: "new" },
    ],
    commentKinds: ["comment"],
    stringKinds: ["string", "encapsed_string", "heredoc", "nowdoc"],
    interpolationKinds: ["variable_name", "member_access_expression", "subscript_expression"],
    assignmentKinds: ["assignment_expression", "augmented_assignment_expression"],
    argumentWrappers: ["argument"],
    prelude: { text: "<?php ", unless: /<\?/ },
  },
  ruby: {
    astGrepName: "ruby",
    dynamicPackage: "@ast-grep/lang-ruby",
    files: /\.(?:rb|rake)$/i,
    family: "ruby",
    // A call with only a block (`logger.debug { "..." }`) has the block as its arguments.
    callKinds: [
      {
        kind: "call",
        shape: "before-arguments",
        argumentKinds: ["argument_list", "block", "do_block"],
        argumentFields: ["arguments", "block"],
      },
    ],
    commentKinds: ["comment"],
    stringKinds: ["string", "heredoc_body"],
    interpolationKinds: ["interpolation"],
    assignmentKinds: ["assignment", "operator_assignment"],
    argumentWrappers: [],
  },
  rust: {
    astGrepName: "rust",
    dynamicPackage: "@ast-grep/lang-rust",
    files: /\.rs$/i,
    family: "rust",
    callKinds: [
      { kind: "call_expression", shape: "function" },
      { kind: "macro_invocation", shape: "before-arguments", argumentKinds: ["token_tree"], token: "!" },
    ],
    commentKinds: ["line_comment", "block_comment"],
    stringKinds: ["string_literal", "raw_string_literal"],
    interpolationKinds: [],
    assignmentKinds: ["let_declaration", "assignment_expression", "compound_assignment_expr"],
    argumentWrappers: [],
  },
  bash: {
    astGrepName: "bash",
    dynamicPackage: "@ast-grep/lang-bash",
    files: /\.(?:sh|bash)$/i,
    family: "shell",
    callKinds: [
      {
        kind: "command",
        shape: "command",
        calleeField: "name",
        skipKinds: ["command_name", "file_redirect", "herestring_redirect", "variable_assignment", "comment"],
      },
    ],
    commentKinds: ["comment"],
    stringKinds: ["string", "raw_string", "heredoc_body", "ansi_c_string"],
    interpolationKinds: ["simple_expansion", "expansion", "command_substitution"],
    assignmentKinds: ["variable_assignment"],
    argumentWrappers: [],
  },
  scala: {
    astGrepName: "scala",
    blockOpener: "{",
    dynamicPackage: "@ast-grep/lang-scala",
    files: /\.(?:scala|sc)$/i,
    family: "scala",
    callKinds: [
      { kind: "call_expression", shape: "function" },
      {
        kind: "instance_expression",
        shape: "before-arguments",
        argumentKinds: ["arguments"],
        argumentFields: ["arguments"],
        token: "new",
      },
    ],
    commentKinds: ["comment", "block_comment"],
    stringKinds: ["string", "interpolated_string_expression"],
    interpolationKinds: ["interpolation"],
    assignmentKinds: ["val_definition", "var_definition", "assignment_expression"],
    argumentWrappers: [],
  },
  swift: {
    astGrepName: "swift",
    blockOpener: "{",
    dynamicPackage: "@ast-grep/lang-swift",
    files: /\.swift$/i,
    family: "swift",
    callKinds: [
      {
        kind: "call_expression",
        shape: "before-arguments",
        suffixKind: "call_suffix",
        argumentKinds: ["value_arguments", "lambda_literal"],
      },
    ],
    commentKinds: ["comment", "multiline_comment"],
    stringKinds: ["line_string_literal", "multi_line_string_literal", "raw_string_literal"],
    interpolationKinds: ["interpolated_expression"],
    assignmentKinds: ["property_declaration", "assignment"],
    argumentWrappers: ["value_argument"],
  },
  c: {
    astGrepName: "c",
    blockOpener: "{",
    dynamicPackage: "@ast-grep/lang-c",
    files: /\.[ch]$/i,
    family: "c-like",
    callKinds: [{ kind: "call_expression", shape: "function" }],
    commentKinds: ["comment"],
    stringKinds: ["string_literal", "concatenated_string"],
    interpolationKinds: [],
    assignmentKinds: ["init_declarator", "assignment_expression"],
    argumentWrappers: [],
  },
  cpp: {
    astGrepName: "cpp",
    blockOpener: "{",
    dynamicPackage: "@ast-grep/lang-cpp",
    files: /\.(?:cc|cpp|cxx|c\+\+|hh|hpp|hxx|h\+\+|ipp|inl)$/i,
    family: "c-like",
    callKinds: [
      { kind: "call_expression", shape: "function" },
      {
        kind: "new_expression",
        shape: "before-arguments",
        argumentKinds: ["argument_list"],
        argumentFields: ["arguments"],
        token: "new",
      },
    ],
    commentKinds: ["comment"],
    stringKinds: ["string_literal", "concatenated_string", "raw_string_literal"],
    interpolationKinds: [],
    assignmentKinds: ["init_declarator", "assignment_expression"],
    argumentWrappers: [],
  },
  dart: {
    astGrepName: "dart",
    blockOpener: "{",
    dynamicPackage: "@ast-grep/lang-dart",
    files: /\.dart$/i,
    family: "dart",
    callKinds: [
      { kind: "argument_part", shape: "after-callee", argumentKinds: ["arguments"], chainKinds: ["selector"] },
    ],
    commentKinds: ["comment", "documentation_comment"],
    stringKinds: ["string_literal"],
    interpolationKinds: ["template_substitution"],
    assignmentKinds: ["initialized_variable_definition", "assignment_expression"],
    argumentWrappers: ["argument"],
  },
  elixir: {
    astGrepName: "elixir",
    dynamicPackage: "@ast-grep/lang-elixir",
    files: /\.(?:ex|exs)$/i,
    family: "elixir",
    // `IO.puts "x"` and `Logger.info(x)` alike; `user.email` has no arguments and is no call.
    callKinds: [{ kind: "call", shape: "before-arguments", argumentKinds: ["arguments"] }],
    commentKinds: ["comment"],
    stringKinds: ["string", "charlist"],
    interpolationKinds: ["interpolation"],
    // `x = value` is a binary operator whose operator is `=` (the reader skips the others).
    assignmentKinds: ["binary_operator"],
    argumentWrappers: [],
  },
  lua: {
    astGrepName: "lua",
    dynamicPackage: "@ast-grep/lang-lua",
    files: /\.lua$/i,
    family: "lua",
    callKinds: [{ kind: "function_call", shape: "function", calleeField: "name" }],
    commentKinds: ["comment"],
    stringKinds: ["string"],
    interpolationKinds: [],
    assignmentKinds: ["assignment_statement"],
    argumentWrappers: [],
    memberTokens: /:/g,
  },
};

/** The grammars in the order their file patterns are tried (`.tsx` before `.ts`). */
const ORDER = Object.keys(GRAMMARS) as SyntaxLanguage[];

/**
 * The grammar for a repository path, or undefined for a file no grammar reads.
 *
 * @example syntaxLanguageOf("api/users.py") // "python"
 */
export function syntaxLanguageOf(path: string): SyntaxLanguage | undefined {
  return ORDER.find((lang) => GRAMMARS[lang].files.test(path));
}

/** JavaScript, TypeScript, Python and Go: the grammars every code detector reads. */
export const FIRST_GRAMMARS: readonly SyntaxLanguage[] = ["javascript", "typescript", "tsx", "python", "go"];

/** Every grammar. */
export const ALL_GRAMMARS: readonly SyntaxLanguage[] = ORDER;
