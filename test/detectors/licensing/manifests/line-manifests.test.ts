import { describe, expect, it } from "vitest";
import { changedDependencies } from "../../../../src/ecosystems/common/changed-dependencies.js";
import { composerJsonParser } from "../../../../src/ecosystems/composer/composer-json.js";
import { gemfileParser, gemLine } from "../../../../src/ecosystems/rubygems/gemfile.js";
import { gemspecParser } from "../../../../src/ecosystems/rubygems/gemspec.js";
import {
  catalogUses,
  gradleConfigurationScope,
  gradleLine,
  gradleParser,
} from "../../../../src/ecosystems/maven/gradle.js";
import { catalogScopes, gradleCatalogParser } from "../../../../src/ecosystems/maven/gradle-catalog.js";
import { manifestParserFor } from "../../../../src/ecosystems/index.js";
import { dependencyLicensesDetector } from "../../../../src/detectors/licensing/dependency-licenses.js";
import { addedFilePatch, buildPr, detectContext, headFiles, offlineLicenses } from "../../pr-builder.js";

function file(filename: string, patch: string) {
  const f = buildPr({ files: [{ filename, patch }] }).files[0];
  if (!f) throw new Error("no file");
  return f;
}

describe("Gradle scripts", () => {
  it("reads string and map notation, Groovy and Kotlin, with the configuration's scope", () => {
    expect(gradleLine(`    implementation 'com.squareup.okhttp3:okhttp:4.12.0'`)).toEqual({
      name: "com.squareup.okhttp3:okhttp",
      version: "4.12.0",
      section: "implementation",
    });
    expect(
      gradleLine(`    testImplementation("org.junit.jupiter:junit-jupiter:5.10.2") { because("tests") }`),
    ).toMatchObject({
      name: "org.junit.jupiter:junit-jupiter",
      section: "testImplementation",
    });
    expect(
      gradleLine(`    implementation(platform("org.springframework.boot:spring-boot-dependencies:3.3.0"))`),
    ).toMatchObject({
      name: "org.springframework.boot:spring-boot-dependencies",
      version: "3.3.0",
    });
    expect(gradleLine(`    api group: 'org.apache.commons', name: 'commons-lang3', version: '3.14.0'`)).toEqual({
      name: "org.apache.commons:commons-lang3",
      version: "3.14.0",
      section: "api",
    });
    expect(
      gradleLine(`    runtimeOnly(group = "org.postgresql", name = "postgresql", version = "42.7.3")`),
    ).toMatchObject({
      name: "org.postgresql:postgresql",
      section: "runtimeOnly",
    });
    expect(gradleLine(`    implementation "androidx.core:core-ktx:$coreVersion@aar"`)).toMatchObject({
      version: "$coreVersion",
    });
    expect(gradleLine(`    testImplementation 'org.junit.jupiter:junit-jupiter'`)).toEqual({
      name: "org.junit.jupiter:junit-jupiter",
      section: "testImplementation",
    });
  });

  it("leaves out projects, files, catalog references, plugins and words that are not configurations", () => {
    for (const line of [
      `    implementation project(':core')`,
      `    implementation(libs.okhttp)`,
      `    implementation files('libs/vendor.jar')`,
      `    id("org.springframework.boot") version "3.3.0"`,
      `    println("a:b:c")`,
      `// implementation 'org.gpl:gpl-lib:1.0'`,
    ])
      expect(gradleLine(line), line).toBeUndefined();
  });

  it("test configurations, classpath and developmentOnly are dev; the rest runtime; a non-configuration is undefined", () => {
    const cases: [string, string | undefined][] = [
      ["implementation", "runtime"],
      ["api", "runtime"],
      ["compileOnly", "runtime"],
      ["runtimeOnly", "runtime"],
      ["debugImplementation", "runtime"],
      ["testImplementation", "dev"],
      ["testRuntimeOnly", "dev"],
      ["androidTestImplementation", "dev"],
      ["integrationTestImplementation", "dev"],
      ["testFixturesApi", "dev"],
      ["classpath", "dev"],
      ["developmentOnly", "dev"],
      ["println", undefined],
      ["latestImplementationx", undefined],
    ];
    for (const [config, scope] of cases) expect(gradleConfigurationScope(config), config).toBe(scope);
  });

  it("reads a settings script's catalog library, and every Gradle script name", () => {
    expect(gradleLine(`            library("okhttp", "com.squareup.okhttp3:okhttp:4.12.0")`)).toMatchObject({
      name: "com.squareup.okhttp3:okhttp",
      version: "4.12.0",
    });
    for (const path of ["build.gradle", "app/build.gradle.kts", "settings.gradle", "settings.gradle.kts"])
      expect(manifestParserFor(path)?.kind, path).toBe("Gradle");
  });

  it("a hunk adding a test dependency and a runtime one gives each its scope", () => {
    const patch = `@@ -10,3 +10,5 @@ dependencies {\n     implementation("io.ktor:ktor-server-netty:2.3.11")\n+    implementation("org.gpl:gpl-lib:1.0")\n+    testImplementation("org.gpl:gpl-test:1.0")\n }`;
    expect(
      changedDependencies(gradleParser, file("build.gradle.kts", patch)).map((c) => [c.name, c.scope, c.line]),
    ).toEqual([
      ["org.gpl:gpl-lib", "runtime", 11],
      ["org.gpl:gpl-test", "dev", 12],
    ]);
  });
});

const CATALOG = `[versions]
okhttp = "4.12.0"

[libraries]
okhttp = { module = "com.squareup.okhttp3:okhttp", version.ref = "okhttp" }
junit-jupiter = { group = "org.junit.jupiter", name = "junit-jupiter", version = "5.10.2" }
moshi = "com.squareup.moshi:moshi-kotlin:1.15.1"
strict = { module = "org.acme:strict", version = { strictly = "2.0.1" } }

[plugins]
kotlin-jvm = { id = "org.jetbrains.kotlin.jvm", version = "2.0.0" }
`;

describe("Gradle version catalogs", () => {
  it("reads [libraries] entries in every notation, not plugins or versions", () => {
    const patch = addedFilePatch(CATALOG.split("\n"));
    const f = { ...file("gradle/libs.versions.toml", patch), status: "added" as const };
    expect(changedDependencies(gradleCatalogParser, f, CATALOG).map((c) => [c.name, c.version, c.scope])).toEqual([
      ["com.squareup.okhttp3:okhttp", undefined, "runtime"],
      ["org.junit.jupiter:junit-jupiter", "5.10.2", "runtime"],
      ["com.squareup.moshi:moshi-kotlin", "1.15.1", "runtime"],
      ["org.acme:strict", "2.0.1", "runtime"],
    ]);
    expect(manifestParserFor("gradle/libs.versions.toml")?.kind).toBe("libs.versions.toml");
  });

  it("an entry every build script uses only in tests becomes dev; one used at runtime, or not at all, stays runtime", () => {
    const patch = `@@ -5,2 +5,3 @@\n okhttp = { module = "com.squareup.okhttp3:okhttp", version.ref = "okhttp" }\n+junit-jupiter = { group = "org.junit.jupiter", name = "junit-jupiter", version = "5.10.2" }\n moshi = "com.squareup.moshi:moshi-kotlin:1.15.1"`;
    const changes = changedDependencies(gradleCatalogParser, file("gradle/libs.versions.toml", patch), CATALOG);
    expect(
      catalogScopes(changes, CATALOG, [`dependencies {\n    testImplementation(libs.junit.jupiter)\n}`])[0]?.scope,
    ).toBe("dev");
    expect(
      catalogScopes(changes, CATALOG, [
        `testImplementation(libs.junit.jupiter)`,
        `implementation(libs.junit.jupiter)`,
      ])[0]?.scope,
    ).toBe("runtime");
    expect(catalogScopes(changes, CATALOG, [])[0]?.scope).toBe("runtime");
    expect(catalogUses(`    implementation(platform(libs.okhttp.bom))\n    kapt libs.moshi`)).toEqual(
      new Map([
        ["okhttp.bom", "runtime"],
        ["moshi", "runtime"],
      ]),
    );
  });

  it("the detector reads the changed build scripts and the root one beside the catalog's gradle/ folder", async () => {
    const patch = `@@ -5,2 +5,3 @@\n okhttp = { module = "com.squareup.okhttp3:okhttp", version.ref = "okhttp" }\n+junit-jupiter = { group = "org.junit.jupiter", name = "junit-jupiter", version = "5.10.2" }\n moshi = "com.squareup.moshi:moshi-kotlin:1.15.1"`;
    const licenses = offlineLicenses({ "maven:org.junit.jupiter:junit-jupiter": { license: "GPL-3.0-only" } });
    const pr = buildPr({ files: [{ filename: "android/gradle/libs.versions.toml", patch }] });
    const testOnly = headFiles({
      "android/gradle/libs.versions.toml": CATALOG,
      "android/build.gradle.kts": "dependencies {\n    testImplementation(libs.junit.jupiter)\n}\n",
    });
    const dev = await dependencyLicensesDetector.detect(detectContext(pr, { licenses, head: testOnly }));
    expect(dev.map((f) => [f.policy, f.blocking])).toEqual([["LIC-01", false]]);
    const unseen = headFiles({ "android/gradle/libs.versions.toml": CATALOG });
    const runtime = await dependencyLicensesDetector.detect(detectContext(pr, { licenses, head: unseen }));
    expect(runtime.map((f) => [f.policy, f.blocking])).toEqual([["LIC-02", true]]);
  });
});

describe("composer.json", () => {
  const HEAD = `{
    "require": {
        "php": "^8.2",
        "ext-mbstring": "*",
        "lib-icu": ">=60",
        "composer-runtime-api": "^2.2",
        "laravel/framework": "^11.9",
        "acme/gpl-lib": "1.0.0"
    },
    "require-dev": {
        "phpunit/phpunit": "^11.2"
    },
    "scripts": {
        "test": "phpunit"
    }
}`;

  it("require is runtime, require-dev dev; platform entries and scripts are not packages", () => {
    const patch = addedFilePatch(HEAD.split("\n"));
    const f = { ...file("composer.json", patch), status: "added" as const };
    expect(changedDependencies(composerJsonParser, f, HEAD).map((c) => [c.name, c.version, c.scope])).toEqual([
      ["laravel/framework", "^11.9", "runtime"],
      ["acme/gpl-lib", "1.0.0", "runtime"],
      ["phpunit/phpunit", "^11.2", "dev"],
    ]);
  });

  it("a hunk that does not show its object counts a versioned package, not a script; names compare without case", () => {
    const patch = `@@ -7,2 +7,4 @@\n         "laravel/framework": "^11.9",\n+        "Acme/Other": "^2.0",\n+        "build": "php artisan build",\n         "acme/gpl-lib": "1.0.0"`;
    expect(changedDependencies(composerJsonParser, file("composer.json", patch)).map((c) => c.name)).toEqual([
      "Acme/Other",
    ]);
    expect(composerJsonParser.normalizeName("Acme/Other")).toBe("acme/other");
  });
});

describe("Gemfile", () => {
  const GEMFILE = `source "https://rubygems.org"

gem "rails", "~> 7.1.3"
gem "pg", ">= 1.5", "< 2"
gem "rspec-rails", group: :test
gem "local_tools", path: "vendor/local_tools"

group :development, :test do
  gem "pry-byebug"
  platforms :mri do
    gem "debug", "1.9.2"
  end
  gem "rubocop", require: false
end

group :production, :development do
  gem "lograge"
end

gem "sidekiq", groups: [:development, :test]
gem 'puma', '= 6.4.2'
`;

  it("reads gems with their requirements, and the groups of options and blocks (nested blocks too)", () => {
    const patch = addedFilePatch(GEMFILE.split("\n"));
    const f = { ...file("Gemfile", patch), status: "added" as const };
    expect(changedDependencies(gemfileParser, f, GEMFILE).map((c) => [c.name, c.version, c.scope])).toEqual([
      ["rails", "~> 7.1.3", "runtime"],
      ["pg", ">= 1.5, < 2", "runtime"],
      ["rspec-rails", undefined, "dev"],
      ["pry-byebug", undefined, "dev"],
      ["debug", "1.9.2", "dev"],
      ["rubocop", undefined, "dev"],
      ["lograge", undefined, "runtime"],
      ["sidekiq", undefined, "dev"],
      ["puma", "6.4.2", "runtime"],
    ]);
  });

  it("a hunk inside a group it does not show is runtime (fail closed) unless the head file shows the group", () => {
    const patch = `@@ -12,2 +12,3 @@\n   end\n+  gem "gpl-helper", "0.1.0"\n   gem "rubocop", require: false`;
    expect(changedDependencies(gemfileParser, file("Gemfile", patch))[0]?.scope).toBe("runtime");
    const head = GEMFILE.replace('  gem "rubocop"', '  gem "gpl-helper", "0.1.0"\n  gem "rubocop"');
    expect(changedDependencies(gemfileParser, file("Gemfile", patch), head)[0]?.scope).toBe("dev");
    expect(gemLine(`gem "x", git: "https://example.com/x.git" # a fork`)).toEqual({ name: "x" });
  });
});

describe("gemspec", () => {
  it("add_dependency and add_runtime_dependency are runtime, add_development_dependency dev, any receiver", () => {
    const patch = [
      "@@ -10,2 +10,6 @@",
      "   spec.files = Dir['lib/**/*.rb']",
      '+  spec.add_dependency "rack", ">= 2.2", "< 4"',
      "+  s.add_runtime_dependency('nokogiri', '~> 1.16')",
      '+  spec.add_development_dependency "rspec", "3.13.0"',
      '+  # spec.add_dependency "gpl-lib"',
      " end",
    ].join("\n");
    expect(
      changedDependencies(gemspecParser, file("acme.gemspec", patch)).map((c) => [c.name, c.version, c.scope]),
    ).toEqual([
      ["rack", ">= 2.2, < 4", "runtime"],
      ["nokogiri", "~> 1.16", "runtime"],
      ["rspec", "3.13.0", "dev"],
    ]);
    expect(manifestParserFor("gems/acme/acme.gemspec")?.kind).toBe("gemspec");
  });
});
