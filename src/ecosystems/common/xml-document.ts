import { createRequire } from "node:module";
import type * as FastXml from "fast-xml-parser";

/**
 * XML manifests (pom.xml, .csproj, packages.config, Directory.Packages.props) read with a kept
 * parser, fast-xml-parser, never with regular expressions: comments, CDATA, attributes in any
 * order and elements split over lines are the parser's business. Every element keeps where it
 * stands (fast-xml-parser's `captureMetaData`), so a dependency is located on its lines.
 */

let fxp: typeof FastXml | undefined;

/** fast-xml-parser, loaded by the first XML manifest read (a PR with none never loads it). */
function library(): typeof FastXml {
  fxp ??= createRequire(import.meta.url)("fast-xml-parser") as typeof FastXml;
  return fxp;
}

/** One element: its child elements by tag (always lists), its attributes (`@name`) and its text (`#text`). */
export type XmlElement = Record<string, unknown>;

/** A parsed XML document: the top elements, and the lines an element spans. */
export interface XmlDocument {
  root: XmlElement;
  /** The first and last line (1-based) of an element of this document. */
  linesOf(element: XmlElement): { line: number; endLine: number };
}

function isElement(value: unknown): value is XmlElement {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses a whole XML text, or gives undefined when it is not well-formed XML.
 *
 * @example parseXmlDocument("<project><version>1</version></project>")?.root // { project: [{ version: [{ "#text": "1" }] }] }
 */
export function parseXmlDocument(text: string): XmlDocument | undefined {
  const { XMLParser, XMLValidator } = library();
  if (XMLValidator.validate(text) !== true) return undefined;
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    textNodeName: "#text",
    alwaysCreateTextNode: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    captureMetaData: true,
    isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  });
  let root: unknown;
  try {
    root = parser.parse(text);
  } catch {
    return undefined;
  }
  if (!isElement(root)) return undefined;
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const lineAt = (index: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const meta = XMLParser.getMetaDataSymbol() as unknown as string;
  return {
    root,
    linesOf(element) {
      const at = element[meta] as { startIndex?: number; endIndex?: number } | undefined;
      const start = at?.startIndex ?? 0;
      return { line: lineAt(start), endLine: lineAt(at?.endIndex ?? start) };
    },
  };
}

/**
 * The child elements of `element` with this tag (a local name: `PackageReference`).
 *
 * @example childElements(project, "dependencies")
 */
export function childElements(element: XmlElement | undefined, tag: string): XmlElement[] {
  const list = element?.[tag];
  return Array.isArray(list) ? list.filter(isElement) : [];
}

/**
 * The elements found by following a path of tags from `element`.
 *
 * @example elementsAt(project, ["dependencyManagement", "dependencies", "dependency"])
 */
export function elementsAt(element: XmlElement | undefined, path: readonly string[]): XmlElement[] {
  let current = element ? [element] : [];
  for (const tag of path) current = current.flatMap((e) => childElements(e, tag));
  return current;
}

/**
 * Every element with this tag at any depth below `element` (MSBuild items may sit in `<Choose>` blocks).
 *
 * @example descendants(project, "PackageReference")
 */
export function descendants(element: XmlElement, tag: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const [key, value] of Object.entries(element)) {
    if (key.startsWith("@") || key === "#text" || !Array.isArray(value)) continue;
    for (const child of value.filter(isElement)) {
      if (key === tag) out.push(child);
      out.push(...descendants(child, tag));
    }
  }
  return out;
}

/**
 * The trimmed text of the first child with this tag, or undefined when it has none or is empty.
 *
 * @example childText(dependency, "artifactId") // "junit-jupiter"
 */
export function childText(element: XmlElement | undefined, tag: string): string | undefined {
  const text = childElements(element, tag)[0]?.["#text"];
  const trimmed = typeof text === "string" ? text.trim() : undefined;
  return trimmed === "" ? undefined : trimmed;
}

/**
 * An attribute's value, compared by name without regard to case (MSBuild's are case-insensitive).
 *
 * @example attribute(reference, "Include") // "Newtonsoft.Json"
 */
export function attribute(element: XmlElement, name: string): string | undefined {
  const wanted = `@${name.toLowerCase()}`;
  for (const [key, value] of Object.entries(element)) {
    if (key.toLowerCase() === wanted && typeof value === "string") return value.trim() || undefined;
  }
  return undefined;
}
