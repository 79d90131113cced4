import type { Ecosystem } from "../ecosystem.js";
import { versionOrder } from "../common/version-order.js";
import { composerJsonParser } from "./composer-json.js";
import { composerLockReader } from "./composer-lock.js";
import { composerJsonReader } from "./composer-pins.js";
import { createPackagistResolver } from "./packagist-resolver.js";

/** Composer: composer.json; composer.lock; Composer's normalised versions; Packagist. */
export const composer: Ecosystem = {
  name: "composer",
  osvName: "Packagist",
  manifestParsers: [composerJsonParser],
  versionReaders: [composerLockReader, composerJsonReader],
  versionOrder: () => versionOrder("composer"),
  licenseRegistry: {
    urlSetting: "packagistUrl",
    create: (http, baseUrl) => createPackagistResolver({ ...http, ...(baseUrl ? { baseUrl } : {}) }),
  },
};
