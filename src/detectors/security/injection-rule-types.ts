import type { CallRule } from "./call-rule.js";

/** The shapes of the SQL and shell sink tables (`injection-rules.ts`): what a sink is, per language. */

/**
 * How a sink's arguments carry the text.
 * - `text`: the arguments at `args` are SQL or a whole shell command line.
 * - `argv`: the arguments (or one array argument) are a program and its arguments; only a shell
 *   given `-c` (or `/c`, `-Command`) and a script is a command line, the script.
 * - `text-or-array`: an array first argument is `argv`; anything else is `text` (PHP `proc_open`, Java `exec`).
 * - `text-or-argv`: one argument is `text`; several, or an array, are `argv` (Ruby `system`).
 * - `program-argline`: a shell program first, then one argument line that starts with its `-c` flag
 *   (C# `Process.Start("cmd.exe", "/c " + x)`).
 * - `receiver-argv`: the receiver (or the callee itself) names a shell and the arguments (or one
 *   array argument) hold the flag and the script (Rust `Command::new("sh").args(["-c", x])`, the
 *   shell's own `sh -c "$x"`).
 * - `program-argv`: a program first, then one array of its arguments (Dart
 *   `Process.run('sh', ['-c', x])`, Elixir `System.cmd("sh", ["-c", x])`).
 */
export type SinkShape =
  | "text"
  | "argv"
  | "text-or-array"
  | "text-or-argv"
  | "program-argline"
  | "receiver-argv"
  | "program-argv";

/** One call that runs SQL, a shell command or code (`eval`). */
export interface SinkRule extends CallRule {
  kind: "sql" | "shell" | "code";
  /** How the arguments carry the text (default `text`). */
  shape?: SinkShape;
  /** The positional arguments that may carry the text, for `text` (default the first). */
  args?: readonly number[];
  /** For `argv`, where the program's argument list starts (Go's `CommandContext` takes a context first). */
  argvFrom?: number;
  /** Only when the call asks for a shell: Python `shell=True`, JavaScript `{ shell: true }`. */
  when?: "shell-keyword" | "shell-option";
  /** A SQL fragment (an ORM's `where("...")`): built text is enough, no SQL statement shape needed. */
  fragment?: boolean;
  /**
   * `value`: the fragment counts only where a non-constant value is spliced in a value's place, in
   * the call's own argument (or the local it names): inside a quoted SQL string (`'%${q}%'`) or
   * right after a comparison (`= ${id}`, `> " + n`). A column or alias spliced in as a name
   * (`${alias}.name = :name`) is not, nor a constant column name alone (knex's `where("col", v)`).
   */
  splice?: "value";
  /** A request value passed straight in is injection too (Rails `order(params[:sort])`). */
  rawRequest?: boolean;
  /**
   * The argument that holds the environment of the process it starts (Java's `exec(cmd, envp)`):
   * request data there sets the child's variables (`BASH_ENV`, `LD_PRELOAD`, what its script expands).
   */
  environment?: number;
  /** A receiver that is a local declared with this type is the sink's too (`Runtime r = ...; r.exec(x)`). */
  receiverType?: RegExp;
}

/** A property whose assigned text is SQL or a shell argument line (C# `cmd.CommandText = ...`). */
export interface PropertySink {
  kind: "sql" | "shell";
  property: RegExp;
  /** A word the file's text holds wherever the property is set (a cheap pre-check before the assignments are read). */
  word: RegExp;
  /**
   * `argline`: an argument line that must start with a shell's `-c` flag to be a command;
   * `flag-array`: an array whose first element is that flag and whose second is the script
   * (Swift's `process.arguments = ["-c", cmd]`).
   */
  shape: "text" | "argline" | "flag-array";
}

/** One language's sinks. */
export interface InjectionRules {
  sinks: readonly SinkRule[];
  /** Node kinds that run their own text in a shell, substitutions included (Ruby `` `ls #{d}` ``, PHP backticks). */
  shellTextKinds: readonly string[];
  /** What a file's text holds wherever it has such a node (a backtick, `%x`): without it, the tree is not searched. */
  shellTextToken?: RegExp;
  propertySinks: readonly PropertySink[];
  /** Array literal kinds, and calls that build a list, whose elements are a program's arguments. */
  arrayKinds: readonly string[];
  listCalls: RegExp;
  /** Text a file must hold for a request value to reach a `rawRequest` sink (a cheap pre-check). */
  rawRequestText?: RegExp;
}

/** Programs that run their argument as a command line. */
export const SHELLS = /^(\/(usr\/)?bin\/)?(sh|bash|zsh|dash|ash|ksh|cmd(\.exe)?|powershell(\.exe)?|pwsh)$/;
/** The flag that makes a shell run the next argument as a command line. */
export const SHELL_FLAG = /^(-c|\/c|\/C|-Command)$/;
/** An argument line that begins with a shell's command flag (`"/c " + x`, `$"-c \"{x}\""`). */
export const SHELL_FLAG_LINE = /^\s*(-c|\/c|\/C|-Command)(\s|$)/;
