import { createConnection } from "node:net";

/**
 * A loopback port nothing listens on: a connection to it is refused. A port below 1024 that no test
 * binds (and that fetch does not block, as it does port 1), not one bound and closed again: the system hands a freed ephemeral port to the next
 * `listen(0)`, and with test files running side by side another test's fake server took it (the
 * Anthropic start-up check then found a "model list" there and the server started).
 *
 * @example const url = `http://127.0.0.1:${await closedPort()}`;
 */
export async function closedPort(): Promise<number> {
  const port = 999;
  // Say so at once if something does listen there on this machine, rather than letting a test fail oddly.
  await new Promise<void>((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      reject(new Error(`closedPort: something listens on 127.0.0.1:${port}`));
    });
    socket.once("error", () => resolve());
  });
  return port;
}
