import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How the fake answers: normally, with 503s (`fail`), never (`hang`, to exercise timeouts), or
 * with a 200 whose body is not JSON (`garbage`).
 */
export type RegistryMode = "ok" | "fail" | "hang" | "garbage";

export interface FakeRegistry {
  /** npm registry root (`registryUrl`). */
  npmUrl: string;
  /** PyPI root (`baseUrl`); the JSON API is under `/pypi/`. */
  pypiUrl: string;
  /** crates.io root (`baseUrl`); the API is under `/api/v1/crates/`. */
  cratesUrl: string;
  /** deps.dev API root (`baseUrl`); Go modules are under `/v3/systems/go/packages/`. */
  goUrl: string;
  /** deps.dev API root for Maven artifacts (`/v3/systems/maven/packages/`). */
  mavenUrl: string;
  /** deps.dev API root for NuGet packages (`/v3/systems/nuget/packages/`). */
  nugetUrl: string;
  /** Packagist root; Composer v2 metadata is under `/p2/`. */
  packagistUrl: string;
  /** RubyGems root; the API is under `/api/v1/gems/` and `/api/v2/rubygems/`. */
  rubygemsUrl: string;
  /** npm package documents by package name. */
  npm: Map<string, unknown>;
  /** PyPI JSON documents by path after `/pypi/`, e.g. `requests/json` or `requests/2.31.0/json`. */
  pypi: Map<string, unknown>;
  /** crates.io documents by decoded path after `/api/v1/crates/`, e.g. `serde` or `serde/1.0.197`. */
  crates: Map<string, unknown>;
  /** deps.dev documents by decoded path after `/v3/systems/go/packages/`, e.g. `github.com/a/b` or `github.com/a/b/versions/v1.2.3`. */
  go: Map<string, unknown>;
  /** deps.dev documents by decoded path after `/v3/systems/maven/packages/`, e.g. `org.slf4j:slf4j-api/versions/2.0.13`. */
  maven: Map<string, unknown>;
  /** deps.dev documents by decoded path after `/v3/systems/nuget/packages/`, e.g. `Serilog/versions/4.0.1`. */
  nuget: Map<string, unknown>;
  /** Packagist v2 documents by path after `/p2/`, e.g. `monolog/monolog.json`. */
  packagist: Map<string, unknown>;
  /** RubyGems gem documents by path after `/api/v1/gems/`, e.g. `rack.json`. */
  gems: Map<string, unknown>;
  /** RubyGems version documents by path after `/api/v2/rubygems/`, e.g. `rack/versions/3.1.7.json`. */
  gemVersions: Map<string, unknown>;
  mode: RegistryMode;
  /** The next this-many requests answer 503 whatever the mode (a registry that recovers). */
  failNext: number;
  /** Raw request paths (still percent-encoded), in order. */
  requests: string[];
  /** The `user-agent` header of each request, in order. */
  userAgents: string[];
  close(): Promise<void>;
}

const ROUTES = [
  { prefix: "/npm/", map: "npm" },
  { prefix: "/pypi/", map: "pypi" },
  { prefix: "/api/v1/crates/", map: "crates" },
  { prefix: "/v3/systems/go/packages/", map: "go" },
  { prefix: "/v3/systems/maven/packages/", map: "maven" },
  { prefix: "/v3/systems/nuget/packages/", map: "nuget" },
  { prefix: "/p2/", map: "packagist" },
  { prefix: "/api/v1/gems/", map: "gems" },
  { prefix: "/api/v2/rubygems/", map: "gemVersions" },
] as const;

/**
 * A loopback fake of the npm registry (`GET /npm/<name>`), PyPI's JSON API
 * (`GET /pypi/<name>[/<version>]/json`), crates.io's API (`GET /api/v1/crates/<name>[/<version>]`)
 * deps.dev's Go, Maven and NuGet endpoints (`GET /v3/systems/<system>/packages/<name>[/versions/<v>]`),
 * Packagist's v2 metadata (`GET /p2/<vendor>/<name>.json`) and RubyGems' API
 * (`GET /api/v1/gems/<name>.json`, `GET /api/v2/rubygems/<name>/versions/<v>.json`).
 *
 * @example const reg = await startFakeRegistry(); reg.npm.set("left-pad", { "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { license: "MIT" } } });
 */
export async function startFakeRegistry(): Promise<FakeRegistry> {
  // The documents, by route; each map is the fake's own, so a test's `set` is what it serves.
  const docs = {
    npm: new Map<string, unknown>(),
    pypi: new Map<string, unknown>(),
    crates: new Map<string, unknown>(),
    go: new Map<string, unknown>(),
    maven: new Map<string, unknown>(),
    nuget: new Map<string, unknown>(),
    packagist: new Map<string, unknown>(),
    gems: new Map<string, unknown>(),
    gemVersions: new Map<string, unknown>(),
  };
  const state = {
    mode: "ok" as RegistryMode,
    failNext: 0,
    requests: [] as string[],
    userAgents: [] as string[],
  };
  const server: Server = createServer((req, res) => {
    const raw = (req.url ?? "/").split("?")[0] ?? "/";
    state.requests.push(raw);
    state.userAgents.push(String(req.headers["user-agent"] ?? ""));
    if (state.failNext > 0) {
      state.failNext--;
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "unavailable" }));
      return;
    }
    if (state.mode === "hang") return; // never answer; the client must time out
    if (state.mode === "fail") {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "unavailable" }));
      return;
    }
    if (state.mode === "garbage") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("<html>proxy error</html>");
      return;
    }
    const route = ROUTES.find((r) => raw.startsWith(r.prefix));
    const doc = route ? docs[route.map].get(decodeURIComponent(raw.slice(route.prefix.length))) : undefined;
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
    cratesUrl: base,
    goUrl: base,
    mavenUrl: base,
    nugetUrl: base,
    packagistUrl: base,
    rubygemsUrl: base,
    ...docs,
    requests: state.requests,
    userAgents: state.userAgents,
    get mode() {
      return state.mode;
    },
    set mode(m: RegistryMode) {
      state.mode = m;
    },
    get failNext() {
      return state.failNext;
    },
    set failNext(n: number) {
      state.failNext = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Retries with tiny delays, so tests of retrying stay fast (the delays are injectable for this). */
export const FAST_RETRY = { retries: 2, minDelayMs: 1, maxDelayMs: 5 };
