import type { Detector } from "../detector.js";
import { interpolates, readsRequestData } from "./interpolation.js";
import { lineRuleDetector, type LineRule } from "./line-rules.js";

const SQL_SHAPE =
  /\b(select\b.*\bfrom|insert\s+into|update\s+[\w."`]+\s+set|delete\s+from|where\s+\w+\s*(=|like|in\b|<|>)|order\s+by|values\s*\()/i;
const SQL_SINK =
  /\b(execute|executemany|executescript|query|raw|unsafe|\$queryRawUnsafe|\$executeRawUnsafe|queryRawUnsafe|executeRawUnsafe|exec_driver_sql|prepare|sequelize\.query|knex\.raw)\s*\(/;
const JS_SHELL = /(?:(?<![\w.$])|\b(?:child_process|childProcess|cp)\.)(exec|execSync)\s*\(/;
const JS_SPAWN_SHELL = /\b(spawn|spawnSync|execFile|execFileSync)\s*\(.*\bshell\s*:\s*true/;
const PY_SHELL = /\bos\.(system|popen)\s*\(|\bsubprocess\.\w+\s*\(.*\bshell\s*=\s*True|\bcommands\.getoutput\s*\(/;
const LITERAL_ONLY_CALL = /^\s*(["'])[^"'`]*\1\s*\)/;
const TEMPLATE_SINK =
  /\b(render_template_string|jinja2\.Template|Environment\(\)\.from_string|from_string|Handlebars\.compile|ejs\.render|pug\.render|nunjucks\.renderString|_\.template)\s*\(/;

/** The argument text after the first match of `call` on the line. */
function after(line: string, call: RegExp): string {
  const m = call.exec(line);
  return m ? line.slice(m.index + m[0].length) : "";
}

const RULES: readonly LineRule[] = [
  {
    id: "sql-interpolation",
    test: (line, lang) =>
      SQL_SHAPE.test(line) && interpolates(line, lang) && (readsRequestData(line) || SQL_SINK.test(line)),
    message:
      "SQL text built by interpolating or concatenating values (request data reaches the query): " +
      "use a parameterised query (placeholders such as ? or $1 with a values array).",
  },
  {
    id: "shell-interpolation",
    test: (line, lang) =>
      (lang !== "python" && (JS_SHELL.test(line) || JS_SPAWN_SHELL.test(line)) && interpolates(line, lang)) ||
      (lang !== "js" && PY_SHELL.test(line) && interpolates(line, lang)),
    message:
      "A shell command built by interpolation (exec/execSync, os.system or subprocess with shell=True): " +
      "pass arguments as an array (execFile/spawn without a shell, subprocess.run([...])) instead.",
  },
  {
    id: "eval",
    test: (line, lang) => {
      const evalCall = lang === "python" ? /(?<![\w.])(eval|exec)\s*\(/ : /(?<![\w.$])eval\s*\(/;
      if (evalCall.test(line) && !LITERAL_ONLY_CALL.test(after(line, evalCall))) return true;
      const fn = /\bnew\s+Function\s*\(/;
      if (lang !== "python" && fn.test(line)) {
        const args = after(line, fn);
        return !/^(\s*(["'])[^"'`]*\2\s*,?)*\s*\)/.test(args);
      }
      const vm = /\bvm\.(runInNewContext|runInThisContext|runInContext)\s*\(/;
      return lang !== "python" && vm.test(line) && !LITERAL_ONLY_CALL.test(after(line, vm));
    },
    message:
      "Code evaluated from a non-literal string (eval / new Function / vm.run*): if any part can come " +
      "from a user, this is code injection; parse the data instead of executing it.",
  },
  {
    id: "template-injection",
    test: (line, lang) => TEMPLATE_SINK.test(line) && (readsRequestData(line) || interpolates(line, lang)),
    message:
      "A template compiled from request data or an interpolated string (server-side template injection): " +
      "keep templates constant and pass user data as template variables.",
  },
];

/**
 * SEC-02: SQL, shell or template text built from interpolated (request) data, and eval-like calls
 * on non-literals, in added lines. Severity high, blocking. Parameterised queries are not flagged.
 *
 * @example await injectionDetector.detect(ctx) // [{ policy: "SEC-02", line: 14, ... }]
 */
export const injectionDetector: Detector = lineRuleDetector({
  id: "injection",
  policy: "SEC-02",
  severity: "high",
  blocking: true,
  rules: RULES,
});
