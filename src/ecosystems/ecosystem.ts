import type { Ecosystem as EcosystemId, LicenseResolver } from "../domain/license-resolver.js";
import type { RegistryHttpOptions } from "../licenses/registry-http.js";
import type { DocumentManifestParser, ManifestParser } from "./common/manifest-parser.js";
import type { VersionReader } from "./common/pinned-dependency.js";
import type { VersionOrder } from "./common/version-order.js";

/** Where each ecosystem's licences are looked up; unset means the public service. */
export interface RegistryUrls {
  npmRegistryUrl?: string;
  pypiUrl?: string;
  cratesUrl?: string;
  goLicenseUrl?: string;
  /** deps.dev-compatible API for Maven artifacts (pom.xml, Gradle). */
  mavenLicenseUrl?: string;
  /** deps.dev-compatible API for NuGet packages. */
  nugetLicenseUrl?: string;
  packagistUrl?: string;
  rubygemsUrl?: string;
}

/** An ecosystem's licence registry: which address setting points at it, and its client. */
export interface LicenseRegistry {
  /** The `RegistryUrls` key (a `GATE_*` setting) that points the client at a mirror. */
  urlSetting: keyof RegistryUrls;
  /** The client, asking `baseUrl` when set, else the public service. */
  create(http: RegistryHttpOptions, baseUrl?: string): LicenseResolver;
}

/**
 * One package ecosystem, everything the gate knows of it in one folder (`src/ecosystems/<name>/`):
 * the files it reads, the readers that turn a changed file into dependency changes (for the licence
 * checks, LIC-01/02) and exact versions (for the vulnerability check, SEC-07), how its versions are
 * ordered and its ranges matched, its OSV name and its licence registry.
 *
 * A manifest or lockfile name is written once, in its reader's `matches`: whether a path is a
 * manifest or lockfile (`isManifest`, `isLockfile` in `src/ecosystems/index.ts`) is asked of the readers.
 */
export interface Ecosystem {
  /** The gate's name for it (`"npm"`, `"maven"`; `"github-actions"`, whose licences the gate does not read). */
  name: EcosystemId | "github-actions";
  /** OSV's exact ecosystem name (`"PyPI"`, `"crates.io"`). */
  osvName: string;
  /** Manifests read line by line or as documents: the dependencies a change adds or changes (LIC-01/02). */
  manifestParsers: readonly (ManifestParser | DocumentManifestParser)[];
  /** Manifests and lockfiles read for exact versions (SEC-07); a lockfile's `lockfile` is true. */
  versionReaders: readonly VersionReader[];
  /**
   * A manifest that is a program of a language (`setup.py` is Python that pip runs): the coverage
   * ledger counts it as that language's code.
   */
  manifestLanguage?: (path: string) => string | undefined;
  /** How its versions are ordered and its ranges matched (loads its version library on first call). */
  versionOrder(): VersionOrder;
  /** Where its licences are looked up; absent when the gate reads none. */
  licenseRegistry?: LicenseRegistry;
  /**
   * The lockfiles beside a manifest that pin its dependencies' exact versions, nearest first, and
   * the version a parsed one pins for a direct dependency: the licence checks read the licence of
   * the version the head installs, not of the manifest's range. Absent: the range's is read.
   */
  pins?: { lockfiles: readonly string[]; version(lock: unknown, name: string): string | undefined };
}
