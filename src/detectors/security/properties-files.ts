import { propertiesFormat } from "../../config-formats/properties.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { headText } from "../code/head-text.js";
import type { DetectContext } from "../detector.js";
import type { PropertyValues } from "./algorithm-value.js";

/** A properties file named in code: `getResourceAsStream("benchmark.properties")`, `new FileInputStream("conf/app.properties")`. */
const NAMED = /["'`]\/?([\w./-]*\.properties)["'`]/g;
/** Where a build puts a resource named by its bare name, tried in this order. */
const RESOURCE_FOLDERS = ["", "src/main/resources/", "src/test/resources/", "resources/", "config/", "conf/"];
const MAX_NAMES = 10;

/**
 * The keys and values of the properties files the changed code names, read from the review's head
 * snapshot (a file the pull request changes is read there too): the file as named, under the usual
 * resource folders, or beside the code. A name no path of the snapshot has is listed as missing, so
 * that a finding can say it used a lookup's default instead.
 *
 * @example (await propertiesOfReview(ctx)).values.get("hashAlg1") // { value: "MD5", file: "src/main/resources/benchmark.properties" }
 */
export async function propertiesOfReview(ctx: DetectContext): Promise<PropertyValues> {
  const names = new Map<string, ChangedFile>();
  for (const file of ctx.pr.files) {
    if (file.status === "removed" || !file.patch || !file.patch.includes(".properties")) continue;
    for (const m of headText(file).text.matchAll(NAMED)) {
      if (m[1] && names.size < MAX_NAMES && !names.has(m[1])) names.set(m[1], file);
    }
  }
  if (names.size === 0) return { values: new Map(), missing: [] };
  const values = new Map<string, { value: string; file: string }>();
  const missing: string[] = [];
  // A snapshot that cannot give one path gives none: the other places are not tried (each would be a gap).
  let unavailable = false;
  for (const [name, file] of names) {
    const folder = file.filename.includes("/") ? file.filename.slice(0, file.filename.lastIndexOf("/") + 1) : "";
    const inPr = ctx.pr.files.find(
      (f) => f.status !== "removed" && (f.filename === name || f.filename.endsWith(`/${name}`)),
    );
    const paths = [...(inPr ? [inPr.filename] : []), ...RESOURCE_FOLDERS.map((d) => d + name), folder + name];
    let found = false;
    for (const path of new Set(paths)) {
      if (unavailable) break;
      const text = await readHead(ctx, path);
      if (text === FAILED) unavailable = true;
      if (typeof text !== "string") continue;
      for (const entry of propertiesFormat.read(text.split("\n"))) {
        const key = entry.path.join(".");
        if (!entry.commented && !values.has(key)) values.set(key, { value: entry.value, file: path });
      }
      found = true;
      break;
    }
    if (!found) missing.push(name);
  }
  return { values, missing };
}

const FAILED = Symbol("snapshot failed");

async function readHead(ctx: DetectContext, path: string): Promise<string | undefined | typeof FAILED> {
  try {
    return await ctx.head.read(path);
  } catch {
    return FAILED; // the snapshot could not give it: the lookup's default is used and said so
  }
}
