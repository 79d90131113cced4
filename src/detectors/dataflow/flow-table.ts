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
  /** Attributes, as written, that hold what the program was given from outside (Python's `sys.argv`). */
  sourceAttributes?: RegExp;
  /** Parameters annotated as request data (`@RequestParam`). */
  sourceParameter?: RegExp;
  /** A method's first parameter that is the object it runs on (Python's `self`, `cls`): a call on the object binds its arguments after it. */
  receiverParameter?: RegExp;
  /** A method written to be overridden (Python's `@abstractmethod`): a call on the object runs another body. */
  abstractMethod?: RegExp;
  /** Names that are exported by their spelling (Go's capitalised names): code elsewhere may call them. */
  exportedName?: RegExp;
  /** Calls that format a text with escaped values (`mysql.format(sql, values)`): the result is the text's. */
  escapingFormats?: RegExp;
  /** Of those, a call whose text can ask for a value as it is (pg-promise's `$1:raw`, `$1^`): then the values are spliced. */
  rawFilterFormat?: { callee: RegExp; filters: RegExp };
  /** Calls whose result cannot carry text syntax (numeric conversions, escapers): constant. */
  sanitizers: RegExp;
  /**
   * SQL's own escape written out: a method that replaces every match of a global regular
   * expression with a quote character doubled or after a backslash (`s.replace(/'/g, "''")`,
   * `name.replace(/"/g, '""')`), and the methods that replace every match of a plain string too
   * (`replaceAll`). Its result is escaped text, as a `sanitizers` call's is.
   */
  quoteEscapes?: { regexMethods: RegExp; stringMethods: RegExp };
  /**
   * Calls that remove every character outside a closed class, leaving plain text: methods given a
   * pattern and its replacement (`s.replace(/[^0-9]/g, "")`), functions given the pattern, the
   * replacement and the text (`re.sub(r"[^\w]", "", s)`).
   */
  stripped?: { regexMethods?: RegExp; functions?: RegExp };
  /**
   * A list's methods that give a list of what their callback returns for each element
   * (`ids.map(() => "?")`, `names.map((n) => quote(n))`): read as the callback's result, run with
   * the list's element, its index and the list.
   */
  mapMethods?: RegExp;
  /** The same as functions given the list first (lodash's `_.map(list, callback)`). */
  mapFunctions?: RegExp;
  /**
   * Template tags that send their substitutions as bound parameters (`SQL\`... ${id}\``,
   * postgres.js's `sql`, Prisma's `$queryRaw`): the query they make carries no spliced text.
   */
  bindingTags?: RegExp;
  /**
   * Fields are not declared but made by assigning them (`this.table = ...`, JavaScript): a field the
   * file assigns holds what its assignments give (a field read in its own assignment adds nothing),
   * one it never assigns is data from outside.
   */
  fieldsByAssignment?: boolean;
  /** Text that sets fields by name (Python's `setattr(self, ...)`): no field's assignments are known then. */
  dynamicFields?: RegExp;
  /** Nodes whose target may be a field bound to what they iterate or enter (`for self.x in ...`). */
  fieldTargets?: readonly string[];
  /**
   * Names the module's top level binds (Python's module globals; JavaScript's top-level `const`,
   * `let`, `var`): read in a function, each holds what the top level's plain assignments give it.
   * A name bound at the top level any other way (a parent of these kinds: a loop, a pattern, `++`),
   * built on (`+=`), assigned inside a function, or named by a `rebinding` statement (`global x`)
   * stays data from outside, as a name the file does not bind is.
   */
  moduleNames?: {
    otherBindings: readonly string[];
    rebinding?: string;
    /**
     * A top-level value that loads a module by name (CommonJS's `require("../config")`, or a member
     * of it): the name holds a module, never data, as a name an import binds does.
     */
    load?: RegExp;
  };
  /** Methods whose result is a number or boolean, whatever the receiver (`length`, `equals`). */
  scalarMethods: RegExp;
  /**
   * Methods that run SQL on a receiver and give back what the database holds (`db.query(sql)`):
   * data from outside, never the SQL text they were given.
   */
  queryMethods?: RegExp;
  /** Methods of a list: append, insert at, remove at. */
  listAdd: RegExp;
  listInsert: RegExp;
  listRemoveAt: RegExp;
  /**
   * printf-style calls (`fmt.Sprintf`): a value spliced by a numeric verb (`%d`, `%f`) carries no
   * text; one spliced by `%s`/`%v`/`%q` carries what it holds.
   */
  printfCalls?: RegExp;
  /**
   * A module whose `format(text, ...values)` escapes what its `%L` (a literal) and `%I` (a name)
   * take and splices what `%s` takes (pg-format): a bare call of the local name the file's
   * `require` or `import` gives it reads so.
   */
  literalFormatModule?: string;
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
  /**
   * Tests a branch's condition makes of a local (`flow-guards.ts`): where the test holds (inside
   * the branch, or after a branch that returns when it fails) the local holds no syntax.
   */
  /**
   * The request's own path in a view whose routes are fixed: in a function whose decorators name
   * only routes without a variable part, the path is one of those routes, a constant.
   */
  routePath?: {
    /** The request's path as written (Flask's `request.path`). */
    attribute: RegExp;
    /** A decorator naming the view's route; its third group is the route (`@app.route('/a/b')`). */
    decorator: RegExp;
    /** A variable part of a route (`<id>`): a route with one has no fixed path. */
    variable: RegExp;
  };
  guards?: {
    /** Methods true only when their receiver is plain (`s.isdigit()`). */
    validatingMethods?: RegExp;
    /** Methods of a constant collection true when it holds the argument (`ALLOWED.includes(s)`). */
    memberMethods?: RegExp;
    /** The tests that a text starts and ends with a quote, for a quoted-literal check. */
    startsWith?: RegExp;
    endsWith?: RegExp;
    /** Functions true only when their argument is a number (`Number.isInteger(n)`). */
    validatingCalls?: RegExp;
    /** Functions false only when their argument reads as a number (`isNaN(n)`). */
    invalidatingCalls?: RegExp;
    /** A type test (`typeof n === "number"`): its operator and the types that hold no syntax. */
    typeTest?: { operator: RegExp; plain: RegExp };
    /** A pattern's test of a local (`/^\d+$/.test(s)`): the method and the pattern's node kinds. */
    patternTest?: { method: RegExp; kinds: string[] };
    /** A type test by call (`isinstance(n, int)`): the function and the types that hold no syntax. */
    typeCalls?: { callee: RegExp; plain: RegExp };
    /**
     * Functions that match a pattern against a local (`re.fullmatch(r"\d+", s)`), their last name
     * saying how much of the text it must cover: `fullmatch` all, `match` from the start, else as
     * anchored by the pattern itself.
     */
    patternCalls?: RegExp;
    /** Methods true when each item passes the callback (`ids.every(Number.isInteger)`). */
    everyMethods?: RegExp;
  };
}
