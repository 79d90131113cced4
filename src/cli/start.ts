import { quietOnClosedPipe } from "./closed-pipe.js";
import { runCli } from "./run-cli.js";

/**
 * The `gate` command's whole life: output that a reader may close early, one command, its exit
 * code. The entry of the bundle `gate` runs (dist/gate.cjs) and of the unbundled `dist/cli/main.js`.
 *
 * @example await startCli(process.argv.slice(2), process.env);
 */
export async function startCli(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  process.exitCode = await runCli(argv, env);
}
