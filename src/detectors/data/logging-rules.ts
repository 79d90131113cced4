import type { SyntaxLanguage } from "../code/grammars.js";

/**
 * What writes a log record in each language, as data: the DATA-01 detector (pii-logging.ts) asks
 * this table which calls log, and never branches on a language's name. A call logs when its whole
 * callee (member access written with dots, as `callSites` gives it) is a reporter or a printer,
 * or when its method is a logging method and a segment of its receiver names a logger.
 *
 * @example isLoggingCallee(LOGGING_RULES.csharp, { callee: "_logger.LogInformation", method: "LogInformation", receiver: "_logger" }, false) // true
 */

/** One language's logging calls. */
export interface LoggingRules {
  /** Methods that write a record, or attach fields to the records a logger writes. */
  methods: RegExp;
  /** A receiver segment that names a logger: `logger`, `this.logger`, `_logger`, `Rails.logger`, `Log`. */
  loggers: RegExp;
  /** Whole callees that log or report whatever their receiver: `Sentry.captureException`, `error_log`, `info!`. */
  reporters: RegExp;
  /** Whole callees that print to the program's output: not read in scripts and tools, which print to a terminal. */
  printers?: RegExp;
  /** Holds every callee the rules above accept (and more): a cheap filter before reading a call. */
  callees: RegExp;
  /**
   * Whether the one-line pre-check may read this language's argument lists: it knows how its
   * strings and calls are written (JavaScript, Python, Go). Other languages are parsed whenever a
   * logging word and a data word appear in the file.
   */
  oneLinePrecheck: boolean;
  /**
   * Where a printing command's output goes, for a language whose printers write wherever they are
   * sent (the shell): output captured by a node of `capturedBy` (`$(...)`), piped into a command
   * that `pipedTo` does not name (`echo "$PW" | docker login --password-stdin`), or redirected by
   * a `redirected` node to a file `logTarget` does not name (`> key.pem`) is not a log record.
   */
  output?: {
    capturedBy: readonly string[];
    pipeline: string;
    pipedTo: RegExp;
    redirected: string;
    redirect: string;
    logTarget: RegExp;
  };
}

/** A whole-name alternation, anchored. */
function anyOf(...sources: readonly string[]): RegExp {
  return new RegExp(`^(?:${sources.join("|")})$`);
}

/** A space-separated list as regular-expression alternatives. */
function alternatives(list: string): string {
  return list
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .join("|");
}

const SHARED_METHODS = alternatives(`log info warn warning error debug trace fatal critical exception verbose silly
  notice msg dir Print Printf Println Info Infof Infow Infoln Warn Warnf Warnw Warning Warningf Error Errorf Errorw
  Debug Debugf Debugw Fatal Fatalf Fatalw Panic Panicf Panicw Log LogAttrs InfoContext WarnContext ErrorContext
  DebugContext With WithField WithFields bind new child`);

const SHARED_LOGGERS = String.raw`[\w$]*[lL]ogger|log|LOG|Log|logging|[\w$]*Log|logrus|zap|slog|structlog|console|sugar|zerolog|glog|klog`;
/** Constants the newer languages name their loggers with: `LOGGER`, `AUDIT_LOG`, `_log`. */
const CONSTANT_LOGGERS = "[A-Z_]*LOGGER|[A-Z_]*_LOG|_log";

const SHARED_REPORTERS = [
  String.raw`Sentry\.(?:captureMessage|captureException|captureEvent|setUser|setContext|setExtra|setExtras|setTag|setTags|addBreadcrumb)`,
  String.raw`sentry_sdk\.(?:capture_message|capture_exception|set_user|set_context|set_extra|set_tag)`,
  "captureMessage|captureException|capture_message|capture_exception|set_user",
  String.raw`scope\.(?:setExtra|setExtras|setUser|setContext|setTag|set_user|set_extra|set_context|set_tag)`,
  String.raw`sentry\.(?:CaptureMessage|CaptureException)`,
  String.raw`fmt\.(?:Print|Println|Printf|Fprint|Fprintf|Fprintln)`,
];

/** JavaScript, TypeScript, Python and Go share one set: their loggers look alike. */
const FIRST: LoggingRules = {
  methods: anyOf(SHARED_METHODS),
  loggers: anyOf(SHARED_LOGGERS),
  reporters: anyOf(...SHARED_REPORTERS),
  callees: /[lL]og|LOG|console|print|Print|[sS]entry|capture|scope|fmt|zap|sugar|set_user/,
  oneLinePrecheck: true,
};

/** SLF4J, Log4j, java.util.logging (`severe`, `fine`), fluent `atInfo().addKeyValue(...)`, Android's `Log.d`. */
const JVM_METHODS = alternatives("severe fine finer finest config addKeyValue addArgument setMessage");
const JVM_REPORTERS = [
  String.raw`Log\.(?:d|i|w|e|v|wtf)`,
  String.raw`Sentry\.(?:captureMessage|captureException|setUser)`,
];
const JVM_PRINTERS = String.raw`System\.(?:out|err)\.(?:println|print|printf|format)`;
const JVM_CALLEES = /[lL]og|LOG|print|[sS]entry|System/;

/** Never matches: a language that names no loggers by method. */
const NONE = /(?!)/;

/** C's `syslog` and `fprintf(stderr, ...)`, and its printers. */
const C_REPORTERS = "syslog|vsyslog|openlog|g_log|g_message|g_warning|g_debug|g_info";
const C_LOGGING: LoggingRules = {
  methods: anyOf(SHARED_METHODS),
  loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
  reporters: anyOf(C_REPORTERS),
  printers: anyOf("printf|fprintf|dprintf|puts|fputs|perror|vprintf|vfprintf"),
  callees: /[lL]og|LOG|print|puts|syslog|g_message|g_warning|g_debug|g_info|perror/,
  oneLinePrecheck: false,
};

/** Every language's rules. */
export const LOGGING_RULES: Readonly<Record<SyntaxLanguage, LoggingRules>> = {
  javascript: FIRST,
  typescript: FIRST,
  tsx: FIRST,
  python: { ...FIRST, printers: /^print$/ },
  go: FIRST,
  java: {
    methods: anyOf(SHARED_METHODS, JVM_METHODS),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf(...JVM_REPORTERS),
    printers: anyOf(JVM_PRINTERS),
    callees: JVM_CALLEES,
    oneLinePrecheck: false,
  },
  kotlin: {
    // mu-logging and kotlin-logging write `logger.info { "..." }`: the lambda is the argument.
    methods: anyOf(SHARED_METHODS, JVM_METHODS),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf(...JVM_REPORTERS),
    printers: anyOf(JVM_PRINTERS, "println|print"),
    callees: JVM_CALLEES,
    oneLinePrecheck: false,
  },
  csharp: {
    // Microsoft.Extensions.Logging, Serilog, NLog, log4net.
    methods: anyOf(
      SHARED_METHODS,
      alternatives(`LogInformation LogWarning LogError LogDebug LogTrace LogCritical BeginScope Information Verbose
        ForContext Write InfoFormat DebugFormat WarnFormat ErrorFormat FatalFormat`),
    ),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf(
      String.raw`(?:Debug|Trace)\.(?:WriteLine|Write|Print|TraceInformation|TraceWarning|TraceError)`,
      String.raw`SentrySdk\.(?:CaptureMessage|CaptureException|ConfigureScope)`,
    ),
    printers: anyOf(String.raw`Console(?:\.Error|\.Out)?\.(?:WriteLine|Write)`),
    callees: /[lL]og|LOG|Console|Debug|Trace|Sentry/,
    oneLinePrecheck: false,
  },
  php: {
    // PSR-3 (Monolog), Laravel's `Log::info`, `logger()` and `info()` helpers.
    methods: anyOf(SHARED_METHODS, "emergency|alert"),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf("error_log|syslog|logger|info|trigger_error", String.raw`\\?Sentry\\captureMessage`),
    printers: anyOf("var_dump|print_r|var_export|printf|dump|dd"),
    callees: /[lL]og|LOG|info|print|dump|\bdd\b|syslog|error|Sentry/,
    oneLinePrecheck: false,
  },
  ruby: {
    methods: anyOf(SHARED_METHODS, "unknown|add|tagged"),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf(
      "warn",
      String.raw`Sentry\.(?:capture_message|capture_exception|set_user|set_context|set_extras|set_tags)`,
      String.raw`(?:Bugsnag|Honeybadger|Airbrake)\.notify`,
      String.raw`Rollbar\.(?:error|warning|info|debug|log)`,
    ),
    printers: anyOf(String.raw`puts|p|pp|print|printf|(?:\$stdout|\$stderr|STDOUT|STDERR)\.(?:puts|print|write)`),
    callees: /[lL]og|LOG|\bwarn\b|Sentry|Bugsnag|Honeybadger|Airbrake|Rollbar|puts|\bpp?\b|print|std|STD/,
    oneLinePrecheck: false,
  },
  rust: {
    // The `log` and `tracing` macros (fields included: `info!(email = %user.email)`), spans, printers.
    methods: anyOf(SHARED_METHODS),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf(
      String.raw`(?:(?:log|tracing)\.)?(?:info|warn|error|debug|trace|event|(?:info|warn|error|debug|trace)_span|span)!`,
      String.raw`sentry\.(?:capture_message|capture_error)`,
    ),
    printers: anyOf(String.raw`(?:std\.)?(?:println|eprintln|print|eprint|dbg)!`),
    callees: /[lL]og|info|warn|error|debug|trace|event|span|print|dbg|sentry/,
    oneLinePrecheck: false,
  },
  // A script's output is a CI or deploy log: `echo`, `printf` and `logger` write a record wherever
  // they are (scripts/ included), to a log file or to the job's output.
  bash: {
    methods: NONE,
    loggers: NONE,
    reporters: anyOf("echo|printf|logger|systemd-cat"),
    callees: /echo|printf|logger|systemd-cat/,
    oneLinePrecheck: false,
    output: {
      capturedBy: ["command_substitution", "process_substitution"],
      pipeline: "pipeline",
      pipedTo: /^(logger|tee|systemd-cat)$/,
      redirected: "redirected_statement",
      redirect: "file_redirect",
      // A log file or folder, standard output or error, the terminal.
      logTarget: /\.log\b|\/log\/|\blogs?\b|\/dev\/(stdout|stderr|tty)|^[<>&|]*\s*&?[12]$|GITHUB_STEP_SUMMARY/i,
    },
  },
  // SLF4J, log4s, scala-logging (`logger.info(s"...")`), Play's `Logger("x").info`, `println`.
  scala: {
    methods: anyOf(SHARED_METHODS, JVM_METHODS),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf(...JVM_REPORTERS),
    printers: anyOf(JVM_PRINTERS, "println|print|printf|Console\\.println"),
    callees: /[lL]og|LOG|print|[sS]entry|System|Console/,
    oneLinePrecheck: false,
  },
  // Apple's unified logging (`Logger`, `os_log`), `NSLog`, `print`, swift-log's `logger.info`.
  swift: {
    methods: anyOf(SHARED_METHODS, "notice|fault|critical|log"),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf("os_log|NSLog|NSLogv", String.raw`SentrySDK\.(?:capture|setUser)`),
    printers: anyOf("print|debugPrint|dump"),
    callees: /[lL]og|print|dump|Sentry/,
    oneLinePrecheck: false,
  },
  c: C_LOGGING,
  cpp: {
    ...C_LOGGING,
    // spdlog (`spdlog::info`, `logger->warn`), Qt's `qDebug`/`qWarning` calls.
    reporters: anyOf(
      C_REPORTERS,
      String.raw`spdlog\.(?:trace|debug|info|warn|error|critical)`,
      "qDebug|qInfo|qWarning|qCritical",
    ),
    callees: /[lL]og|LOG|print|puts|syslog|spdlog|qDebug|qInfo|qWarning|qCritical/,
  },
  // `print`, Flutter's `debugPrint`, dart:developer's `log`, package:logger (`logger.i`), package:logging.
  dart: {
    methods: anyOf(SHARED_METHODS, JVM_METHODS, "i|d|w|e|v|t|f|wtf|shout"),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf("log", String.raw`developer\.log`, String.raw`Sentry\.(?:captureMessage|captureException)`),
    printers: anyOf("print|debugPrint|stdout\\.writeln|stderr\\.writeln"),
    callees: /[lL]og|LOG|print|Print|std|Sentry/,
    oneLinePrecheck: false,
  },
  // Elixir's `Logger` macros, `IO.puts`/`IO.inspect`.
  elixir: {
    methods: NONE,
    loggers: NONE,
    reporters: anyOf(
      String.raw`Logger\.(?:debug|info|notice|warning|warn|error|critical|alert|emergency|log|metadata)`,
      String.raw`Sentry\.(?:capture_message|capture_exception)`,
    ),
    printers: anyOf(String.raw`IO\.(?:puts|inspect|write)`),
    callees: /Logger|IO|Sentry/,
    oneLinePrecheck: false,
  },
  // `print`, OpenResty's `ngx.log`, a logger's `log:info(...)`.
  lua: {
    methods: anyOf(SHARED_METHODS),
    loggers: anyOf(SHARED_LOGGERS, CONSTANT_LOGGERS),
    reporters: anyOf(String.raw`ngx\.log`),
    printers: anyOf(String.raw`print|io\.write|io\.stderr\.write`),
    callees: /[lL]og|print|write/,
    oneLinePrecheck: false,
  },
};

/** A call as the rules read it. */
export interface LoggingCallee {
  callee: string;
  method: string;
  receiver?: string;
}

/** The receiver without call arguments: `log.WithFields(logrus.Fields{...})` reads `log.WithFields`. */
function bareReceiver(receiver: string): string {
  let out = receiver;
  for (let guard = 0; guard < 10 && /\([^()]*\)/.test(out); guard++) out = out.replace(/\([^()]*\)/g, "");
  return out;
}

/**
 * Whether a call writes a log record (or prints, unless `printsToTerminal`: a script's output).
 *
 * @example isLoggingCallee(LOGGING_RULES.rust, { callee: "tracing.info!", method: "info!", receiver: "tracing" }, false) // true
 */
export function isLoggingCallee(rules: LoggingRules, call: LoggingCallee, printsToTerminal: boolean): boolean {
  if (rules.reporters.test(call.callee)) return true;
  if (!printsToTerminal && rules.printers?.test(call.callee)) return true;
  if (call.receiver === undefined || !rules.methods.test(call.method)) return false;
  return bareReceiver(call.receiver)
    .split(".")
    .some((s) => rules.loggers.test(s.replace(/^\\+/, "")));
}
