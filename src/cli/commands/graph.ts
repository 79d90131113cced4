import type { CliContext } from "../context.js";

/** `gate graph`: the Mermaid diagram drawn from the compiled graph itself. */
export async function graphCommand(ctx: CliContext): Promise<number> {
  const drawn = await (await ctx.gate()).graph.getGraphAsync();
  ctx.out(drawn.drawMermaid({ withStyles: false }).trim());
  return 0;
}
