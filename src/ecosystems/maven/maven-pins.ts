import { documentManifestReader, lineManifestReader } from "../common/manifest-pins.js";
import { gradleParser } from "./gradle.js";
import { gradleCatalogParser } from "./gradle-catalog.js";
import { mavenPomParser } from "./maven-pom.js";

/**
 * Maven `pom.xml`: each dependency the change adds or changes at the `<version>` it pins, with
 * `${property}` filled in from the same pom's `<properties>` and a missing version taken from its
 * `<dependencyManagement>` (the licence detector's own reading); ranges and properties the pom
 * does not define are not versions.
 *
 * @example mavenPomReader.read(file, pomText) // { pinned: [{ name: "org.apache.logging.log4j:log4j-core", version: "2.14.1", ... }] }
 */
export const mavenPomReader = documentManifestReader(mavenPomParser);

/** Gradle scripts: `implementation "g:a:v"` and the map notation, at the version they name. */
export const gradleReader = lineManifestReader(gradleParser);

/** Gradle version catalogs: `[libraries]` entries that name a version inline (`version.ref` is not followed). */
export const gradleCatalogReader = lineManifestReader(gradleCatalogParser);
