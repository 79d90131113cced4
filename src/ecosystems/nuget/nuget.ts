import {
  baseName,
  type Declaration,
  type DependencyScope,
  type DocumentManifestParser,
} from "../common/manifest-parser.js";
import {
  attribute,
  childElements,
  childText,
  descendants,
  parseXmlDocument,
  type XmlElement,
} from "../common/xml-document.js";

/** MSBuild project files that hold `PackageReference` items. */
const PROJECT_FILE = /\.csproj$/i;
const PACKAGES_CONFIG = "packages.config";
const CENTRAL_VERSIONS = "Directory.Packages.props";

/** An attribute, else a child element of that name (`<Version>13.0.3</Version>`), as MSBuild allows both. */
function metadata(item: XmlElement, name: string): string | undefined {
  return attribute(item, name) ?? childText(item, name);
}

/** `PrivateAssets="all"`: the package is used to build this project and does not flow to its consumers. */
function privateAssetsScope(item: XmlElement, fallback: DependencyScope): DependencyScope {
  const assets = metadata(item, "PrivateAssets");
  if (assets === undefined) return fallback;
  return assets
    .split(";")
    .map((a) => a.trim().toLowerCase())
    .includes("all")
    ? "dev"
    : "runtime";
}

function declaration(
  lines: { line: number; endLine: number },
  name: string | undefined,
  version: string | undefined,
  scope: DependencyScope,
): Declaration[] {
  if (name === undefined) return [];
  return [{ name, ...(version !== undefined ? { version } : {}), scope, ...lines }];
}

/**
 * NuGet: `*.csproj` `PackageReference` items (`Include`, or `Update`; `Version` or `VersionOverride`
 * as an attribute or a child element; `PrivateAssets="all"` is dev, since such a package builds
 * the project and is not passed on), `packages.config` (`developmentDependency="true"` is dev),
 * and `Directory.Packages.props`: `PackageVersion` (central versions, runtime, as any project may
 * reference them) and `GlobalPackageReference` (dev unless it sets `PrivateAssets` otherwise:
 * NuGet makes them private assets, analyzers and build tools, by default). Items may sit at any
 * depth (`<Choose>`, `<When>`).
 *
 * @example nugetParser.declarations(`<Project><ItemGroup><PackageReference Include="Serilog" Version="4.0.1" /></ItemGroup></Project>`, "App.csproj")
 *   // [{ name: "Serilog", version: "4.0.1", scope: "runtime", line: 1, endLine: 1 }]
 */
export const nugetParser: DocumentManifestParser = {
  kind: "NuGet",
  ecosystem: "nuget",
  matches: (path) => {
    const name = baseName(path);
    return PROJECT_FILE.test(name) || name === PACKAGES_CONFIG || name === CENTRAL_VERSIONS;
  },
  declarations(text, path) {
    const doc = parseXmlDocument(text);
    if (!doc) return undefined;
    const name = baseName(path);
    if (name === PACKAGES_CONFIG) {
      const packages = childElements(doc.root, "packages")[0];
      if (!packages) return undefined;
      return childElements(packages, "package").flatMap((p) =>
        declaration(
          doc.linesOf(p),
          attribute(p, "id"),
          attribute(p, "version"),
          attribute(p, "developmentDependency")?.toLowerCase() === "true" ? "dev" : "runtime",
        ),
      );
    }
    const project = childElements(doc.root, "Project")[0];
    if (!project) return undefined;
    const references = descendants(project, "PackageReference").flatMap((r) =>
      declaration(
        doc.linesOf(r),
        attribute(r, "Include") ?? attribute(r, "Update"),
        metadata(r, "VersionOverride") ?? metadata(r, "Version"),
        privateAssetsScope(r, "runtime"),
      ),
    );
    const central = descendants(project, "PackageVersion").flatMap((v) =>
      declaration(doc.linesOf(v), attribute(v, "Include"), metadata(v, "Version"), "runtime"),
    );
    const global = descendants(project, "GlobalPackageReference").flatMap((g) =>
      declaration(doc.linesOf(g), attribute(g, "Include"), metadata(g, "Version"), privateAssetsScope(g, "dev")),
    );
    return [...references, ...central, ...global];
  },
  normalizeName: (name) => name.trim().toLowerCase(),
};
