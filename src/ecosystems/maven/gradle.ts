import {
  type DeclaredDependency,
  type DependencyScope,
  type ManifestParser,
  scopesByLine,
} from "../common/manifest-parser.js";

/** Gradle build and settings scripts, Groovy or Kotlin DSL. */
const GRADLE_SCRIPT = /(?:^|\/)(?:build|settings)\.gradle(?:\.kts)?$/;

/** A Gradle project's own build scripts, Kotlin first, as they stand at its root. */
export const GRADLE_BUILD_SCRIPTS: readonly string[] = ["build.gradle.kts", "build.gradle"];

/** The dependency configurations Gradle's Java, Android, Kotlin and Spring plugins define. */
const BASE_CONFIG =
  /^(?:implementation|api|compile|runtime|compileOnly|runtimeOnly|compileOnlyApi|annotationProcessor|kapt|ksp|classpath|developmentOnly|providedCompile|providedRuntime)$/;
/** `<sourceSet or variant>Implementation` and the like: `testImplementation`, `debugApi`, `integrationTestRuntimeOnly`. */
const PREFIXED_CONFIG =
  /^([a-z][A-Za-z0-9]*?)(Implementation|Api|Compile|Runtime|CompileOnly|RuntimeOnly|CompileOnlyApi|AnnotationProcessor)$/;
/** Source sets and configurations for tests: `test`, `androidTest`, `testFixtures`, `integrationTest`, `kaptTest`. */
const TEST_PREFIX = /^(?:test|androidTest|testFixtures|[a-z][A-Za-z0-9]*Test)$/;

/** `implementation("g:a:v")`, `api 'g:a:v@aar'`, `implementation(platform("g:a:v"))`, `classpath "g:a:v"`. */
const STRING_NOTATION =
  /^\s*([a-z][A-Za-z0-9]*)\s*\(?\s*(?:(?:platform|enforcedPlatform|testFixtures)\s*\(\s*)?(["'])([^"'\s:]+):([^"'\s:@]+)(?::([^"'\s:@]+))?(?::[^"'\s@]+)?(?:@\w+)?\2/;
/** `implementation group: 'g', name: 'a', version: 'v'` (Groovy) or `implementation(group = "g", name = "a", version = "v")` (Kotlin). */
const MAP_NOTATION =
  /^\s*([a-z][A-Za-z0-9]*)\s*\(?\s*group\s*[:=]\s*(["'])([^"']+)\2\s*,\s*name\s*[:=]\s*(["'])([^"']+)\4(?:\s*,\s*version\s*[:=]\s*(["'])([^"']+)\6)?/;
/** A settings script's version catalog: `library("okhttp", "com.squareup.okhttp3:okhttp:4.12.0")`. */
const CATALOG_LIBRARY = /^\s*library\s*\(\s*(["'])[^"']+\1\s*,\s*(["'])([^"'\s:]+):([^"'\s:]+)(?::([^"'\s:]+))?\2/;

/**
 * Whether a Gradle configuration name is one that declares dependencies, and its scope:
 * test configurations (`testImplementation`, `testRuntimeOnly`, `androidTestImplementation`,
 * `integrationTestImplementation`, ...) do not ship (dev), nor do `classpath` (the build script's
 * own plugins, like setup_requires) and Spring Boot's `developmentOnly`; every other configuration
 * (`implementation`, `api`, `runtimeOnly`, `compileOnly`, `annotationProcessor`, `debugImplementation`,
 * ...) is runtime (compile-only APIs are compiled into the product's classes and often ship with
 * it: fail closed). Undefined for a word that is not a configuration (`println`, `id`).
 *
 * @example gradleConfigurationScope("androidTestImplementation") // "dev"
 */
export function gradleConfigurationScope(config: string): DependencyScope | undefined {
  if (config === "classpath" || config === "developmentOnly") return "dev";
  if (config === "testCompile" || config === "testRuntime") return "dev";
  if (BASE_CONFIG.test(config)) return "runtime";
  const prefixed = PREFIXED_CONFIG.exec(config);
  if (prefixed?.[1] === undefined) return undefined;
  return TEST_PREFIX.test(prefixed[1]) ? "dev" : "runtime";
}

function declared(config: string, group: string, artifact: string, version: string | undefined): DeclaredDependency {
  return { name: `${group}:${artifact}`, section: config, ...(version !== undefined ? { version } : {}) };
}

/**
 * The dependency one Gradle script line declares, with its configuration as the section.
 *
 * @example gradleLine(`    testImplementation("org.junit.jupiter:junit-jupiter:5.10.2")`) // { name: "org.junit.jupiter:junit-jupiter", version: "5.10.2", section: "testImplementation" }
 */
export function gradleLine(text: string): DeclaredDependency | undefined {
  const line = text.replace(/\s\/\/.*$/, "");
  const s = STRING_NOTATION.exec(line);
  if (s?.[1] !== undefined && s[3] !== undefined && s[4] !== undefined && gradleConfigurationScope(s[1])) {
    return declared(s[1], s[3], s[4], s[5]);
  }
  const m = MAP_NOTATION.exec(line);
  if (m?.[1] !== undefined && m[3] !== undefined && m[5] !== undefined && gradleConfigurationScope(m[1])) {
    return declared(m[1], m[3], m[5], m[7]);
  }
  const lib = CATALOG_LIBRARY.exec(line);
  if (lib?.[3] !== undefined && lib[4] !== undefined) return declared("implementation", lib[3], lib[4], lib[5]);
  return undefined;
}

/**
 * Gradle `build.gradle` / `build.gradle.kts` (and `settings.gradle[.kts]`, whose version catalog
 * `library(...)` entries count as runtime): each dependency line names its configuration, which
 * gives its scope (see `gradleConfigurationScope`), in string notation `"group:artifact:version"`
 * or map notation `group:, name:, version:`. A project (`project(":core")`), a file, or a catalog
 * reference (`libs.okhttp`: the catalog's own lines are read in libs.versions.toml) names no
 * registry coordinates here. The name is Maven's `groupId:artifactId`.
 *
 * @example gradleParser.parseLine(`implementation 'com.squareup.okhttp3:okhttp:4.12.0'`, "(file)") // [{ name: "com.squareup.okhttp3:okhttp", version: "4.12.0", section: "implementation" }]
 */
export const gradleParser: ManifestParser = {
  kind: "Gradle",
  ecosystem: "maven",
  matches: (path) => GRADLE_SCRIPT.test(path),
  sectionAtStart: () => "(file)",
  nextSection: (section) => section,
  parseLine(text) {
    const dep = gradleLine(text);
    return dep ? [dep] : [];
  },
  scopeOf: (section) => (section === undefined ? undefined : gradleConfigurationScope(section)),
  readHead: (text, path) => scopesByLine(gradleParser, text, path),
  normalizeName: (name) => name.trim(),
};

/** `implementation(libs.okhttp.logging)`, `testImplementation libs.junit.jupiter`, `implementation(platform(libs.boms.spring))`. */
const CATALOG_USE = /^\s*([a-z][A-Za-z0-9]*)\s*\(?\s*(?:(?:platform|enforcedPlatform)\s*\(\s*)?libs\.([A-Za-z0-9_.]+)/;

/**
 * How a build script uses version-catalog entries: each `libs.<accessor>` with the scopes of the
 * configurations that name it (runtime wins).
 *
 * @example catalogUses(`testImplementation(libs.junit.jupiter)`) // Map { "junit.jupiter" => "dev" }
 */
export function catalogUses(text: string): Map<string, DependencyScope> {
  const out = new Map<string, DependencyScope>();
  for (const line of text.split("\n")) {
    const m = CATALOG_USE.exec(line.replace(/\s\/\/.*$/, ""));
    const scope = m?.[1] === undefined ? undefined : gradleConfigurationScope(m[1]);
    if (m?.[2] === undefined || scope === undefined) continue;
    const accessor = m[2].toLowerCase();
    if (out.get(accessor) !== "runtime") out.set(accessor, scope);
  }
  return out;
}
