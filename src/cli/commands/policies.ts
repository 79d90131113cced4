import type { CliContext } from "../context.js";

/** `gate policies`: the corpus in force, one line each. */
export async function policiesCommand(ctx: CliContext, json: boolean): Promise<number> {
  const rows = ctx.gate.policies;
  if (json) {
    ctx.out(
      JSON.stringify(
        rows.map(({ text: _text, ...meta }) => meta),
        null,
        2,
      ),
    );
    return 0;
  }
  for (const p of rows) {
    ctx.out(
      `${p.id.padEnd(8)} ${p.specialty.padEnd(9)} ${p.severity.padEnd(8)} ${p.blocking ? "blocking" : "advisory"}  ${p.title}`,
    );
  }
  return 0;
}
