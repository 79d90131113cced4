import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { requestRegistryJson } from "../../src/licenses/registry-http.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

/** A loopback server answering every request with `body`, streamed in 64 KiB chunks; counts requests and bytes sent. */
async function serve(body: Buffer, opts: { declareLength: boolean }) {
  const seen = { requests: 0, sent: 0 };
  const server = createServer((_req, res) => {
    seen.requests++;
    res.writeHead(200, {
      "content-type": "application/json",
      ...(opts.declareLength ? { "content-length": String(body.length) } : {}),
    });
    let at = 0;
    let closed = false;
    res.on("close", () => {
      closed = true;
    });
    const pump = (): void => {
      while (!closed && at < body.length) {
        const chunk = body.subarray(at, at + 65536);
        at += chunk.length;
        seen.sent += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      if (!closed) res.end();
    };
    pump();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/doc`, seen };
}

/** A JSON document of about `bytes` bytes. */
const bigJson = (bytes: number) => Buffer.from(JSON.stringify({ pad: "x".repeat(bytes) }));

describe("requestRegistryJson reads an answer no larger than its cap", () => {
  it("a streamed answer past the cap is aborted there, not retried, and the error names the cap and its setting", async () => {
    const { url, seen } = await serve(bigJson(20 * 1024 * 1024), { declareLength: false });
    await expect(requestRegistryJson(url, { maxBytes: 1024 * 1024, retry: { minDelayMs: 0 } })).rejects.toThrow(
      "sent an answer of more than 1048576 bytes; at most 1048576 are read (GATE_MAX_ANSWER_BYTES), so it was not read (1 attempt)",
    );
    expect(seen.requests).toBe(1);
    expect(seen.sent).toBeLessThan(10 * 1024 * 1024);
  });

  it("an answer whose content-length is over the cap is refused before its body is read", async () => {
    const { url, seen } = await serve(bigJson(4 * 1024 * 1024), { declareLength: true });
    await expect(requestRegistryJson(url, { maxBytes: 1024 * 1024 })).rejects.toThrow(
      /sent an answer of 41943\d\d bytes; at most 1048576 are read \(GATE_MAX_ANSWER_BYTES\)/,
    );
    expect(seen.requests).toBe(1);
  });

  it("an answer at the cap is read and parsed", async () => {
    const body = bigJson(1000);
    const { url } = await serve(body, { declareLength: false });
    const doc = await requestRegistryJson(url, { maxBytes: body.length });
    expect(doc).toEqual({ found: true, json: { pad: "x".repeat(1000) } });
  });
});
