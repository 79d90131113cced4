import type { SyntaxLanguage } from "../code/grammars.js";
import { CSHARP, KOTLIN, PHP, RUBY, RUST } from "./flow-syntax-more.js";

/**
 * What the data-flow reader (`flow-reader.ts`) needs to know of one grammar, as data: which node
 * kinds are functions, statements and expressions of each shape, and the language's sources,
 * sanitizers and collection calls. The reader never branches on a language's name.
 */
export interface FlowSyntax {
  /** Function and method declarations: their `parameters` and `body` fields. */
  functionKinds: readonly string[];
  /** Wrappers of a definition (Python's decorated functions): skipped where met, their functions run on their own. */
  definitionKinds: readonly string[];
  /** Type declarations whose fields are read (`body` field). */
  classKinds: readonly string[];
  /** Field declarations, their declarators as a local's; a field is constant when final (or ALL_CAPS). */
  fieldKinds: readonly string[];
  /** A field's modifiers that make it constant once initialised. */
  finalModifier: RegExp;
  /** One parameter, its name in `name` (or its last identifier). */
  parameterKinds: readonly string[];
  /** Statement lists. */
  blockKinds: readonly string[];
  /** Import statements: the names they bind are modules and types, not data. */
  importKinds: readonly string[];
  /** Names of the object a method runs on (`this`, `self`): its fields are the file's. */
  selfNames: RegExp;
  /** A declaration of locals: its declarators (kinds below), or `name`/`value` itself. */
  declarationKinds: readonly string[];
  declaratorKinds: readonly string[];
  /** `left = right`, `left += right`. */
  assignmentKinds: readonly string[];
  /** `condition`, `consequence`, `alternative` (or `elif`/`else` clauses). */
  ifKinds: readonly string[];
  elifKinds: readonly string[];
  elseKinds: readonly string[];
  ternaryKinds: readonly string[];
  /** A switch on a value (`condition`, `body`) and its case groups with their labels. */
  switchKinds: readonly string[];
  caseGroupKinds: readonly string[];
  caseLabelKinds: readonly string[];
  /** A case group that is the default one by its kind (JavaScript's `switch_default`). */
  defaultCaseKinds: readonly string[];
  breakKinds: readonly string[];
  /** Whether a case runs on into the next one until a break (Java, C), or ends where it ends (Python's match). */
  fallsThrough: boolean;
  /** Loops whose body may run any number of times. */
  loopKinds: readonly string[];
  /** `try` with its body, catch clauses and finally. */
  tryKinds: readonly string[];
  catchKinds: readonly string[];
  finallyKinds: readonly string[];
  returnKinds: readonly string[];
  throwKinds: readonly string[];
  /** Calls: a member or plain call (`object`, `name`, `arguments`) and a constructor call (`type`, `arguments`). */
  callKinds: readonly string[];
  constructorKinds: readonly string[];
  stringKinds: readonly string[];
  charKinds: readonly string[];
  numberKinds: readonly string[];
  booleanKinds: readonly string[];
  nullKinds: readonly string[];
  identifierKinds: readonly string[];
  /** `object.field`. */
  fieldAccessKinds: readonly string[];
  /** `array[index]`. */
  indexKinds: readonly string[];
  /** Array literals and array creations (their elements, through an initializer). */
  arrayKinds: readonly string[];
  /** Array creations without elements (`new String[3]`). */
  arrayCreationKinds: readonly string[];
  /** Literals of a type with a body of elements (Go's `[]string{...}`, `map[string]string{...}`). */
  compositeKinds: readonly string[];
  /** Map literals: their `pair`s' keys and values. */
  mapKinds: readonly string[];
  /** String kinds' parts: literal text, and substitutions of a value (`{x}` of an f-string). */
  stringContentKinds: readonly string[];
  interpolationKinds: readonly string[];
  binaryKinds: readonly string[];
  unaryKinds: readonly string[];
  /** Wrappers of one expression: parentheses, casts. */
  wrapperKinds: readonly string[];
  /** A cast's value field. */
  castKinds: readonly string[];
  /** Calls that read a request (method names, any receiver). */
  sourceMethods: RegExp;
  /** Callees, as written, that read a request (`request.args.get`). */
  sourceCallees?: RegExp;
  /** Names that are the request itself wherever they are not assigned (Flask's imported `request`). */
  sourceNames?: RegExp;
  /** Parameters annotated as request data (`@RequestParam`). */
  sourceParameter?: RegExp;
  /** Calls that format a text with escaped values (`mysql.format(sql, values)`): the result is the text's. */
  escapingFormats?: RegExp;
  /** Calls whose result cannot carry text syntax (numeric conversions, escapers): constant. */
  sanitizers: RegExp;
  /** Methods whose result is a number or boolean, whatever the receiver (`length`, `equals`). */
  scalarMethods: RegExp;
  /** Methods of a list: append, insert at, remove at. */
  listAdd: RegExp;
  listInsert: RegExp;
  listRemoveAt: RegExp;
  /**
   * printf-style calls (`fmt.Sprintf`): a value spliced by a numeric verb (`%d`, `%f`) carries no
   * text; one spliced by `%s`/`%v`/`%q` carries what it holds.
   */
  printfCalls?: RegExp;
  /** A built-in that returns a list with more elements (Go's `append`). */
  appendFunction?: RegExp;
  /** Declared types of a local that is a text builder (`StringBuilder sb`, `var sb strings.Builder`). */
  builderTypes: RegExp;
  /** Constructors (or calls) of an empty list, map or text builder. */
  newList: RegExp;
  newMap: RegExp;
  newBuilder: RegExp;
  /** Calls that make a list of their arguments (`Arrays.asList`, `List.of`). */
  listOf: RegExp;
  /** Methods that pass the receiver's text on (`toString`, `trim`), and those that append. */
  appendMethods: RegExp;
  /** Wrappers of one call argument (C#'s and PHP's `argument`): the argument is their one named child. */
  argumentWrappers?: readonly string[];
  /** Expressions written straight into a string, without a wrapper (PHP's `"a $x {$y->z}"`). */
  embeddedKinds?: readonly string[];
  /** A function's last expression is what it returns (Ruby, Rust). */
  implicitReturn?: boolean;
  /** Binary operators that append the right side to the left local (Ruby's `q << x`). */
  appendOperators?: RegExp;
  /** Values that make a local a text builder whatever its declared type (`var sb = new StringBuilder()`). */
  builderValues?: RegExp;
  /** A declarator's value is its last named child, not a `value` field (C#). */
  valueIsLastChild?: boolean;
  /** A heredoc written as a marker where the value is and its body after the line (Ruby's `<<~SQL`). */
  heredoc?: { marker: string; body: string };
  /** Children of a string that hold its parts (PHP's `heredoc_body`). */
  stringBodyKinds?: readonly string[];
  /**
   * Children by field name for a grammar that names few fields (Kotlin), by node kind: a path of
   * steps, each `kind` (the first child of that kind), `kind#n`, `*#n` or `*#-1` (the last child).
   */
  childFields?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** Blocks that, met as a value (a `when` branch, a `match` arm), give their last expression. */
  valueBlockKinds?: readonly string[];
  /** Lambdas passed after a call's arguments (Kotlin's `buildString { append(x) }`): what they name flows into the result. */
  trailingLambdaKinds?: readonly string[];
  /** Modifier node kinds of a field declaration (C#'s `modifier`), read for `finalModifier`. */
  modifierKinds?: readonly string[];
}

const JAVA: FlowSyntax = {
  functionKinds: ["method_declaration", "constructor_declaration"],
  definitionKinds: [],
  classKinds: ["class_declaration", "enum_declaration", "record_declaration"],
  fieldKinds: ["field_declaration"],
  finalModifier: /\bfinal\b/,
  parameterKinds: ["formal_parameter", "spread_parameter"],
  blockKinds: ["block", "constructor_body"],
  importKinds: ["import_declaration", "package_declaration"],
  selfNames: /^(this|super)$/,
  declarationKinds: ["local_variable_declaration"],
  declaratorKinds: ["variable_declarator"],
  assignmentKinds: ["assignment_expression"],
  ifKinds: ["if_statement"],
  elifKinds: [],
  elseKinds: [],
  ternaryKinds: ["ternary_expression"],
  switchKinds: ["switch_expression", "switch_statement"],
  caseGroupKinds: ["switch_block_statement_group", "switch_rule"],
  caseLabelKinds: ["switch_label"],
  defaultCaseKinds: [],
  breakKinds: ["break_statement"],
  fallsThrough: true,
  loopKinds: ["for_statement", "enhanced_for_statement", "while_statement", "do_statement"],
  tryKinds: ["try_statement", "try_with_resources_statement"],
  catchKinds: ["catch_clause"],
  finallyKinds: ["finally_clause"],
  returnKinds: ["return_statement"],
  throwKinds: ["throw_statement"],
  callKinds: ["method_invocation"],
  constructorKinds: ["object_creation_expression"],
  stringKinds: ["string_literal"],
  charKinds: ["character_literal"],
  numberKinds: [
    "decimal_integer_literal",
    "hex_integer_literal",
    "octal_integer_literal",
    "binary_integer_literal",
    "decimal_floating_point_literal",
  ],
  booleanKinds: ["true", "false"],
  nullKinds: ["null_literal"],
  identifierKinds: ["identifier"],
  fieldAccessKinds: ["field_access"],
  indexKinds: ["array_access"],
  arrayKinds: ["array_creation_expression", "array_initializer"],
  arrayCreationKinds: ["array_creation_expression"],
  compositeKinds: [],
  mapKinds: [],
  stringContentKinds: ["string_fragment", "escape_sequence", "multiline_string_fragment"],
  interpolationKinds: ["string_interpolation"],
  binaryKinds: ["binary_expression"],
  unaryKinds: ["unary_expression"],
  wrapperKinds: ["parenthesized_expression"],
  castKinds: ["cast_expression"],
  sourceMethods:
    /^(getParameter|getParameterValues|getParameterMap|getParameterNames|getHeader|getHeaders|getHeaderNames|getCookies|getQueryString|getInputStream|getReader|getPathInfo|getRequestURI|getRequestURL|getPart|getParts|getRemoteUser)$/,
  sourceParameter:
    /@(RequestParam|PathVariable|RequestBody|RequestHeader|CookieValue|ModelAttribute|QueryParam|PathParam|FormParam|HeaderParam)\b/,
  sanitizers:
    /^(Integer\.(parseInt|valueOf)|Long\.(parseLong|valueOf)|Short\.parseShort|Double\.(parseDouble|valueOf)|Float\.parseFloat|Boolean\.(parseBoolean|valueOf)|UUID\.fromString|.*\.encodeForSQL|.*\.encodeForOS)$/,
  scalarMethods:
    /^(length|size|hashCode|equals|equalsIgnoreCase|isEmpty|contains|startsWith|endsWith|indexOf|lastIndexOf|compareTo|matches|getClass)$/,
  listAdd: /^(add|addLast|push|offer)$/,
  listInsert: /^add$/,
  listRemoveAt: /^remove$/,
  newList: /^(java\.util\.)?(ArrayList|LinkedList|Vector|Stack|ArrayDeque)$/,
  newMap: /^(java\.util\.)?(HashMap|LinkedHashMap|TreeMap|Hashtable|Properties|concurrent\.ConcurrentHashMap)$/,
  builderTypes: /\bString(Builder|Buffer)\b/,
  newBuilder: /^(java\.lang\.)?(StringBuilder|StringBuffer|String)$/,
  listOf: /^((java\.util\.)?(Arrays\.asList|List\.of|Set\.of|Collections\.singletonList))$/,
  appendMethods: /^(append|concat|insert)$/,
};

const PYTHON: FlowSyntax = {
  functionKinds: ["function_definition"],
  definitionKinds: ["decorated_definition"],
  classKinds: ["class_definition"],
  fieldKinds: [],
  finalModifier: /(?!)/,
  parameterKinds: ["identifier", "default_parameter", "typed_parameter", "typed_default_parameter"],
  blockKinds: ["block"],
  importKinds: ["import_statement", "import_from_statement", "future_import_statement"],
  selfNames: /^(self|cls)$/,
  declarationKinds: [],
  declaratorKinds: [],
  assignmentKinds: ["assignment", "augmented_assignment"],
  ifKinds: ["if_statement"],
  elifKinds: ["elif_clause"],
  elseKinds: ["else_clause"],
  ternaryKinds: ["conditional_expression"],
  switchKinds: ["match_statement"],
  caseGroupKinds: ["case_clause"],
  caseLabelKinds: ["case_pattern"],
  defaultCaseKinds: [],
  breakKinds: [],
  fallsThrough: false,
  loopKinds: ["for_statement", "while_statement"],
  tryKinds: ["try_statement"],
  catchKinds: ["except_clause", "except_group_clause"],
  finallyKinds: ["finally_clause"],
  returnKinds: ["return_statement"],
  throwKinds: ["raise_statement"],
  callKinds: ["call"],
  constructorKinds: [],
  stringKinds: ["string"],
  charKinds: [],
  numberKinds: ["integer", "float"],
  booleanKinds: ["true", "false"],
  nullKinds: ["none"],
  identifierKinds: ["identifier"],
  fieldAccessKinds: ["attribute"],
  indexKinds: ["subscript"],
  arrayKinds: ["list", "tuple", "expression_list"],
  arrayCreationKinds: [],
  compositeKinds: [],
  mapKinds: ["dictionary"],
  stringContentKinds: ["string_content", "escape_sequence"],
  interpolationKinds: ["interpolation"],
  binaryKinds: ["binary_operator", "boolean_operator", "comparison_operator"],
  unaryKinds: ["not_operator", "unary_operator"],
  wrapperKinds: ["parenthesized_expression"],
  castKinds: [],
  sourceMethods: /^(get_json|get_data|getlist)$/,
  sourceNames: /^request$/,
  sourceCallees: /^request\.(args|form|values|cookies|headers|json|data|files|GET|POST|COOKIES|META|query_params)\b/,
  sanitizers: /^(int|float|bool|len|shlex\.quote|pipes\.quote|uuid\.UUID|UUID|escape_string|.*\.escape_string)$/,
  scalarMethods:
    /^(startswith|endswith|isdigit|isnumeric|isalnum|isalpha|isupper|islower|count|find|rfind|index|__len__|__contains__)$/,
  listAdd: /^append$/,
  listInsert: /^insert$/,
  listRemoveAt: /^pop$/,
  newList: /^(list)$/,
  newMap: /^(dict|collections\.OrderedDict|OrderedDict|collections\.defaultdict|defaultdict)$/,
  builderTypes: /(?!)/,
  newBuilder: /(?!)/,
  listOf: /(?!)/,
  appendMethods: /(?!)/,
};

const JAVASCRIPT: FlowSyntax = {
  functionKinds: [
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "generator_function_declaration",
  ],
  definitionKinds: [],
  classKinds: ["class_declaration"],
  fieldKinds: [],
  finalModifier: /(?!)/,
  parameterKinds: ["identifier", "assignment_pattern", "required_parameter", "optional_parameter"],
  blockKinds: ["statement_block"],
  importKinds: ["import_statement"],
  selfNames: /^this$/,
  declarationKinds: ["lexical_declaration", "variable_declaration"],
  declaratorKinds: ["variable_declarator"],
  assignmentKinds: ["assignment_expression", "augmented_assignment_expression"],
  ifKinds: ["if_statement"],
  elifKinds: [],
  elseKinds: ["else_clause"],
  ternaryKinds: ["ternary_expression"],
  switchKinds: ["switch_statement"],
  caseGroupKinds: ["switch_case", "switch_default"],
  caseLabelKinds: [],
  defaultCaseKinds: ["switch_default"],
  breakKinds: ["break_statement"],
  fallsThrough: true,
  loopKinds: ["for_statement", "for_in_statement", "while_statement", "do_statement"],
  tryKinds: ["try_statement"],
  catchKinds: ["catch_clause"],
  finallyKinds: ["finally_clause"],
  returnKinds: ["return_statement"],
  throwKinds: ["throw_statement"],
  callKinds: ["call_expression"],
  constructorKinds: ["new_expression"],
  stringKinds: ["string", "template_string"],
  charKinds: [],
  numberKinds: ["number"],
  booleanKinds: ["true", "false"],
  nullKinds: ["null", "undefined"],
  identifierKinds: ["identifier"],
  fieldAccessKinds: ["member_expression"],
  indexKinds: ["subscript_expression"],
  arrayKinds: ["array"],
  arrayCreationKinds: [],
  compositeKinds: [],
  mapKinds: ["object"],
  stringContentKinds: ["string_fragment", "escape_sequence"],
  interpolationKinds: ["template_substitution"],
  binaryKinds: ["binary_expression"],
  unaryKinds: ["unary_expression"],
  wrapperKinds: [
    "parenthesized_expression",
    "await_expression",
    "as_expression",
    "non_null_expression",
    "satisfies_expression",
  ],
  castKinds: [],
  sourceMethods: /(?!)/,
  sanitizers:
    /^(parseInt|parseFloat|Number|Boolean|Number\.parseInt|Number\.parseFloat|Math\.\w+|\w+\.escape|\w+\.escapeId|\w+\.escapeLiteral|\w+\.escapeIdentifier|escape|sqlstring\.escape|shellescape|shellEscape|quote)$/,
  scalarMethods: /^(includes|startsWith|endsWith|indexOf|lastIndexOf|test|has|localeCompare|isArray|isInteger)$/,
  escapingFormats: /^(mysql2?|SqlString|sqlstring|connection|conn|con|pool|db)\.format$/,
  listAdd: /^push$/,
  listInsert: /(?!)/,
  listRemoveAt: /(?!)/,
  newList: /^Array$/,
  newMap: /^(Map|Object)$/,
  builderTypes: /(?!)/,
  newBuilder: /(?!)/,
  listOf: /^Array\.of$/,
  appendMethods: /(?!)/,
};

const GO: FlowSyntax = {
  functionKinds: ["function_declaration", "method_declaration", "func_literal"],
  definitionKinds: [],
  classKinds: [],
  fieldKinds: [],
  finalModifier: /(?!)/,
  parameterKinds: ["parameter_declaration", "variadic_parameter_declaration"],
  blockKinds: ["block", "statement_list"],
  importKinds: ["import_declaration", "package_clause"],
  selfNames: /(?!)/,
  declarationKinds: ["var_declaration", "const_declaration"],
  declaratorKinds: ["var_spec", "const_spec"],
  assignmentKinds: ["short_var_declaration", "assignment_statement"],
  ifKinds: ["if_statement"],
  elifKinds: [],
  elseKinds: [],
  ternaryKinds: [],
  switchKinds: ["expression_switch_statement"],
  caseGroupKinds: ["expression_case", "default_case"],
  caseLabelKinds: [],
  defaultCaseKinds: ["default_case"],
  breakKinds: ["break_statement"],
  fallsThrough: false,
  loopKinds: ["for_statement"],
  tryKinds: [],
  catchKinds: [],
  finallyKinds: [],
  returnKinds: ["return_statement"],
  throwKinds: [],
  callKinds: ["call_expression"],
  constructorKinds: [],
  stringKinds: ["interpreted_string_literal", "raw_string_literal"],
  charKinds: ["rune_literal"],
  numberKinds: ["int_literal", "float_literal"],
  booleanKinds: ["true", "false"],
  nullKinds: ["nil"],
  identifierKinds: ["identifier"],
  fieldAccessKinds: ["selector_expression"],
  indexKinds: ["index_expression"],
  arrayKinds: ["expression_list"],
  arrayCreationKinds: [],
  compositeKinds: ["composite_literal"],
  mapKinds: [],
  stringContentKinds: ["interpreted_string_literal_content", "raw_string_literal_content", "escape_sequence"],
  interpolationKinds: [],
  binaryKinds: ["binary_expression"],
  unaryKinds: ["unary_expression"],
  wrapperKinds: ["parenthesized_expression"],
  castKinds: [],
  sourceMethods: /^(FormValue|PostFormValue|DefaultQuery|DefaultPostForm|GetHeader|PathValue)$/,
  sanitizers:
    /^(strconv\.(Atoi|ParseInt|ParseUint|ParseFloat|ParseBool|Itoa|FormatInt)|pq\.Quote(Identifier|Literal)|shellescape\.Quote|len)$/,
  scalarMethods: /^(Contains|HasPrefix|HasSuffix|Index|EqualFold|Len)$/,
  appendFunction: /^append$/,
  printfCalls: /^fmt\.(Sprintf|Sprint|Sprintln)$/,
  listAdd: /(?!)/,
  listInsert: /(?!)/,
  listRemoveAt: /(?!)/,
  builderTypes: /\b(strings\.Builder|bytes\.Buffer)\b/,
  newList: /^make$/,
  newMap: /(?!)/,
  newBuilder: /(?!)/,
  listOf: /(?!)/,
  appendMethods: /^(WriteString|WriteByte|WriteRune|Write)$/,
};

/**
 * The grammars the data-flow reader follows; a language without a table keeps the string reader's
 * answer (`built-string.ts`).
 */
export const FLOW_SYNTAX: Partial<Record<SyntaxLanguage, FlowSyntax>> = {
  java: JAVA,
  python: PYTHON,
  javascript: JAVASCRIPT,
  typescript: { ...JAVASCRIPT, classKinds: [...JAVASCRIPT.classKinds, "abstract_class_declaration"] },
  tsx: JAVASCRIPT,
  go: GO,
  kotlin: KOTLIN,
  csharp: CSHARP,
  php: PHP,
  ruby: RUBY,
  rust: RUST,
};
