#!/usr/bin/env node
// The installed `gate` command: the CLI bundled into one file, with the code cache the build made
// for it (docs/performance.md). The unbundled entry is dist/cli/main.js.
import { loadCliBundle } from "./bundle-loader.cjs";

void loadCliBundle().cli.startCli(process.argv.slice(2), process.env);
