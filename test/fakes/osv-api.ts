import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How the fake answers: normally, with 500s (`fail`), never (`hang`, for timeouts), or with a 200
 * whose body is not JSON (`garbage`).
 */
export type OsvMode = "ok" | "fail" | "hang" | "garbage";

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

/**
 * A loopback fake of OSV's API: `POST /v1/querybatch` answers, for each query in order, the ids
 * of the records whose `affected[].package` names that ecosystem and package (`{}` when none; it
 * does not narrow by version, a superset OSV's own answer is within, so the gate's own version
 * check decides), and `GET /v1/vulns/{id}` the record, or 404.
 *
 * @example const osv = await startFakeOsv(); osv.add(lodashRecord); // GATE_OSV_URL=osv.url
 */
export async function startFakeOsv(): Promise<FakeOsv> {
  const records = new Map<string, FakeOsvRecord>();
  const state = { mode: "ok" as OsvMode, failNext: 0, requests: [] as string[], batches: [] as FakeOsv["batches"] };
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
                  sameName(q.package.ecosystem, a.package.name, q.package.name),
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
