import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import semver from "semver";

/**
 * How the fake answers: normally, with 500s (`fail`), never (`hang`, for timeouts), with a 200
 * whose body is not JSON (`garbage`), or with a 200 streaming a `querybatch` answer of about
 * `hugeBytes` bytes (`huge`: 100 MB by default, no `content-length`, written as the reader takes it).
 */
export type OsvMode = "ok" | "fail" | "hang" | "garbage" | "huge";

/** Writes a querybatch answer of about `bytes` bytes in 1 MB chunks, stopping when the client goes away. */
function streamHugeAnswer(res: import("node:http").ServerResponse, bytes: number, sent: { bytes: number }): void {
  const entry = '{"id":"GHSA-pad0-pad0-pad0","modified":"2026-01-01T00:00:00Z"},';
  const chunk = Buffer.from(entry.repeat(Math.ceil((1024 * 1024) / entry.length)));
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"results":[{"vulns":[');
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  const pump = (): void => {
    while (!closed && sent.bytes < bytes) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!closed) res.end('{"id":"GHSA-last-last-last"}]}]}');
  };
  pump();
}

/** An OSV record as the fake keeps it (the shape `GET /v1/vulns/{id}` returns). */
export type FakeOsvRecord = {
  id: string;
  affected?: ({ package?: { ecosystem: string; name: string } } & Record<string, unknown>)[];
} & Record<string, unknown>;

export interface FakeOsv {
  /** The API root (`GATE_OSV_URL`). */
  url: string;
  /** The records it knows, by id. */
  records: Map<string, FakeOsvRecord>;
  mode: OsvMode;
  /** The next this-many requests answer 500 whatever the mode (an OSV that recovers). */
  failNext: number;
  /** The size of a `huge` answer, and how many bytes of huge answers were written so far. */
  hugeBytes: number;
  readonly hugeSent: number;
  /** `METHOD path` of each request, in order. */
  requests: string[];
  /** The `queries` of each querybatch request, in order. */
  batches: { package: { ecosystem: string; name: string }; version?: string }[][];
  /** Adds records. */
  add(...records: FakeOsvRecord[]): void;
  close(): Promise<void>;
}

/** OSV compares PyPI names as PEP 503 does (case and runs of `-_.` aside); others as written. */
function sameName(ecosystem: string, a: string, b: string): boolean {
  const pep503 = (n: string) => n.toLowerCase().replace(/[-_.]+/g, "-");
  return ecosystem === "PyPI" ? pep503(a) === pep503(b) : a === b;
}

type FakeEvent = { introduced?: string; fixed?: string; last_affected?: string };
type FakeAffected = { versions?: string[]; ranges?: { type: string; events: FakeEvent[] }[] };

/** Whether a SEMVER range's events hold `v` (OSV's evaluation, with the `semver` package). */
function inSemverRange(events: FakeEvent[], v: string): boolean {
  let affected = false;
  const sorted = [...events].sort((a, b) => {
    const va = a.introduced ?? a.fixed ?? a.last_affected ?? "0";
    const vb = b.introduced ?? b.fixed ?? b.last_affected ?? "0";
    return va === "0" ? -1 : vb === "0" ? 1 : semver.compare(va, vb);
  });
  for (const e of sorted) {
    if (e.introduced !== undefined && (e.introduced === "0" || semver.compare(v, e.introduced) >= 0)) affected = true;
    else if (e.fixed !== undefined && semver.compare(v, e.fixed) >= 0) affected = false;
    else if (e.last_affected !== undefined && semver.compare(v, e.last_affected) > 0) affected = false;
  }
  return affected;
}

/**
 * Whether OSV would name this affected entry for `version`, as far as the fake can tell: its
 * `versions[]` (OSV's own list of affected versions) when it has one, else its SEMVER ranges;
 * an entry with neither (ECOSYSTEM ranges only, whose order the fake does not know) is named for
 * every version, as is one whose SEMVER bounds semver cannot read: a superset the gate's own
 * check then narrows.
 */
function names(entry: FakeAffected, version: string): boolean {
  if (entry.versions !== undefined) return entry.versions.includes(version);
  const semverRanges = (entry.ranges ?? []).filter((r) => r.type === "SEMVER");
  const bounds = semverRanges.flatMap((r) => r.events.flatMap((e) => [e.introduced, e.fixed, e.last_affected]));
  const readable = bounds.every((b) => b === undefined || b === "0" || semver.valid(b) !== null);
  if (semverRanges.length === 0 || !readable) return true;
  return semver.valid(version) !== null && semverRanges.some((r) => inSemverRange(r.events, version));
}

/**
 * A loopback fake of OSV's API: `POST /v1/querybatch` answers, for each query in order, the ids
 * of the records whose `affected[].package` names that ecosystem and package and, as OSV does,
 * affects that version (see `names`; `{}` when none), and `GET /v1/vulns/{id}` the record, or 404.
 *
 * @example const osv = await startFakeOsv(); osv.add(lodashRecord); // GATE_OSV_URL=osv.url
 */
export async function startFakeOsv(): Promise<FakeOsv> {
  const records = new Map<string, FakeOsvRecord>();
  const state = {
    mode: "ok" as OsvMode,
    failNext: 0,
    hugeBytes: 100 * 1024 * 1024,
    huge: { bytes: 0 },
    requests: [] as string[],
    batches: [] as FakeOsv["batches"],
  };
  const send = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = (req.url ?? "/").split("?")[0] ?? "/";
      state.requests.push(`${req.method} ${url}`);
      if (state.failNext > 0) {
        state.failNext--;
        send(res, 500, { code: 13, message: "internal error" });
        return;
      }
      if (state.mode === "hang") return;
      if (state.mode === "fail") {
        send(res, 500, { code: 13, message: "internal error" });
        return;
      }
      if (state.mode === "huge") {
        streamHugeAnswer(res, state.hugeBytes, state.huge);
        return;
      }
      if (state.mode === "garbage") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("<html>bad gateway</html>");
        return;
      }
      if (req.method === "POST" && url === "/v1/querybatch") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { queries: FakeOsv["batches"][number] };
        state.batches.push(body.queries);
        const results = body.queries.map((q) => {
          const vulns = [...records.values()]
            .filter((r) =>
              (r.affected ?? []).some(
                (a) =>
                  a.package?.ecosystem === q.package.ecosystem &&
                  sameName(q.package.ecosystem, a.package.name, q.package.name) &&
                  (q.version === undefined || names(a as FakeAffected, q.version)),
              ),
            )
            .map((r) => ({ id: r.id, modified: "2026-01-01T00:00:00Z" }));
          return vulns.length > 0 ? { vulns } : {};
        });
        send(res, 200, { results });
        return;
      }
      const vuln = /^\/v1\/vulns\/(.+)$/.exec(url);
      if (req.method === "GET" && vuln?.[1]) {
        const record = records.get(decodeURIComponent(vuln[1]));
        if (record) send(res, 200, record);
        else send(res, 404, { code: 5, message: "Bug not found." });
        return;
      }
      send(res, 404, { code: 5, message: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    get mode() {
      return state.mode;
    },
    set mode(m: OsvMode) {
      state.mode = m;
    },
    get failNext() {
      return state.failNext;
    },
    set failNext(n: number) {
      state.failNext = n;
    },
    get hugeBytes() {
      return state.hugeBytes;
    },
    set hugeBytes(n: number) {
      state.hugeBytes = n;
    },
    get hugeSent() {
      return state.huge.bytes;
    },
    requests: state.requests,
    batches: state.batches,
    add(...more) {
      for (const r of more) records.set(r.id, r);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
