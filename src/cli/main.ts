#!/usr/bin/env node
import { quietOnClosedPipe } from "./closed-pipe.js";
import { runCli } from "./run-cli.js";

quietOnClosedPipe(process.stdout);
quietOnClosedPipe(process.stderr);
process.exitCode = await runCli(process.argv.slice(2), process.env);
