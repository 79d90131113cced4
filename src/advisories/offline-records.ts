import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { describeIssues, GateError } from "../domain/errors.js";
import { normalizePackageName } from "../licenses/offline-resolver.js";
import { osvZipEntries } from "./osv-export.js";
import { gateEcosystem, osvEcosystem, OsvRecordSchema, type OsvRecord } from "./osv-record.js";
import type { RecordSource } from "./record-source.js";

function keyOf(osvEco: string, name: string): string | undefined {
  const eco = gateEcosystem(osvEco);
  return eco === undefined ? undefined : `${osvEco}:${normalizePackageName(eco, name)}`;
}

/**
 * A record source over records held in memory, indexed by ecosystem and package name, loaded on
 * first use. A load that fails fails every lookup (and is tried again by the next one).
 *
 * @example indexedRecords("the fixture's osv.json", async () => records)
 */
export function indexedRecords(name: string, load: () => Promise<OsvRecord[]>): RecordSource {
  let index: Promise<Map<string, OsvRecord[]>> | undefined;
  const build = async () => {
    const byKey = new Map<string, OsvRecord[]>();
    for (const record of await load()) {
      const keys = new Set((record.affected ?? []).map((a) => a.package && keyOf(a.package.ecosystem, a.package.name)));
      for (const key of keys) if (key) byKey.set(key, [...(byKey.get(key) ?? []), record]);
    }
    return byKey;
  };
  return {
    name,
    async records(queries) {
      index ??= build().catch((error: unknown) => {
        index = undefined;
        throw error;
      });
      const byKey = await index;
      return queries.map(
        (q) => byKey.get(`${osvEcosystem(q.ecosystem)}:${normalizePackageName(q.ecosystem, q.name)}`) ?? [],
      );
    },
  };
}

function parseRecords(file: string, text: string, many: boolean): OsvRecord[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GateError("ADVISORIES_UNAVAILABLE", `${file} is not JSON`, { cause: error });
  }
  const parsed = (many ? z.array(OsvRecordSchema) : OsvRecordSchema.transform((r) => [r])).safeParse(json);
  if (!parsed.success) {
    throw new GateError(
      "ADVISORIES_UNAVAILABLE",
      `${file} is not ${many ? "a list of OSV records" : "an OSV record"}: ${describeIssues(parsed.error, { max: 1 })}`,
    );
  }
  return parsed.data;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

/**
 * A fixture's `osv.json` (an array of OSV records, docs/fixtures.md): a missing file means no
 * advisories; a malformed one fails every lookup, naming the file.
 *
 * @example advisorySourceOver(fixtureOsvRecords("fixtures/018_vulnerable_dependency/osv.json"))
 */
export function fixtureOsvRecords(file: string): RecordSource {
  return indexedRecords("the fixture's osv.json", async () => {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if (isMissing(error)) return [];
      throw new GateError("ADVISORIES_UNAVAILABLE", `cannot read ${file}`, { cause: error });
    }
    return parseRecords(file, text, true);
  });
}

/** Every `*.json` under a folder (an unpacked export keeps one folder per ecosystem, or none). */
async function jsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".json"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** The records of an export zip itself (`all.zip`, as OSV publishes it). */
async function zipRecords(file: string): Promise<OsvRecord[]> {
  let zip: Buffer;
  try {
    zip = await readFile(file);
  } catch (error) {
    throw new GateError("ADVISORIES_UNAVAILABLE", `cannot read ${file}`, { cause: error });
  }
  return osvZipEntries(zip, file).flatMap((e) => parseRecords(e.name, e.text, false));
}

/**
 * An offline OSV database (`GATE_OSV_DIR`): a folder of OSV records, one JSON file per advisory,
 * as OSV's per-ecosystem export (`all.zip`) unpacks (`gate osv sync` fills one), or such a zip
 * itself. Read whole on first use; a folder that cannot be read, or a file that is not an OSV
 * record, fails every lookup naming it (an incomplete database cannot say a version is safe).
 *
 * @example advisorySourceOver(osvDirRecords("/srv/osv"))
 */
export function osvDirRecords(dir: string): RecordSource {
  if (dir.toLowerCase().endsWith(".zip"))
    return indexedRecords(`the OSV export ${dir} (GATE_OSV_DIR)`, () => zipRecords(dir));
  return indexedRecords(`the OSV folder ${dir} (GATE_OSV_DIR)`, async () => {
    let files: string[];
    try {
      files = await jsonFiles(dir);
    } catch (error) {
      throw new GateError(
        "ADVISORIES_UNAVAILABLE",
        `cannot read the folder: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    const out: OsvRecord[] = [];
    for (const file of files) out.push(...parseRecords(path.relative(dir, file), await readFile(file, "utf8"), false));
    return out;
  });
}
