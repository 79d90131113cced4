import { lineManifestReader } from "../common/manifest-pins.js";
import { composerJsonParser } from "./composer-json.js";

/** composer.json: `require` and `require-dev` entries that pin an exact version (`7.4.4`, `v7.4.4`, `=7.4.4`). */
export const composerJsonReader = lineManifestReader(composerJsonParser);
