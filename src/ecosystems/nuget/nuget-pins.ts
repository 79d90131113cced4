import { documentManifestReader } from "../common/manifest-pins.js";
import { nugetParser } from "./nuget.js";

/**
 * NuGet: `PackageReference` versions of a `.csproj`, `packages.config` and the central
 * `Directory.Packages.props`, as the licence detector reads them.
 *
 * @example nugetReader.read(file, csprojText) // { pinned: [{ name: "Newtonsoft.Json", version: "12.0.1", ... }] }
 */
export const nugetReader = documentManifestReader(nugetParser);
