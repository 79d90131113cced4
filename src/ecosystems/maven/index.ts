import { createDepsDevResolver } from "../../licenses/deps-dev-resolver.js";
import type { Ecosystem } from "../ecosystem.js";
import { versionOrder } from "../common/version-order.js";
import { gradleParser } from "./gradle.js";
import { gradleCatalogParser } from "./gradle-catalog.js";
import { gradleCatalogReader, gradleReader, mavenPomReader } from "./maven-pins.js";
import { mavenPomParser } from "./maven-pom.js";

/** Maven: pom.xml, Gradle scripts and version catalogs; Maven's ComparableVersion; deps.dev's API for licences. */
export const maven: Ecosystem = {
  name: "maven",
  osvName: "Maven",
  manifestParsers: [mavenPomParser, gradleParser, gradleCatalogParser],
  versionReaders: [mavenPomReader, gradleReader, gradleCatalogReader],
  versionOrder: () => versionOrder("maven"),
  licenseRegistry: {
    urlSetting: "mavenLicenseUrl",
    create: (http, baseUrl) => createDepsDevResolver("maven", { ...http, ...(baseUrl ? { baseUrl } : {}) }),
  },
};
