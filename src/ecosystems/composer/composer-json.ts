import { jsonSectionsParser } from "../common/json-sections.js";
import { baseName, type ManifestParser } from "../common/manifest-parser.js";

/**
 * Platform requirements, not Packagist packages: PHP itself, its extensions and libraries, and
 * Composer's own APIs.
 */
const PLATFORM =
  /^(?:php(?:-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer|composer-plugin-api|composer-runtime-api)$/i;
/** A Packagist name: `vendor/package`. */
const PACKAGE_NAME = /^[a-z0-9](?:[_.-]?[a-z0-9]+)*\/[a-z0-9](?:(?:[_.]|-{1,2})?[a-z0-9]+)*$/i;
/** A value that reads as a Composer constraint (`^3.6`, `~2.0`, `>=1.2 <2`, `3.*`, `dev-main`, `*`). */
const CONSTRAINT = /^(?:[~^<>=!]|v?\d|\*|dev-|@)/;

/**
 * composer.json: `require` ships (runtime), `require-dev` does not (dev). The platform entries
 * (`php`, `ext-*`, `lib-*`, `composer-*-api`) are not packages and are skipped.
 *
 * @example composerJsonParser.parseLine(`        "monolog/monolog": "^3.6",`, "require") // [{ name: "monolog/monolog", version: "^3.6" }]
 */
export const composerJsonParser: ManifestParser = jsonSectionsParser({
  kind: "composer.json",
  ecosystem: "composer",
  matches: (path) => baseName(path) === "composer.json" && !path.split("/").includes("vendor"),
  sections: { require: "runtime", "require-dev": "dev" },
  entry: (key, value) => (PLATFORM.test(key) || !PACKAGE_NAME.test(key) ? undefined : { name: key, version: value }),
  looseEntry: (dep) => CONSTRAINT.test(dep.version ?? ""),
});
