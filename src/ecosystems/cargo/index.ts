import type { Ecosystem } from "../ecosystem.js";
import { versionOrder } from "../common/version-order.js";
import { cargoLockReader } from "./cargo-lock.js";
import { cargoTomlParser } from "./cargo-toml.js";
import { createCratesResolver } from "./crates-resolver.js";

/** Cargo: Cargo.toml; Cargo.lock; semver; crates.io. */
export const cargo: Ecosystem = {
  name: "cargo",
  osvName: "crates.io",
  manifestParsers: [cargoTomlParser],
  versionReaders: [cargoLockReader],
  versionOrder: () => versionOrder("cargo"),
  licenseRegistry: {
    urlSetting: "cratesUrl",
    create: (http, baseUrl) => createCratesResolver({ ...http, ...(baseUrl ? { baseUrl } : {}) }),
  },
};
