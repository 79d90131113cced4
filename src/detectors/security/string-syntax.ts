import type { SyntaxLanguage } from "../code/grammars.js";

/**
 * How each grammar builds a string at run time, as data for `StringBuilderReader`: which nodes
 * are names, literal strings and their substitutions, which binary operators join text, which
 * calls format or append, and which calls give back their receiver's text unchanged. The reader
 * asks this table; it never branches on a language's name.
 *
 * @example STRING_SYNTAX.php.concatOperators // [".", "+"]
 */
export interface StringSyntax {
  /** Text any file that builds a string at run time holds (a cheap pre-check before any parse). */
  buildsText: RegExp;
  /** Names followed to their assignments (`identifier`, Kotlin `simple_identifier`, PHP `variable_name`). */
  identifierKinds: readonly string[];
  /** Literal string kinds, interpolating ones included. */
  stringKinds: readonly string[];
  /** String kinds that are constants when they substitute nothing (a JS template literal is not). */
  constantStringKinds: readonly string[];
  /** Children of a string that splice a value in. */
  substitutionKinds: readonly string[];
  /** Substitution kinds that are the value itself (Kotlin `$name`, PHP `"$name"`), not a wrapper around it. */
  bareSubstitutionKinds: readonly string[];
  /** Children of a substitution that are punctuation, not its value (C# `interpolation_brace`). */
  substitutionPunctuation: readonly string[];
  /** Children of a string that hold its literal text. */
  contentKinds: readonly string[];
  /**
   * The grammar gives a string's literal text no node of its own (Scala's and Dart's interpolated
   * strings): the literal is the string's text without its substitutions.
   */
  contentFromText?: boolean;
  /**
   * Strings that bind what they splice as parameters (Doobie's and Slick's `sql"..."`, Anorm's
   * `SQL"..."`), tested on the string's text (and on a line the line rules match): they build no
   * SQL text.
   */
  boundStrings?: RegExp;
  /** Children of a string whose own children are the string's parts (PHP's `heredoc_body`). */
  bodyKinds: readonly string[];
  /**
   * A heredoc written as a marker where the value is and a body after the line (Ruby's `<<~SQL`):
   * the n-th body of the tree belongs to its n-th marker.
   */
  heredoc?: { marker: string; body: string };
  /** Binary node kinds, and the operators among them that join text. */
  binaryKinds: readonly string[];
  concatOperators: readonly string[];
  /** `"..." % x` formats a string (Python, Ruby). */
  percentFormats: boolean;
  /** Nodes that hold one expression (parentheses, `&x` in Rust, `value_argument` in Kotlin). */
  wrapperKinds: readonly string[];
  /** Call node kinds the reader reads as formatting, appending or passing text through. */
  callKinds: readonly string[];
  /**
   * Calls that format their first argument (or the one at `formatArg`) with the rest: the callee,
   * and the verbs that print text.
   */
  formatFunctions: ReadonlyArray<{ callee: RegExp; verbs: RegExp | "any"; formatArg?: number }>;
  /**
   * Calls that write text into the buffer given at `buffer` (C's `sprintf(q, ...)`, `strcat(q, x)`):
   * the buffer is given the call's text (a format call), or the argument at `value`, added to what
   * it held when `appends`.
   */
  bufferWrites?: ReadonlyArray<{ callee: RegExp; buffer: number; value?: number; appends?: boolean }>;
  /** Methods of a string receiver that format or join it with the arguments (`"...".format(x)`). */
  formatMethods: RegExp;
  /** Methods that add their argument to their receiver (`sb.append(x)`, `s.push_str(x)`). */
  appendMethods: readonly string[];
  /** Binary operators that add the right side to a name on the left (Ruby `s << x`). */
  appendOperators: readonly string[];
  /**
   * Compound assignments that add text to what the name holds (`sql .= $x`, `sql += x`): an opaque
   * value added so is built text. (JavaScript, Python and Go keep their first reading, in which
   * only the added value's own building counts.)
   */
  appendAssignments: readonly string[];
  /** Methods whose result is the receiver's text (`sb.toString()`, `s.as_str()`). */
  passThroughMethods: RegExp;
  /** Calls whose result is their first argument's text (`new StringBuilder("...")`, `String::from`). */
  passThroughFunctions: RegExp;
  /** Names a format string splices by itself (Rust's `format!("{name}")`). */
  formatCaptures: RegExp;
  /** Calls whose result cannot carry SQL or shell syntax (escapers, number parsers), if the grammar has any. */
  safeCalls?: RegExp;
  /**
   * An argument list's text that holds only literals splicing nothing (PHP's `('...')`, or `("...")`
   * without a `$`): a call given it builds no text and passes no request data, so its arguments
   * are not read from the tree. Undefined: every call's arguments are read.
   */
  literalArguments?: RegExp;
  /** Node kinds of member access whose last name, when ALL_CAPS, is a constant (`Config.TABLE`). */
  memberKinds: readonly string[];
  /** Node kinds that are always constant values (numbers, booleans, null, symbols). */
  literalKinds: readonly string[];
  /** Node kinds that read as constant values (a cast to a number: PHP `(int)$id`). */
  numericKinds: readonly string[];
  /** Whether assignments name their target and value by field (`left`/`name`, `right`/`value`); Kotlin's do not. */
  assignmentFields: boolean;
  /** An assignment kind that names an operator field gives a value only with an assigning operator (Elixir's `binary_operator`). */
  assignmentOperatorField?: boolean;
  /** Assignment target kinds that wrap the name (Kotlin `variable_declaration`). */
  targetWrappers: readonly string[];
}

const NEVER = /(?!)/;

/** PHP's strings that splice nothing: single-quoted, or double-quoted without a `$` (`{$x}` has one too). */
const PHP_PLAIN_STRING = String.raw`'(?:[^'\\]|\\.)*'|"(?:[^"\\$]|\\[^$])*"`;

/** An argument list of one or more of `literal`, and nothing else. */
function onlyLiterals(literal: string): RegExp {
  return new RegExp(String.raw`^\(\s*(?:${literal})(?:\s*,\s*(?:${literal}))*\s*,?\s*\)$`);
}
/** Format verbs that print text (`%s`, `%v`, `%r`); numeric verbs cannot carry SQL or shell syntax. */
export const TEXT_VERB = /%[-+# 0-9.*]*[sqvrx]|%\([^)]*\)[sr]/;
/** JavaScript, Python and Go share the reader's first rules (their findings are fixed by tests). */
const FIRST_FORMAT = [
  { callee: /^(fmt\.Sprintf|util\.format|format)$/, verbs: TEXT_VERB },
  { callee: /^fmt\.Sprint$/, verbs: "any" as const },
];
const FIRST = {
  buildsText: /\+|format|concat|Sprint/,
  identifierKinds: ["identifier"],
  stringKinds: ["string", "template_string", "interpreted_string_literal", "raw_string_literal", "concatenated_string"],
  constantStringKinds: ["string", "interpreted_string_literal", "raw_string_literal"],
  substitutionKinds: ["template_substitution", "interpolation"],
  bareSubstitutionKinds: [],
  substitutionPunctuation: [],
  contentKinds: ["string_fragment", "string_content"],
  bodyKinds: [],
  binaryKinds: ["binary_expression", "binary_operator"],
  concatOperators: ["+"],
  percentFormats: false,
  wrapperKinds: ["parenthesized_expression", "expression_list"],
  callKinds: ["call", "call_expression"],
  formatFunctions: FIRST_FORMAT,
  formatMethods: /^(format|concat)$/,
  appendMethods: [],
  appendOperators: [],
  appendAssignments: [],
  formatCaptures: NEVER,
  passThroughMethods: NEVER,
  passThroughFunctions: NEVER,
  memberKinds: ["member_expression", "attribute", "selector_expression"],
  literalKinds: [
    "number",
    "integer",
    "float",
    "int_literal",
    "float_literal",
    "true",
    "false",
    "null",
    "none",
    "nil",
    "undefined",
  ],
  numericKinds: [],
  assignmentFields: true,
  targetWrappers: [],
} satisfies StringSyntax;

/** JVM languages: `String.format`, `"...".formatted(x)`, `StringBuilder` chains. */
const JVM_FORMAT = [
  { callee: /^(String\.format|MessageFormat\.format|java\.lang\.String\.format)$/, verbs: /%[-+# 0-9.]*s|\{\d+\}/ },
];
const JVM_SAFE =
  /^(Integer\.parseInt|Integer\.valueOf|Long\.parseLong|Long\.valueOf|UUID\.fromString|.*\.toInt|.*\.toLong|.*\.toIntOrNull|.*\.toLongOrNull)$/;

/** C: `sprintf(q, "...%s", x)` and `strcat(q, x)` write into a buffer; `snprintf` takes a size first. */
const C_STRINGS: StringSyntax = {
  ...FIRST,
  buildsText: /printf|strn?cat|strn?cpy/,
  stringKinds: ["string_literal", "concatenated_string"],
  constantStringKinds: ["string_literal"],
  substitutionKinds: [],
  contentKinds: ["string_content"],
  binaryKinds: ["binary_expression"],
  wrapperKinds: ["parenthesized_expression"],
  callKinds: ["call_expression"],
  formatFunctions: [
    { callee: /^(sprintf|vsprintf)$/, verbs: TEXT_VERB, formatArg: 1 },
    { callee: /^(snprintf|vsnprintf)$/, verbs: TEXT_VERB, formatArg: 2 },
    { callee: /^(asprintf|vasprintf)$/, verbs: TEXT_VERB, formatArg: 1 },
  ],
  formatMethods: NEVER,
  bufferWrites: [
    { callee: /^(sprintf|vsprintf|snprintf|vsnprintf|asprintf|vasprintf)$/, buffer: 0 },
    { callee: /^(strcpy|strncpy)$/, buffer: 0, value: 1 },
    { callee: /^(strcat|strncat)$/, buffer: 0, value: 1, appends: true },
  ],
  safeCalls: /^(atoi|atol|strtol|strtoul|mysql_real_escape_string|sqlite3_mprintf)$/,
  memberKinds: ["field_expression"],
  literalKinds: ["number_literal", "true", "false", "null", "char_literal"],
  targetWrappers: ["pointer_declarator", "array_declarator"],
};

/** Every grammar's string building. */
export const STRING_SYNTAX: Readonly<Record<SyntaxLanguage, StringSyntax>> = {
  javascript: FIRST,
  typescript: FIRST,
  tsx: FIRST,
  // Python's `%` formatting, and an f-string (or t-string) prefix right before its quote.
  python: {
    ...FIRST,
    percentFormats: true,
    buildsText: /\+|format|concat|Sprint|%|(?<![\w])(?:[fFtT][rR]?|[rR][fFtT])["']/,
  },
  go: FIRST,
  java: {
    ...FIRST,
    appendAssignments: ["+="],
    buildsText: /\+|format|concat|append|insert/,
    stringKinds: ["string_literal"],
    constantStringKinds: ["string_literal"],
    substitutionKinds: [],
    contentKinds: ["string_fragment", "multiline_string_fragment"],
    binaryKinds: ["binary_expression"],
    wrapperKinds: ["parenthesized_expression"],
    callKinds: ["method_invocation", "object_creation_expression"],
    formatFunctions: JVM_FORMAT,
    formatMethods: /^(formatted|concat)$/,
    appendMethods: ["append", "insert"],
    passThroughMethods: /^(toString|trim|strip|intern)$/,
    passThroughFunctions: /^(StringBuilder|StringBuffer|String|String\.valueOf)$/,
    safeCalls: JVM_SAFE,
    memberKinds: ["field_access"],
    literalKinds: [
      "decimal_integer_literal",
      "decimal_floating_point_literal",
      "true",
      "false",
      "null_literal",
      "character_literal",
    ],
  },
  kotlin: {
    ...FIRST,
    appendAssignments: ["+="],
    buildsText: /\+|\$|format|append|insert/,
    identifierKinds: ["simple_identifier", "interpolated_identifier"],
    stringKinds: ["string_literal"],
    constantStringKinds: ["string_literal"],
    substitutionKinds: ["interpolated_identifier", "interpolated_expression"],
    bareSubstitutionKinds: ["interpolated_identifier"],
    contentKinds: ["string_content"],
    binaryKinds: ["additive_expression"],
    wrapperKinds: ["parenthesized_expression", "value_argument"],
    callKinds: ["call_expression"],
    formatFunctions: [{ callee: /^(String\.format|java\.lang\.String\.format)$/, verbs: /%[-+# 0-9.]*s/ }],
    formatMethods: /^format$/,
    appendMethods: ["append", "appendLine", "insert"],
    passThroughMethods: /^(toString|trim|trimIndent|trimMargin)$/,
    passThroughFunctions: /^(StringBuilder|StringBuffer|String)$/,
    safeCalls: JVM_SAFE,
    memberKinds: ["navigation_expression"],
    literalKinds: ["integer_literal", "real_literal", "boolean_literal", "null", "character_literal", "long_literal"],
    assignmentFields: false,
    targetWrappers: ["variable_declaration", "directly_assignable_expression"],
  },
  csharp: {
    ...FIRST,
    appendAssignments: ["+="],
    buildsText: /\+|\$|Format|Concat|Append|Insert/,
    stringKinds: ["string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression"],
    constantStringKinds: [
      "string_literal",
      "verbatim_string_literal",
      "raw_string_literal",
      "interpolated_string_expression",
    ],
    substitutionKinds: ["interpolation"],
    substitutionPunctuation: ["interpolation_brace", "interpolation_alignment_clause", "interpolation_format_clause"],
    contentKinds: ["string_content", "string_literal_content", "raw_string_content"],
    binaryKinds: ["binary_expression"],
    wrapperKinds: ["parenthesized_expression", "argument"],
    callKinds: ["invocation_expression", "object_creation_expression"],
    formatFunctions: [
      { callee: /^(string\.Format|String\.Format)$/, verbs: /\{\d+[^}]*\}/ },
      { callee: /^(string\.Concat|String\.Concat)$/, verbs: "any" },
    ],
    formatMethods: NEVER,
    appendMethods: ["Append", "AppendLine", "AppendFormat", "Insert"],
    passThroughMethods: /^(ToString|Trim)$/,
    passThroughFunctions: /^(StringBuilder|System\.Text\.StringBuilder)$/,
    safeCalls: /^(int\.Parse|long\.Parse|Guid\.Parse|Convert\.ToInt32|Convert\.ToInt64)$/,
    memberKinds: ["member_access_expression"],
    literalKinds: ["integer_literal", "real_literal", "boolean_literal", "null_literal", "character_literal"],
  },
  php: {
    ...FIRST,
    appendAssignments: [".="],
    buildsText: /\.|\$|sprintf/,
    literalArguments: onlyLiterals(PHP_PLAIN_STRING),
    identifierKinds: ["variable_name"],
    stringKinds: ["string", "encapsed_string", "heredoc", "nowdoc"],
    constantStringKinds: ["string", "encapsed_string", "heredoc", "nowdoc"],
    substitutionKinds: ["variable_name", "member_access_expression", "subscript_expression", "member_call_expression"],
    bareSubstitutionKinds: [
      "variable_name",
      "member_access_expression",
      "subscript_expression",
      "member_call_expression",
    ],
    contentKinds: ["string_content", "string_value", "nowdoc_body"],
    bodyKinds: ["heredoc_body"],
    binaryKinds: ["binary_expression"],
    concatOperators: [".", "+"],
    wrapperKinds: ["parenthesized_expression", "argument"],
    callKinds: ["function_call_expression", "member_call_expression", "scoped_call_expression"],
    formatFunctions: [{ callee: /^(sprintf|vsprintf)$/, verbs: /%[-+ 0-9.']*s/ }],
    formatMethods: NEVER,
    appendMethods: [],
    passThroughMethods: NEVER,
    passThroughFunctions: /^(trim|strval)$/,
    safeCalls:
      /^(escapeshellarg|escapeshellcmd|intval|floatval|mysqli_real_escape_string|pg_escape_string|pg_escape_literal|\$\w+\.quote|\$\w+\.real_escape_string)$/,
    memberKinds: ["class_constant_access_expression"],
    literalKinds: ["integer", "float", "boolean", "null"],
    numericKinds: ["cast_expression"],
  },
  ruby: {
    ...FIRST,
    appendAssignments: ["+=", "<<"],
    buildsText: /#\{|\+|<<|%|format|sprintf|concat|prepend/,
    identifierKinds: ["identifier"],
    stringKinds: ["string"],
    constantStringKinds: ["string"],
    substitutionKinds: ["interpolation"],
    contentKinds: ["string_content", "heredoc_content"],
    heredoc: { marker: "heredoc_beginning", body: "heredoc_body" },
    binaryKinds: ["binary"],
    percentFormats: true,
    wrapperKinds: ["parenthesized_statements"],
    callKinds: ["call"],
    formatFunctions: [{ callee: /^(format|sprintf|Kernel\.format)$/, verbs: TEXT_VERB }],
    formatMethods: NEVER,
    appendMethods: ["concat", "prepend"],
    appendOperators: ["<<"],
    passThroughMethods: /^(to_s|strip|squish|freeze|dup)$/,
    passThroughFunctions: NEVER,
    safeCalls:
      /^(Shellwords\.escape|Shellwords\.shellescape|Shellwords\.join|.*\.shellescape|.*\.to_i|.*\.to_f|.*connection\.quote|.*\.sanitize_sql\w*|sanitize_sql\w*|.*\.quote)$/,
    memberKinds: ["scope_resolution"],
    literalKinds: ["integer", "float", "true", "false", "nil", "simple_symbol", "hash_key_symbol"],
  },
  rust: {
    ...FIRST,
    appendAssignments: ["+="],
    buildsText: /\+|format|push|concat/,
    stringKinds: ["string_literal", "raw_string_literal"],
    constantStringKinds: ["string_literal", "raw_string_literal"],
    substitutionKinds: [],
    contentKinds: ["string_content"],
    binaryKinds: ["binary_expression"],
    wrapperKinds: ["parenthesized_expression", "reference_expression"],
    callKinds: ["call_expression", "macro_invocation"],
    formatFunctions: [{ callee: /^(format!|std\.format!|alloc\.format!)$/, verbs: /\{[^}]*\}/ }],
    formatMethods: NEVER,
    appendMethods: ["push_str", "push"],
    passThroughMethods: /^(to_string|to_owned|as_str|into|clone|trim|as_ref)$/,
    passThroughFunctions: /^(String\.from|String\.new)$/,
    formatCaptures: /\{[A-Za-z_][\w]*(?::[^}]*)?\}/,
    memberKinds: ["scoped_identifier", "field_expression"],
    literalKinds: ["integer_literal", "float_literal", "boolean_literal", "char_literal"],
  },
  // The shell splices `$x`, `${x}` into double quotes and takes a bare `$x` as a value; `$(cmd)`
  // runs a command of its own (read where it is a command, not as a value spliced in).
  bash: {
    ...FIRST,
    buildsText: /\$/,
    identifierKinds: ["variable_name"],
    stringKinds: ["string", "raw_string", "heredoc_body"],
    constantStringKinds: ["string", "raw_string", "heredoc_body"],
    substitutionKinds: ["simple_expansion", "expansion"],
    contentKinds: ["string_content", "heredoc_content"],
    binaryKinds: [],
    concatOperators: [],
    wrapperKinds: [],
    callKinds: ["command"],
    formatFunctions: [{ callee: /^printf$/, verbs: /%[-+# 0-9.]*[sbq]/ }],
    formatMethods: NEVER,
    safeCalls: NEVER,
    memberKinds: [],
    literalKinds: ["number", "word"],
  },
  scala: {
    ...FIRST,
    appendAssignments: ["+="],
    buildsText: /\+|\$|format|append|mkString/,
    stringKinds: ["string", "interpolated_string_expression"],
    constantStringKinds: ["string", "interpolated_string_expression"],
    substitutionKinds: ["interpolation"],
    contentKinds: [],
    contentFromText: true,
    bodyKinds: ["interpolated_string"],
    // Doobie's and Slick's `sql"..."`/`fr"..."`, Anorm's `SQL"..."`: each `$x` is a bound parameter
    // (Slick's `#$x`, spliced as text, is not bound).
    boundStrings: /(?<![\w$])(?:sql|fr0?|SQL|cql)"(?![^"]*#\$)/,
    binaryKinds: ["infix_expression"],
    wrapperKinds: ["parenthesized_expression", "block"],
    callKinds: ["call_expression", "instance_expression"],
    formatFunctions: JVM_FORMAT,
    formatMethods: /^(format|formatted)$/,
    appendMethods: ["append", "insert"],
    passThroughMethods: /^(toString|trim|strip|stripMargin|mkString)$/,
    passThroughFunctions: /^(StringBuilder|new StringBuilder|String\.valueOf)$/,
    safeCalls: /^(.*\.toInt|.*\.toLong|.*\.toIntOption|.*\.toLongOption|UUID\.fromString|Integer\.parseInt)$/,
    memberKinds: ["field_expression"],
    literalKinds: ["integer_literal", "floating_point_literal", "boolean_literal", "null_literal", "character_literal"],
  },
  swift: {
    ...FIRST,
    appendAssignments: ["+="],
    buildsText: /\+|\\\(|format|append/,
    identifierKinds: ["simple_identifier"],
    stringKinds: ["line_string_literal", "multi_line_string_literal", "raw_string_literal"],
    constantStringKinds: ["line_string_literal", "multi_line_string_literal", "raw_string_literal"],
    substitutionKinds: ["interpolated_expression", "raw_str_interpolation"],
    substitutionPunctuation: ["raw_str_interpolation_start"],
    bareSubstitutionKinds: [],
    contentKinds: ["line_str_text", "multi_line_str_text", "raw_str_part", "raw_str_end_part"],
    binaryKinds: ["additive_expression"],
    wrapperKinds: ["tuple_expression", "value_argument"],
    callKinds: ["call_expression"],
    formatFunctions: [],
    formatMethods: NEVER,
    appendMethods: ["append"],
    passThroughMethods: NEVER,
    passThroughFunctions: /^String$/,
    safeCalls: /^(Int|Int64|UUID)$/,
    memberKinds: ["navigation_expression"],
    literalKinds: ["integer_literal", "real_literal", "boolean_literal", "nil"],
    targetWrappers: ["pattern", "directly_assignable_expression"],
  },
  c: C_STRINGS,
  cpp: {
    ...C_STRINGS,
    buildsText: /\+|printf|strn?cat|strn?cpy|append|<</,
    stringKinds: ["string_literal", "concatenated_string", "raw_string_literal"],
    constantStringKinds: ["string_literal", "raw_string_literal"],
    contentKinds: ["string_content", "raw_string_content"],
    callKinds: ["call_expression", "new_expression"],
    appendMethods: ["append"],
    appendAssignments: ["+="],
    // `q.c_str()` is the text of `q`; `std::string(x)` the text of `x`.
    passThroughMethods: /^(c_str|data|str)$/,
    passThroughFunctions: /^(std\.string|string)$/,
    memberKinds: ["field_expression", "qualified_identifier"],
  },
  dart: {
    ...FIRST,
    appendAssignments: ["+="],
    buildsText: /\+|\$|write/,
    stringKinds: ["string_literal"],
    constantStringKinds: ["string_literal"],
    substitutionKinds: ["template_substitution"],
    contentKinds: [],
    contentFromText: true,
    binaryKinds: ["additive_expression"],
    wrapperKinds: ["parenthesized_expression"],
    // A Dart call is not one node (`a.b(x)` is `a`, `.b`, `(x)`): its value is not read as a call.
    callKinds: [],
    formatFunctions: [],
    formatMethods: NEVER,
    memberKinds: [],
    literalKinds: ["decimal_integer_literal", "decimal_floating_point_literal", "true", "false", "null_literal"],
  },
  elixir: {
    ...FIRST,
    buildsText: /#\{|<>/,
    stringKinds: ["string", "charlist"],
    constantStringKinds: ["string", "charlist"],
    substitutionKinds: ["interpolation"],
    contentKinds: ["quoted_content"],
    binaryKinds: ["binary_operator"],
    concatOperators: ["<>"],
    wrapperKinds: ["block"],
    callKinds: ["call"],
    formatFunctions: [],
    formatMethods: NEVER,
    passThroughFunctions: /^(String\.to_charlist|to_charlist|to_string|String\.trim)$/,
    safeCalls: /^(String\.to_integer|Integer\.parse|Ecto\.UUID\.cast)$/,
    memberKinds: [],
    literalKinds: ["integer", "float", "boolean", "nil", "atom"],
    assignmentOperatorField: true,
  },
  lua: {
    ...FIRST,
    buildsText: /\.\.|format|concat/,
    stringKinds: ["string"],
    constantStringKinds: ["string"],
    substitutionKinds: [],
    contentKinds: ["string_content"],
    binaryKinds: ["binary_expression"],
    concatOperators: [".."],
    wrapperKinds: ["parenthesized_expression"],
    callKinds: ["function_call"],
    formatFunctions: [{ callee: /^string\.format$/, verbs: /%[-+ #0-9.]*[sq]/ }],
    formatMethods: /^format$/,
    passThroughFunctions: /^tostring$/,
    safeCalls: /^(tonumber|math\.floor|ngx\.quote_sql_str|\w+\.escape|\w+:escape)$/,
    memberKinds: ["dot_index_expression"],
    literalKinds: ["number", "true", "false", "nil"],
  },
};
