/** One line of `gate --help`: how a command (or subcommand) is called, and what it does. */
export interface CommandUsage {
  command: string;
  /** The subcommand word (`gate policies test`), when the line is one. */
  sub?: string;
  synopsis: string;
  what: string;
}

/**
 * Every command and subcommand the CLI runs, as `gate --help` and `gate <command> --help` print
 * them. The dispatcher runs only commands listed here; `test/cli/help.test.ts` holds every flag
 * the parser accepts to a line that names it.
 */
export const COMMANDS: readonly CommandUsage[] = [
  { command: "review", synopsis: "gate review <fixture-dir> [--json]", what: "review a fixture (docs/fixtures.md)" },
  {
    command: "review",
    synopsis: "gate review <owner/repo#n | PR URL> [--json]",
    what: "review a live pull request (needs GitHub credentials)",
  },
  {
    command: "check",
    synopsis: "gate check <owner/repo#n | PR URL> [--sarif FILE] [--summary FILE] [--json]",
    what: "review a live pull request for CI (docs/ci.md): --sarif writes SARIF 2.1.0, --summary a Markdown summary; exits 0 pass, 1 not a pass (a person, rejected, failed), 2 could not review",
  },
  {
    command: "sarif",
    synopsis: "gate sarif <review-id|owner/repo#n>",
    what: "print a stored review's findings as SARIF 2.1.0 (the same log as check --sarif)",
  },
  {
    command: "decide",
    synopsis: "gate decide <review-id|owner/repo#n> approve|reject [--by NAME] [--note TEXT] [--json]",
    what: "approve or reject a review waiting for a person",
  },
  {
    command: "decide",
    synopsis: 'gate decide <review-id|owner/repo#n> info "<question>" [--by NAME] [--json]',
    what: "ask the investigator a person's question (one cycle of the budget)",
  },
  { command: "status", synopsis: "gate status <review-id|owner/repo#n> [--json]", what: "where a review stands" },
  {
    command: "demo",
    synopsis: "gate demo [--json | --blocks]",
    what: "review the demo fixtures (--blocks: the Slack cards as JSON)",
  },
  {
    command: "policies",
    synopsis: "gate policies [--repo owner/name] [--json]",
    what: "the policy corpus and configuration in force (for one repository)",
  },
  {
    command: "policies",
    sub: "test",
    synopsis: "gate policies test <policy-file> <fixture-dir | path> [--json]",
    what: "run one policy's ast-grep rules and print its findings",
  },
  {
    command: "config",
    sub: "check",
    synopsis: "gate config check <file> [--strict]",
    what: "validate a configuration file (file:line:col: key: problem); --strict: expired exceptions fail too",
  },
  {
    command: "config",
    sub: "whatif",
    synopsis: "gate config whatif <file> [--repo owner/name] [--since 30d] [--policies <dir>] [--json]",
    what: "replay the stored reviews with a proposed configuration (rules mode, read-only) and list the ones that change",
  },
  { command: "graph", synopsis: "gate graph", what: "the review graph as Mermaid" },
  {
    command: "db",
    sub: "copy",
    synopsis: "gate db copy --to <postgres://…>",
    what: "copy the SQLite state (GATE_DB) into an empty PostgreSQL database",
  },
  {
    command: "audit",
    sub: "verify",
    synopsis: "gate audit verify [--json]",
    what: "walk the audit log's hash chains (GATE_DB or GATE_DATABASE_URL); exit 1 naming the first entry that does not hold",
  },
  {
    command: "evidence",
    synopsis:
      "gate evidence [--repo owner/name] [--since DATE] [--until DATE] [--format json|csv] [--sample N --seed S]",
    what: "one row per change that reached a default branch (merged PR): its review, route, policies, who decided and when (before or after the merge), exceptions, emergency and overdue flags; --sample N --seed S draws the same N rows again",
  },
  {
    command: "auditor",
    sub: "add",
    synopsis: "gate auditor add NAME",
    what: "make an auditor's token for the evidence pages (/evidence, /review); printed once, stored hashed",
  },
  {
    command: "auditor",
    sub: "list",
    synopsis: "gate auditor list [--json]",
    what: "the auditors: names, when made, last used, revoked",
  },
  {
    command: "auditor",
    sub: "revoke",
    synopsis: "gate auditor revoke NAME",
    what: "revoke an auditor's token (their sessions end too)",
  },
  {
    command: "osv",
    sub: "sync",
    synopsis: "gate osv sync <dir> [--ecosystem npm,pypi]",
    what: "fill a GATE_OSV_DIR folder from OSV's exports (needs network)",
  },
  {
    command: "eval",
    synopsis: "gate eval [<dir>...] [--json] [--rules]",
    what: "score the fixtures (default: fixtures/ and fixtures/eval/); rules mode without ANTHROPIC_API_KEY or with --rules",
  },
  { command: "version", synopsis: "gate --version | gate -V | gate version", what: "print the package's version" },
  { command: "help", synopsis: "gate help [<command>] | gate [<command>] --help", what: "this text, or one command's" },
];

const WIDTH = 46;

function line(u: CommandUsage): string {
  const pad = u.synopsis.length < WIDTH ? " ".repeat(WIDTH - u.synopsis.length) : `\n  ${" ".repeat(WIDTH)}`;
  return `  ${u.synopsis}${pad}${u.what}`;
}

/**
 * The help text: every command's lines, or only `command`'s (and `sub`'s, when it has that
 * subcommand); undefined for a command the table does not hold.
 *
 * @example helpText("policies") // the two `gate policies` lines
 */
export function helpText(command?: string, sub?: string): string | undefined {
  const rows = command === undefined ? COMMANDS : COMMANDS.filter((u) => u.command === command);
  if (rows.length === 0) return undefined;
  const narrowed = sub !== undefined && rows.some((u) => u.sub === sub) ? rows.filter((u) => u.sub === sub) : rows;
  const head =
    command === undefined
      ? "gate: the PR compliance gate"
      : `gate ${command}${narrowed[0]?.sub && sub ? ` ${sub}` : ""}`;
  return `${head}\n\n${narrowed.map(line).join("\n")}\n\nSettings come from GATE_* environment variables (README, Settings).`;
}

/** Whether the table holds `command`. */
export function isCommand(command: string): boolean {
  return COMMANDS.some((u) => u.command === command);
}

/** Flags every command takes: `--help` and `--version` are answered before any command runs. */
const EVERY_COMMAND = new Set(["help", "version"]);

/**
 * The flags `gate <command> [<sub>]` takes: the ones its lines of the table name, so what
 * `--help` shows and what the parser lets through are one list. A subcommand the table does not
 * hold falls back to the command's own lines (or all of them, when every line has a subcommand).
 *
 * @example flagsOf("review") // ["json"]; flagsOf("graph") // []; flagsOf("config", "check") // ["strict"]
 */
export function flagsOf(command: string, sub?: string): string[] {
  const rows = COMMANDS.filter((u) => u.command === command);
  const ofSub = rows.filter((u) => u.sub !== undefined && u.sub === sub);
  const plain = rows.filter((u) => u.sub === undefined);
  const lines = ofSub.length > 0 ? ofSub : plain.length > 0 ? plain : rows;
  return [...new Set(lines.flatMap((u) => [...u.synopsis.matchAll(/--([a-z]+)/g)].map((m) => m[1] ?? "")))];
}

/**
 * Why `given` flags do not fit `gate <command> [<sub>]` (one line naming the flags it takes), or
 * undefined when they all do. The one check of flags, for every command.
 *
 * @example flagProblem("graph", undefined, ["json"]) // `"gate graph" does not take --json; its flags: none (gate help graph)`
 */
export function flagProblem(command: string, sub: string | undefined, given: readonly string[]): string | undefined {
  const takes = flagsOf(command, sub);
  const wrong = [...new Set(given)].filter((f) => !takes.includes(f) && !EVERY_COMMAND.has(f));
  if (wrong.length === 0) return undefined;
  const named = sub !== undefined && COMMANDS.some((u) => u.command === command && u.sub === sub);
  const which = named ? `${command} ${sub}` : command;
  const list = (flags: readonly string[]) => flags.map((f) => `--${f}`).join(", ");
  return `"gate ${which}" does not take ${list(wrong)}; its flags: ${takes.length > 0 ? list(takes) : "none"} (gate help ${which})`;
}
