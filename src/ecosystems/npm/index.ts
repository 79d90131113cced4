import type { Ecosystem } from "../ecosystem.js";
import { versionOrder } from "../common/version-order.js";
import { npmManifestReader } from "./npm-manifest.js";
import { createNpmResolver } from "./npm-resolver.js";
import { packageJsonParser } from "./package-json.js";
import { lockedVersion, NPM_LOCKFILES, packageLockReader } from "./package-lock.js";
import { pnpmLockReader } from "./pnpm-lock.js";
import { yarnLockReader } from "./yarn-lock.js";

/** npm: package.json; package-lock.json, npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml; semver; the npm registry. */
export const npm: Ecosystem = {
  name: "npm",
  osvName: "npm",
  manifestParsers: [packageJsonParser],
  versionReaders: [npmManifestReader, packageLockReader, yarnLockReader, pnpmLockReader],
  versionOrder: () => versionOrder("npm"),
  licenseRegistry: {
    urlSetting: "npmRegistryUrl",
    create: (http, baseUrl) => createNpmResolver({ ...http, ...(baseUrl ? { registryUrl: baseUrl } : {}) }),
  },
  pins: { lockfiles: NPM_LOCKFILES, version: lockedVersion },
};
