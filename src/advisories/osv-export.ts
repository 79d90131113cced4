import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { unzipSync } from "fflate";
import { GateError, messageOf } from "../domain/errors.js";
import type { Ecosystem } from "../domain/license-resolver.js";
import { osvEcosystem } from "./osv-record.js";

/** Where OSV publishes its per-ecosystem exports (`<ecosystem>/all.zip`), as its docs give it. */
export const OSV_EXPORT_URL = "https://osv-vulnerabilities.storage.googleapis.com";

/** The ecosystems whose exports a sync fetches when none is named: every one the gate reads versions in. */
export const SYNCED_ECOSYSTEMS: readonly Ecosystem[] = ["npm", "pypi", "go", "cargo", "rubygems", "composer"];

/** The JSON records of an export zip, by file name (folders inside the zip are kept out of the names). */
export function osvZipEntries(zip: Uint8Array, where: string): Array<{ name: string; text: string }> {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (f) => f.name.endsWith(".json") });
  } catch (error) {
    throw new GateError(
      "ADVISORIES_UNAVAILABLE",
      `${where} is not a zip archive: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const decoder = new TextDecoder();
  return Object.entries(files).map(([name, bytes]) => ({ name, text: decoder.decode(bytes) }));
}

/** What one ecosystem's sync did. */
export interface SyncedExport {
  ecosystem: string;
  records: number;
  bytes: number;
  folder: string;
}

/**
 * Fetches OSV's export of each ecosystem and unpacks it into `<dir>/<OSV ecosystem>/`, one JSON
 * file per advisory: the folder `GATE_OSV_DIR` reads. Each ecosystem is unpacked beside its folder
 * and swapped in whole, so a failed download or a damaged zip leaves the previous copy as it was.
 *
 * @example await syncOsvExports({ dir: "/srv/osv", ecosystems: ["npm"], fetch }) // [{ ecosystem: "npm", records: 5123, ... }]
 */
export async function syncOsvExports(opts: {
  dir: string;
  ecosystems: readonly Ecosystem[];
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  progress?: (line: string) => void;
}): Promise<SyncedExport[]> {
  const get = opts.fetch ?? fetch;
  const base = (opts.baseUrl ?? OSV_EXPORT_URL).replace(/\/+$/, "");
  await mkdir(opts.dir, { recursive: true });
  const out: SyncedExport[] = [];
  for (const ecosystem of opts.ecosystems) {
    const name = osvEcosystem(ecosystem);
    const url = `${base}/${encodeURIComponent(name)}/all.zip`;
    opts.progress?.(`${name}: fetching ${url}`);
    let zip: Uint8Array;
    try {
      const response = await get(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 600_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      zip = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw new GateError(
        "OSV_EXPORT_UNAVAILABLE",
        `cannot fetch OSV's ${name} export from ${url}: ${error instanceof Error ? error.message : String(error)}; the folder was left as it was`,
        { cause: error },
      );
    }
    let entries: Array<{ name: string; text: string }>;
    try {
      entries = osvZipEntries(zip, url);
    } catch (error) {
      // The same words as for GATE_OSV_DIR's zip, with the advice of a sync (its setting, not the lookup's).
      throw new GateError("OSV_EXPORT_UNAVAILABLE", `${messageOf(error)}; the folder was left as it was`, {
        cause: error,
      });
    }
    const folder = path.join(opts.dir, name);
    const fresh = `${folder}.sync-${process.pid}`;
    await rm(fresh, { recursive: true, force: true });
    await mkdir(fresh, { recursive: true });
    for (const e of entries) await writeFile(path.join(fresh, path.basename(e.name)), e.text);
    const old = `${folder}.old-${process.pid}`;
    await rename(folder, old).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    await rename(fresh, folder);
    await rm(old, { recursive: true, force: true });
    opts.progress?.(
      `${name}: ${entries.length.toLocaleString("en-US")} advisories, ${zip.byteLength.toLocaleString("en-US")} bytes`,
    );
    out.push({ ecosystem: name, records: entries.length, bytes: zip.byteLength, folder });
  }
  return out;
}
