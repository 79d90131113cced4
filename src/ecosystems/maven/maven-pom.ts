import {
  baseName,
  type Declaration,
  type DependencyScope,
  type DocumentManifestParser,
} from "../common/manifest-parser.js";
import { childElements, childText, elementsAt, parseXmlDocument, type XmlElement } from "../common/xml-document.js";

/**
 * Maven scopes that do not ship in the artifact. `test` is only on the test classpath. `provided`
 * is compiled against but supplied at run time by the container or JDK that runs the artifact
 * (a servlet API, Lombok): this artifact does not distribute it, so its licence binds the
 * container, not the product; it is read as not runtime. `compile` (the default), `runtime`,
 * `system`, `import` (a BOM) and anything unknown, such as an unresolved `${scope}`, ship or may
 * ship: runtime (fail closed).
 */
const NOT_SHIPPED = new Set(["test", "provided"]);

function scopeOf(scope: string | undefined): DependencyScope {
  return scope !== undefined && NOT_SHIPPED.has(scope.trim().toLowerCase()) ? "dev" : "runtime";
}

/** `<properties>` and the project's own coordinates, for `${name}` references. */
function propertiesOf(project: XmlElement): Map<string, string> {
  const props = new Map<string, string>();
  const parent = childElements(project, "parent")[0];
  for (const [key, tag] of [
    ["version", "version"],
    ["groupId", "groupId"],
    ["artifactId", "artifactId"],
  ] as const) {
    // groupId and version are inherited from <parent> when the project leaves them out; artifactId never is.
    const own = childText(project, tag) ?? (key === "artifactId" ? undefined : childText(parent, tag));
    if (own !== undefined) {
      props.set(`project.${key}`, own);
      props.set(`pom.${key}`, own);
    }
    const inherited = childText(parent, tag);
    if (inherited !== undefined) props.set(`project.parent.${key}`, inherited);
  }
  for (const holder of childElements(project, "properties")) {
    for (const [key, value] of Object.entries(holder)) {
      if (key.startsWith("@") || key === "#text" || !Array.isArray(value)) continue;
      const text = childText(holder, key);
      if (text !== undefined) props.set(key, text);
    }
  }
  return props;
}

/**
 * A value with its `${name}` references filled in from the properties, as far as they go (a
 * property the file does not define, from a parent POM or the command line, stays as written).
 *
 * @example interpolate("${junit.version}", new Map([["junit.version", "5.10.2"]])) // "5.10.2"
 */
export function interpolate(value: string, props: ReadonlyMap<string, string>): string {
  let out = value;
  for (let depth = 0; depth < 10 && out.includes("${"); depth++) {
    const next = out.replace(/\$\{([^}]+)\}/g, (whole, name: string) => props.get(name.trim()) ?? whole);
    if (next === out) break;
    out = next;
  }
  return out;
}

interface Holder {
  /** The `<dependencies>` lists that declare this holder's dependencies. */
  path: readonly string[];
  /** A build plugin's own classpath: the build's tooling, which does not ship (like setup_requires). */
  tooling?: boolean;
  managed?: boolean;
}

const HOLDERS: readonly Holder[] = [
  { path: ["dependencies", "dependency"] },
  { path: ["dependencyManagement", "dependencies", "dependency"], managed: true },
  { path: ["build", "plugins", "plugin", "dependencies", "dependency"], tooling: true },
  { path: ["build", "pluginManagement", "plugins", "plugin", "dependencies", "dependency"], tooling: true },
];

function declarationsOf(project: XmlElement, lines: (e: XmlElement) => { line: number; endLine: number }) {
  const props = propertiesOf(project);
  const scopes = [project, ...elementsAt(project, ["profiles", "profile"])];
  const managedVersions = new Map<string, string>();
  const out: (Declaration & { managed: boolean })[] = [];
  for (const holder of HOLDERS) {
    for (const element of scopes.flatMap((s) => elementsAt(s, holder.path))) {
      const groupId = childText(element, "groupId");
      const artifactId = childText(element, "artifactId");
      if (groupId === undefined || artifactId === undefined) continue;
      const name = `${interpolate(groupId, props)}:${interpolate(artifactId, props)}`;
      const written = childText(element, "version");
      const version = written !== undefined ? interpolate(written, props) : undefined;
      if (holder.managed && version !== undefined) managedVersions.set(name, version);
      const scope: DependencyScope = holder.tooling ? "dev" : scopeOf(childText(element, "scope"));
      out.push({
        name,
        ...(version !== undefined ? { version } : {}),
        scope,
        ...lines(element),
        managed: holder.managed === true,
      });
    }
  }
  // A managed entry this file also uses takes the use's scope (a parent's junit is a test
  // dependency where it is used so); one it does not use may be used by any module: its own scope.
  const used = new Set(out.filter((d) => !d.managed).map((d) => d.name));
  return out
    .filter((d) => !(d.managed && used.has(d.name)))
    .map(({ managed, ...d }) =>
      // A dependency without a version takes the one dependencyManagement gives it in this file.
      d.version === undefined && managedVersions.has(d.name) ? { ...d, version: managedVersions.get(d.name) } : d,
    );
}

/**
 * Maven `pom.xml`: `<dependencies>` and `<dependencyManagement>` (of the project and of its
 * profiles), and build plugins' own dependencies (dev: the build's tooling). A managed entry
 * the file also uses counts once, with the use's scope; one it does not use has its own scope
 * (compile by default: runtime, as any module may use it). Scopes `compile`
 * and `runtime` ship (runtime); `test` and `provided` do not (see NOT_SHIPPED for why).
 * `${property}` references are filled in from `<properties>` and the project's coordinates; a
 * dependency without `<version>` takes the one its `<dependencyManagement>` gives. The name is
 * `groupId:artifactId`.
 *
 * @example mavenPomParser.declarations(pom, "pom.xml")?.[0] // { name: "org.slf4j:slf4j-api", version: "2.0.13", scope: "runtime", line: 21, endLine: 25 }
 */
export const mavenPomParser: DocumentManifestParser = {
  kind: "pom.xml",
  ecosystem: "maven",
  matches: (path) => baseName(path) === "pom.xml",
  declarations(text) {
    const doc = parseXmlDocument(text);
    const project = doc ? childElements(doc.root, "project")[0] : undefined;
    if (!doc || !project) return undefined;
    return declarationsOf(project, doc.linesOf);
  },
  normalizeName: (name) => name.trim(),
};
