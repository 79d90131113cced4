import type { Ecosystem } from "../ecosystem.js";
import { versionOrder } from "../common/version-order.js";
import { goModParser } from "./go-mod.js";
import { goModReader } from "./go-mod-versions.js";
import { createGoResolver } from "./go-resolver.js";
import { goSumReader } from "./go-sum.js";

/** Go modules: go.mod; go.sum; semver with its `v`; deps.dev's API for licences. */
export const go: Ecosystem = {
  name: "go",
  osvName: "Go",
  manifestParsers: [goModParser],
  versionReaders: [goModReader, goSumReader],
  versionOrder: () => versionOrder("go"),
  licenseRegistry: {
    urlSetting: "goLicenseUrl",
    create: (http, baseUrl) => createGoResolver({ ...http, ...(baseUrl ? { baseUrl } : {}) }),
  },
};
