import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** How the fake answers: normally, with 500s, or never (to exercise timeouts). */
export type RegistryMode = "ok" | "fail" | "hang";

export interface FakeRegistry {
  /** npm registry root (`registryUrl`). */
  npmUrl: string;
  /** PyPI root (`baseUrl`); the JSON API is under `/pypi/`. */
  pypiUrl: string;
  /** npm package documents by package name. */
  npm: Map<string, unknown>;
  /** PyPI JSON documents by path after `/pypi/`, e.g. `requests/json` or `requests/2.31.0/json`. */
  pypi: Map<string, unknown>;
  mode: RegistryMode;
  /** Raw request paths (still percent-encoded), in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A loopback fake of the npm registry (`GET /<name>`) and PyPI's JSON API
 * (`GET /pypi/<name>[/<version>]/json`).
 *
 * @example const reg = await startFakeRegistry(); reg.npm.set("left-pad", { "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { license: "MIT" } } });
 */
export async function startFakeRegistry(): Promise<FakeRegistry> {
  const state = {
    npm: new Map<string, unknown>(),
    pypi: new Map<string, unknown>(),
    mode: "ok" as RegistryMode,
    requests: [] as string[],
  };
  const server: Server = createServer((req, res) => {
    const raw = (req.url ?? "/").split("?")[0] ?? "/";
    state.requests.push(raw);
    if (state.mode === "hang") return; // never answer; the client must time out
    if (state.mode === "fail") {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "internal" }));
      return;
    }
    let doc: unknown;
    if (raw.startsWith("/npm/")) doc = state.npm.get(decodeURIComponent(raw.slice("/npm/".length)));
    else if (raw.startsWith("/pypi/")) doc = state.pypi.get(decodeURIComponent(raw.slice("/pypi/".length)));
    if (doc === undefined) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "Not found" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    npmUrl: `${base}/npm`,
    pypiUrl: base,
    get npm() {
      return state.npm;
    },
    get pypi() {
      return state.pypi;
    },
    get mode() {
      return state.mode;
    },
    set mode(m: RegistryMode) {
      state.mode = m;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
