import { parseArgs } from "node:util";
import { describeError, messageOf } from "../domain/errors.js";
import { loadSettings, type Env } from "../settings/index.js";
import { flagProblem, helpText, isCommand } from "./command-table.js";
import type { CliContext } from "./context.js";

/** The flags the parser accepts (each named in a line of the command table). */
export const CLI_OPTIONS = {
  json: { type: "boolean", default: false },
  blocks: { type: "boolean", default: false },
  by: { type: "string" },
  note: { type: "string" },
  rules: { type: "boolean", default: false },
  repo: { type: "string" },
  to: { type: "string" },
  ecosystem: { type: "string" },
  strict: { type: "boolean", default: false },
  since: { type: "string" },
  until: { type: "string" },
  format: { type: "string" },
  sample: { type: "string" },
  seed: { type: "string" },
  policies: { type: "string" },
  sarif: { type: "string" },
  summary: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
  version: { type: "boolean", short: "V", default: false },
} as const;

/** The command line's words and flags, with the tokens that say which flags were given (throws on an unknown flag). */
function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: CLI_OPTIONS,
    tokens: true,
  });
}

/** Runs one CLI command with the settings in `env`; returns the exit code. Errors are one clear line on stderr. */
export async function runCli(argv: string[], env: Env): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    process.stderr.write(`gate: ${messageOf(error)}\n`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  const { json, blocks, by, note, rules, help, repo, to, ecosystem, strict, since, policies, sarif, summary, version } =
    parsed.values;
  const { until, format, sample, seed } = parsed.values;
  if (version || command === "version") {
    process.stdout.write(`${(await import("../package-version.js")).packageVersion()}\n`);
    return 0;
  }
  if (!command || help || command === "help") {
    // `gate help review`, `gate review --help`, `gate policies test --help`: that command's lines.
    const [asked, sub] = command === "help" ? rest : [command, rest[0]];
    const text = helpText(asked, sub);
    if (text === undefined) {
      process.stderr.write(`gate: unknown command ${JSON.stringify(asked)}\n\n${helpText()}\n`);
      return 2;
    }
    process.stdout.write(`${text}\n`);
    return command || help ? 0 : 2;
  }
  if (!isCommand(command)) {
    process.stderr.write(`gate: unknown command ${JSON.stringify(command)}\n\n${helpText()}\n`);
    return 2;
  }
  // A flag the command does not take (`gate graph --json`) is refused before anything runs, naming the ones it does.
  const given = parsed.tokens.flatMap((t) => (t.kind === "option" ? [t.name] : []));
  const wrongFlags = flagProblem(command, rest[0], given);
  if (wrongFlags) {
    process.stderr.write(`gate: ${wrongFlags}\n`);
    return 2;
  }
  if (command === "config" && rest[0] === "whatif") {
    // Replays the stored reviews read-only: the gate (and its read-write database) is never built.
    try {
      const settings = loadSettings(env);
      const [{ whatifCommand }, { createLogger }] = await Promise.all([
        import("./commands/whatif.js"),
        import("../logger.js"),
      ]);
      const log = createLogger({ level: settings.logLevel ?? "warn", base: false, destination: 2 });
      return await whatifCommand(
        rest.slice(1),
        { json, ...(repo ? { repo } : {}), ...(since ? { since } : {}), ...(policies ? { policies } : {}) },
        settings,
        log,
        { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) },
      );
    } catch (error) {
      process.stderr.write(`gate: ${describeError(error)}\n`);
      return 1;
    }
  }
  if (command === "config") {
    // Checks a file without the gate's own configuration: that one may be the file being fixed.
    const io = {
      out: (t: string) => process.stdout.write(`${t}\n`),
      err: (t: string) => process.stderr.write(`${t}\n`),
    };
    try {
      const settings = loadSettings(env);
      const [{ configCommand }, { loadPolicies }] = await Promise.all([
        import("./commands/config.js"),
        import("../policy/load-policies.js"),
      ]);
      return await configCommand(rest, io, () => loadPolicies(settings.policiesDir), { strict });
    } catch (error) {
      process.stderr.write(`gate: ${describeError(error)}\n`);
      return 1;
    }
  }
  if (command === "policies" && rest[0] === "test") {
    // One policy file's rules over a fixture or files on disk: no database, no configuration.
    try {
      return await (await import("./commands/policy-test.js")).policyTestCommand(rest.slice(1), json, {
        out: (t) => process.stdout.write(`${t}\n`),
        err: (t) => process.stderr.write(`${t}\n`),
      });
    } catch (error) {
      process.stderr.write(`gate: ${describeError(error)}\n`);
      return 1;
    }
  }
  if (command === "osv") {
    // Needs no database or configuration: it only fills a folder.
    try {
      const exportUrl = loadSettings(env).advisories.exportUrl;
      return await (await import("./commands/osv.js")).osvCommand(
        rest,
        { ...(ecosystem ? { ecosystem } : {}), ...(exportUrl ? { exportUrl } : {}) },
        { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) },
      );
    } catch (error) {
      process.stderr.write(`gate: ${describeError(error)}\n`);
      return 1;
    }
  }
  let ctx: CliContext | undefined;
  // `gate check` keeps its review in a temp folder unless GATE_DB (or GATE_DATABASE_URL) says where.
  const scratch = command === "check" ? (await import("./scratch-state.js")).scratchState(env) : undefined;
  try {
    const settings = loadSettings(scratch?.env ?? env);
    // The graph and the policy configuration need no stored review: an in-memory database, no file.
    // Each command's modules are loaded when it runs: a command pays only for what it uses.
    const { createCliContext } = await import("./context.js");
    ctx = await createCliContext(
      command === "graph" || command === "policies"
        ? { ...settings, database: { kind: "sqlite", path: ":memory:" } }
        : settings,
    );
    // Commands that may call a model check the configured ids first (with a key set), before any database is opened.
    if (
      (command === "review" || command === "check" || command === "decide" || command === "eval") &&
      settings.claude.apiKey
    ) {
      await (await import("../build-gate.js")).checkConfiguredModels(settings.claude, ctx.log);
    }
    switch (command) {
      case "review":
        return await (await import("./commands/review.js")).reviewCommand(ctx, rest, json);
      case "check":
        return await (await import("./commands/check.js")).checkCommand(ctx, rest, {
          json,
          ...(sarif ? { sarif } : {}),
          ...(summary ? { summary } : {}),
          kept: scratch?.kept ?? true,
        });
      case "sarif":
        return await (await import("./commands/sarif.js")).sarifCommand(ctx, rest);
      case "decide":
        return await (await import("./commands/decide.js")).decideCommand(ctx, rest, {
          json,
          ...(by ? { by } : {}),
          ...(note ? { note } : {}),
        });
      case "status":
        return await (await import("./commands/status.js")).statusCommand(ctx, rest, json);
      case "demo":
        return await (await import("./commands/demo.js")).demoCommand(ctx, { json, blocks });
      case "policies":
        return await (await import("./commands/policies.js")).policiesCommand(ctx, json, repo);
      case "graph":
        return await (await import("./commands/graph.js")).graphCommand(ctx);
      case "eval":
        return await (await import("./commands/eval.js")).evalCommand(
          ctx,
          { json, rules },
          ...(rest.length > 0 ? [rest] : []),
        );
      case "db":
        return await (await import("./commands/db.js")).dbCommand(ctx, rest, to);
      case "audit":
        return await (await import("./commands/audit.js")).auditCommand(ctx, rest, json);
      case "auditor":
        return await (await import("./commands/auditor.js")).auditorCommand(ctx, rest, json);
      case "evidence":
        return await (await import("./commands/evidence.js")).evidenceCommand(ctx, rest, {
          ...(repo ? { repo } : {}),
          ...(since ? { since } : {}),
          ...(until ? { until } : {}),
          ...(format ? { format } : {}),
          ...(sample ? { sample } : {}),
          ...(seed ? { seed } : {}),
        });
      default:
        process.stderr.write(`gate: unknown command ${JSON.stringify(command)}\n\n${helpText()}\n`);
        return 2;
    }
  } catch (error) {
    process.stderr.write(`gate: ${describeError(error)}\n`);
    // `gate check` says 2 when it could not review (a setting, the database): 1 is a verdict there.
    return command === "check" ? 2 : 1;
  } finally {
    await ctx?.close();
    scratch?.remove();
  }
}
