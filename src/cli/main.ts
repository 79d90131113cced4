#!/usr/bin/env node
// The CLI without the bundle (the same commands, each module loaded on its own): what the tests run
// through tsx. The installed `gate` command is dist/cli/gate.cjs, which runs the bundle.
import { startCli } from "./start.js";

await startCli(process.argv.slice(2), process.env);
