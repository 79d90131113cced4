import { createDepsDevResolver } from "../../licenses/deps-dev-resolver.js";
import type { Ecosystem } from "../ecosystem.js";
import { versionOrder } from "../common/version-order.js";
import { nugetParser } from "./nuget.js";
import { nugetReader } from "./nuget-pins.js";

/** NuGet: project files, packages.config, Directory.Packages.props; NuGetVersion; deps.dev's API for licences. */
export const nuget: Ecosystem = {
  name: "nuget",
  osvName: "NuGet",
  manifestParsers: [nugetParser],
  versionReaders: [nugetReader],
  versionOrder: () => versionOrder("nuget"),
  licenseRegistry: {
    urlSetting: "nugetLicenseUrl",
    create: (http, baseUrl) => createDepsDevResolver("nuget", { ...http, ...(baseUrl ? { baseUrl } : {}) }),
  },
};
