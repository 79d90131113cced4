import { z } from "zod";
import type { AdvisoryQuery } from "../domain/advisory-source.js";
import { describeIssues, GateError } from "../domain/errors.js";
import { requestRegistryJson, type RegistryHttpOptions } from "../licenses/registry-http.js";
import { cacheEntry, freshEntry, type OsvCache } from "./osv-cache.js";
import { osvEcosystem, OsvRecordSchema, type OsvRecord } from "./osv-record.js";
import type { RecordSource } from "./record-source.js";

/** How the live client talks to OSV. */
export interface OsvApiOptions extends RegistryHttpOptions {
  /** `GATE_OSV_URL`; `https://api.osv.dev` by default. */
  baseUrl?: string;
  cache?: OsvCache;
  /** How long a cached answer is used before OSV is asked again; 6 hours by default. */
  cacheTtlMs?: number;
  /** Queries per `querybatch` request; OSV takes up to 1,000. */
  batchSize?: number;
  /** Records fetched at once. */
  concurrency?: number;
  now?: () => number;
}

const BatchAnswerSchema = z.object({
  results: z.array(
    z.looseObject({
      vulns: z.array(z.looseObject({ id: z.string().min(1) })).optional(),
      next_page_token: z.string().optional(),
    }),
  ),
});

const queryKey = (q: AdvisoryQuery) => `osv:query:${q.ecosystem}:${q.name}@${q.version}`;
const recordKey = (id: string) => `osv:vuln:${id}`;

function unavailable(message: string): GateError {
  return new GateError("ADVISORIES_UNAVAILABLE", message);
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * OSV's API as a record source: `POST /v1/querybatch` for the ids that affect each package
 * version (up to `batchSize` queries a request, following `next_page_token`), then
 * `GET /v1/vulns/{id}` for each id not cached, every request retried with backoff. Answers are
 * cached with a TTL; a failure is never cached. Throws `ADVISORIES_UNAVAILABLE` saying what
 * went wrong when any request gets no usable answer.
 *
 * @example advisorySourceOver(osvApiRecords({ baseUrl: "http://127.0.0.1:8080", cache }))
 */
export function osvApiRecords(opts: OsvApiOptions = {}): RecordSource {
  const base = (opts.baseUrl ?? "https://api.osv.dev").replace(/\/+$/, "");
  const http: RegistryHttpOptions & { purpose: string } = {
    purpose: "advisory lookups",
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
  };
  const ttl = opts.cacheTtlMs ?? 6 * 3_600_000;
  const now = opts.now ?? Date.now;
  const batchSize = opts.batchSize ?? 1000;

  async function post(body: unknown): Promise<z.infer<typeof BatchAnswerSchema>> {
    const doc = await requestRegistryJson(`${base}/v1/querybatch`, { ...http, body }).catch((error: unknown) => {
      throw unavailable(`querybatch ${error instanceof Error ? error.message : String(error)}`);
    });
    if (!doc.found) throw unavailable("querybatch answered 404");
    const parsed = BatchAnswerSchema.safeParse(doc.json);
    if (!parsed.success)
      throw unavailable(`querybatch sent an answer that is not OSV's: ${describeIssues(parsed.error, { max: 1 })}`);
    return parsed.data;
  }

  /** The advisory ids of each query, asked in batches; a result cut into pages is followed to its end. */
  async function idsOf(queries: AdvisoryQuery[]): Promise<string[][]> {
    const out: string[][] = [];
    for (let start = 0; start < queries.length; start += batchSize) {
      const chunk = queries.slice(start, start + batchSize);
      const body = (q: AdvisoryQuery, page?: string) => ({
        package: { ecosystem: osvEcosystem(q.ecosystem), name: q.name },
        version: q.version,
        ...(page ? { page_token: page } : {}),
      });
      const answer = await post({ queries: chunk.map((q) => body(q)) });
      if (answer.results.length !== chunk.length) {
        throw unavailable(`querybatch answered ${answer.results.length} results for ${chunk.length} queries`);
      }
      for (const [i, result] of answer.results.entries()) {
        const ids = (result.vulns ?? []).map((v) => v.id);
        let page = result.next_page_token;
        for (let pages = 0; page && pages < 20; pages++) {
          const more = (await post({ queries: [body(chunk[i] as AdvisoryQuery, page)] })).results[0];
          ids.push(...(more?.vulns ?? []).map((v) => v.id));
          page = more?.next_page_token;
        }
        if (page) throw unavailable(`querybatch kept paging the advisories of ${chunk[i]?.name}`);
        out.push([...new Set(ids)]);
      }
    }
    return out;
  }

  async function fetchRecord(id: string): Promise<OsvRecord> {
    const doc = await requestRegistryJson(`${base}/v1/vulns/${encodeURIComponent(id)}`, http).catch(
      (error: unknown) => {
        throw unavailable(`vulns/${id} ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    if (!doc.found) throw unavailable(`vulns/${id} answered 404 for an id querybatch gave`);
    const parsed = OsvRecordSchema.safeParse(doc.json);
    if (!parsed.success || parsed.data.id !== id) {
      throw unavailable(
        `vulns/${id} sent a record that is not OSV's${parsed.success ? " (another id)" : `: ${describeIssues(parsed.error, { max: 1 })}`}`,
      );
    }
    return parsed.data;
  }

  return {
    name: `OSV ${base}`,
    namesVersions: true,
    async records(queries) {
      const ids = new Map<string, string[]>();
      const asked = new Map<string, AdvisoryQuery>();
      for (const q of queries) {
        const key = queryKey(q);
        if (ids.has(key) || asked.has(key)) continue;
        const cached = freshEntry<string[]>(await opts.cache?.get(key), now(), ttl);
        if (cached) ids.set(key, cached);
        else asked.set(key, q);
      }
      if (asked.size > 0) {
        const answers = await idsOf([...asked.values()]);
        for (const [i, key] of [...asked.keys()].entries()) ids.set(key, answers[i] ?? []);
      }
      const records = new Map<string, OsvRecord>();
      const wanted = [...new Set([...ids.values()].flat())];
      await eachLimited(wanted, opts.concurrency ?? 8, async (id) => {
        const cached = freshEntry<unknown>(await opts.cache?.get(recordKey(id)), now(), ttl);
        const checked = cached === undefined ? undefined : OsvRecordSchema.safeParse(cached);
        if (checked?.success) {
          records.set(id, checked.data);
          return;
        }
        const record = await fetchRecord(id);
        records.set(id, record);
        await opts.cache?.set(recordKey(id), cacheEntry(record, now()));
      });
      // Cached only once every record they name was had: a half-answered query is asked again.
      for (const key of asked.keys()) await opts.cache?.set(key, cacheEntry(ids.get(key) ?? [], now()));
      return queries.map((q) => (ids.get(queryKey(q)) ?? []).map((id) => records.get(id) as OsvRecord));
    },
  };
}
