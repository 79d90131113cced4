import picomatch from "picomatch";
import type { LicenseAction } from "../../gate-file/schema.js";
import { classifyLicense } from "../../licenses/license-policy.js";
import type { DetectContext, Detector } from "../detector.js";
import type { Finding } from "../../domain/finding.js";
import type { LicenseLookup } from "../../domain/license-resolver.js";
import type { ChangedFile } from "../../domain/pull-request.js";
import { lockfilesBeside, manifestParserFor, pinnedVersion } from "../../ecosystems/index.js";
import { GRADLE_BUILD_SCRIPTS, gradleParser } from "../../ecosystems/maven/gradle.js";
import { catalogScopes, gradleCatalogParser } from "../../ecosystems/maven/gradle-catalog.js";
import { changesThrough, documentChangesThrough } from "../../ecosystems/dependency-reading.js";
import type { DependencyChange } from "../../ecosystems/common/changed-dependencies.js";
import {
  isDocumentParser,
  type DocumentManifestParser,
  type ManifestParser,
} from "../../ecosystems/common/manifest-parser.js";

/** The lookup's answer; a resolver that throws anyway is a failed lookup, never an unknown licence. */
async function lookup(ctx: DetectContext, change: DependencyChange, version?: string): Promise<LicenseLookup> {
  try {
    return await ctx.licenses.lookup(change.ecosystem, change.name, version);
  } catch (error) {
    return {
      status: "failed",
      registry: `the ${change.ecosystem} registry`,
      reason: error instanceof Error ? error.message : String(error),
    };
  }
}

async function readQuietly(ctx: DetectContext, path: string): Promise<string | undefined> {
  try {
    return await ctx.head.read(path);
  } catch {
    return undefined; // no snapshot: fall back to the sections the hunks show
  }
}

function describe(change: DependencyChange): string {
  const version = change.version ? `@${change.version}` : "";
  const how =
    change.kind === "added"
      ? "added"
      : change.kind === "scope_changed"
        ? `moved to ${change.scope}`
        : `changed from ${change.previousVersion ?? "an earlier version"}`;
  return `${change.name}${version} (${change.ecosystem}, ${change.scope} dependency, ${how})`;
}

/**
 * A finding about a dependency. Its `subject` is the licence the lookup gave for the version this
 * head asks for (its SPDX expression as the licence rules read it, or that it has none): with
 * the package and version it makes the fingerprint, so a decision on a GPL-2.0 dependency never
 * carries to the same dependency under AGPL-3.0 or SSPL.
 */
function finding(
  change: DependencyChange,
  policy: "LIC-01" | "LIC-02",
  licence: string,
  message: string,
  blocking = policy === "LIC-02",
): Finding {
  return {
    specialty: "licensing",
    policy,
    severity: blocking ? "high" : "medium",
    blocking,
    needs_more_context: false,
    file: change.file,
    line: change.line,
    message,
    source: "detector",
    detector: "dependency-licenses",
    package: { name: change.name, ...(change.version !== undefined ? { version: change.version } : {}) },
    subject: `licence=${licence}`,
  };
}

/** Your own packages (`licenses.own_packages`): no licence check. */
function isOwnPackage(ctx: DetectContext, name: string): boolean {
  const globs = ctx.licenseRules.own_packages;
  return globs.length > 0 && picomatch(globs, { dot: true, noextglob: true, nocase: true })(name);
}

/** A licence rule's action as a LIC-01 finding (or none, for `allow`). */
function byAction(change: DependencyChange, licence: string, action: LicenseAction, message: string, rule: string) {
  if (action === "allow") return undefined;
  const blocking = action === "block";
  return finding(change, "LIC-01", licence, blocking ? `${message} (${rule}: block)` : message, blocking);
}

/** The head's lockfiles as one detection reads them: each read and parsed once (undefined: none, or not JSON). */
type HeadTexts = (path: string) => Promise<unknown>;

/** A head lockfile's text as JSON, through the review's one reading when there is one; undefined when it is not JSON. */
function parsedJson(ctx: DetectContext, path: string, text: string): unknown {
  try {
    return ctx.dependencies?.json ? ctx.dependencies.json(path, text) : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The exact version the head's lockfile beside the manifest pins for this dependency, if any. */
async function resolvedVersion(change: DependencyChange, heads: HeadTexts): Promise<string | undefined> {
  for (const lock of lockfilesBeside(change.ecosystem, change.file)) {
    const version = pinnedVersion(change.ecosystem, await heads(lock), change.name);
    if (version !== undefined) return version;
  }
  return undefined;
}

/**
 * LIC-02 for a copyleft runtime dependency; LIC-01 for a denied licence (blocking), and for an
 * unknown or not-allowed one as the configuration's rules for its kind (runtime, development)
 * say; nothing for an allowed one or one of your own packages. A failed lookup gives no finding
 * here: the resolver recorded the failure, and the review goes to a person for it
 * (`lookup_failed`), since the licence is not known to be anything.
 */
async function judge(ctx: DetectContext, change: DependencyChange, heads: HeadTexts): Promise<Finding | undefined> {
  if (isOwnPackage(ctx, change.name)) return undefined;
  const kind = change.scope === "runtime" ? "runtime" : "development";
  const rules = ctx.licenseRules[kind];
  // The licence of the version this head installs (its lockfile's), not one read for the range: a
  // lockfile-only move to a version under another licence is another finding.
  const answer = await lookup(ctx, change, (await resolvedVersion(change, heads)) ?? change.version);
  if (answer.status === "failed") return undefined;
  const license = answer.status === "found" ? answer.license : undefined;
  const cls = classifyLicense(license, rules);
  const licence = license === undefined ? "(none)" : cls.normalized;
  const what = describe(change);
  if (cls.copyleft && change.scope === "runtime") {
    // A bump of a dependency that already shipped under copyleft adds no new obligation: LIC-01 only.
    // Only a registry's answer can say it did: a failed lookup of the old version leaves the block.
    const before =
      change.kind === "version_changed" && change.previousScope === "runtime"
        ? await lookup(ctx, change, change.previousVersion)
        : undefined;
    const wasCopyleftRuntime = before?.status === "found" && classifyLicense(before.license, rules).copyleft;
    if (!wasCopyleftRuntime) {
      return finding(
        change,
        "LIC-02",
        licence,
        `${what} is licensed ${cls.normalized}, a strong copyleft licence with no permissive choice; ` +
          "shipping it would put the product under its terms. Use a permissively licensed alternative, " +
          "move it to development dependencies if it does not ship, or get a licence exception.",
      );
    }
  }
  if (cls.denied) {
    return finding(
      change,
      "LIC-01",
      licence,
      `${what} is licensed ${cls.normalized}, which the configuration denies (licenses.deny); ` +
        "use another package, or get an exception.",
      true,
    );
  }
  if (cls.allowed) return undefined;
  if (!cls.parsed) {
    const why =
      answer.status === "unknown" && license === undefined
        ? "has no known licence (the registry does not know the package, or gives no licence)"
        : `has licence "${license}", which is not an SPDX expression`;
    // Only a dependency new to this kind is asked about; a version bump of one already there is noted.
    const action = change.kind === "version_changed" && rules.unknown === "block" ? "warn" : rules.unknown;
    return byAction(
      change,
      licence,
      action,
      `${what} ${why}; check its licence before merging.`,
      `licenses.${kind}.unknown`,
    );
  }
  return byAction(
    change,
    licence,
    rules.not_allowed,
    `${what} is licensed ${cls.normalized}, which is not on the allow-list; check its licence before merging.`,
    `licenses.${kind}.not_allowed`,
  );
}

/**
 * The build scripts that may use a version catalog's entries: the Gradle scripts this PR changes,
 * and the root project's, beside the catalog's `gradle/` folder.
 */
async function gradleScripts(ctx: DetectContext, catalog: string): Promise<string[]> {
  const root =
    catalog.includes("/gradle/") || catalog.startsWith("gradle/") ? catalog.replace(/gradle\/[^/]+$/, "") : "";
  const paths = new Set(
    ctx.pr.files.filter((f) => f.status !== "removed" && gradleParser.matches(f.filename)).map((f) => f.filename),
  );
  for (const name of GRADLE_BUILD_SCRIPTS) paths.add(`${root}${name}`);
  const texts = await Promise.all([...paths].map((p) => readQuietly(ctx, p)));
  return texts.filter((t): t is string => t !== undefined);
}

/** The dependency changes of one manifest, or undefined when it could not be read (recorded as unread). */
async function changesOf(
  ctx: DetectContext,
  parser: ManifestParser | DocumentManifestParser,
  file: ChangedFile,
): Promise<DependencyChange[] | undefined> {
  const headText = await readQuietly(ctx, file.filename);
  if (isDocumentParser(parser)) {
    const got = documentChangesThrough(ctx.dependencies, parser, file, headText);
    if ("unread" in got) {
      ctx.notRead(file.filename, got.unread);
      return undefined;
    }
    return got.changes;
  }
  const changes = changesThrough(ctx.dependencies, parser, file, headText);
  if (parser !== gradleCatalogParser || headText === undefined || changes.length === 0) return changes;
  return catalogScopes(changes, headText, await gradleScripts(ctx, file.filename));
}

/**
 * Licences of added or changed dependencies in package.json, requirements*.txt, pyproject.toml
 * (PEP 621 and Poetry), setup.py, setup.cfg, Pipfile, go.mod, Cargo.toml, Maven pom.xml, Gradle
 * scripts and version catalogs, NuGet (.csproj, packages.config, Directory.Packages.props),
 * composer.json, Gemfile and .gemspec (LIC-01, LIC-02). One finding per dependency, on its added
 * line.
 *
 * @example await dependencyLicensesDetector.detect(ctx) // [{ policy: "LIC-02", file: "package.json", line: 14, ... }]
 */
export const dependencyLicensesDetector: Detector = {
  id: "dependency-licenses",
  policies: ["LIC-01", "LIC-02"],
  covers: ["manifest"],
  reads: (file) => manifestParserFor(file.filename) !== undefined,
  async detect(ctx) {
    const findings: Finding[] = [];
    const read = new Map<string, Promise<unknown>>();
    const heads: HeadTexts = (path) => {
      let lock = read.get(path);
      if (!lock) {
        lock = readQuietly(ctx, path).then((text) => (text === undefined ? undefined : parsedJson(ctx, path, text)));
        read.set(path, lock);
      }
      return lock;
    };
    for (const file of ctx.pr.files) {
      const parser = manifestParserFor(file.filename);
      if (!parser || file.status === "removed") continue;
      for (const change of (await changesOf(ctx, parser, file)) ?? []) {
        const found = await judge(ctx, change, heads);
        if (found) findings.push(found);
      }
    }
    return findings;
  },
};
