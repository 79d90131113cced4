#!/usr/bin/env node
import { describeError } from "./domain/errors.js";
import { startGateServer } from "./server/start.js";

// `npm start`: the gate's server (GitHub webhooks, Slack, the review queue). `npm run demo` needs none of it.
try {
  const server = await startGateServer(process.env);
  const shutdown = () => {
    void server.close().finally(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
} catch (error) {
  process.stderr.write(`gate: ${describeError(error)}\n`);
  process.exit(1);
}
