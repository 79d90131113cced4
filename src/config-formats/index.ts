import { dockerfileFormat } from "./dockerfile.js";
import { dotenvFormat } from "./dotenv.js";
import type { ConfigEntry, ConfigFormat } from "./entry.js";
import { hclFormat } from "./hcl.js";
import { iniFormat, tomlFormat } from "./ini.js";
import { jsonFormat } from "./json.js";
import { markdownFormat } from "./markdown.js";
import { propertiesFormat } from "./properties.js";
import { xmlFormat } from "./xml.js";
import { yamlFormat } from "./yaml.js";

export type { ConfigEntry, ConfigFormat } from "./entry.js";

/**
 * Every configuration format the gate reads by its structure, one line each. A new format is a
 * file beside these exporting a `ConfigFormat`, and one line here; the contract test
 * (`test/config-formats/contract.test.ts`) then runs over it.
 */
export const CONFIG_FORMATS: readonly ConfigFormat[] = [
  jsonFormat,
  yamlFormat,
  tomlFormat,
  iniFormat,
  propertiesFormat,
  xmlFormat,
  dotenvFormat,
  hclFormat,
  dockerfileFormat,
  markdownFormat,
];

/**
 * The configuration format of a path, or undefined for code, prose and anything else.
 *
 * @example configFormatOf("config/appsettings.Production.json")?.id // "json"
 */
export function configFormatOf(path: string): ConfigFormat | undefined {
  if (/\.tf\.json$/i.test(path)) return jsonFormat;
  return CONFIG_FORMATS.find((f) => f.matches(path));
}

/**
 * A file's entries read by its format, or undefined when the gate reads no format of that name.
 *
 * @example readConfig(".env", ["DB_PASSWORD=hunter22"])?.[0]?.value // "hunter22"
 */
export function readConfig(path: string, rows: readonly string[]): ConfigEntry[] | undefined {
  return configFormatOf(path)?.read(rows);
}
