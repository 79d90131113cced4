// spdx-expression-parse ships no types; this declares the shape its README documents.
declare module "spdx-expression-parse" {
  namespace parse {
    /** One licence: `MIT`, `GPL-2.0+` (plus), `GPL-2.0-only WITH Classpath-exception-2.0`. */
    interface LicenseNode {
      license: string;
      plus?: boolean;
      exception?: string;
    }
    /** `left AND right` / `left OR right`. */
    interface ConjunctionNode {
      conjunction: "and" | "or";
      left: Node;
      right: Node;
    }
    type Node = LicenseNode | ConjunctionNode;
  }
  /** Parses an SPDX expression; throws on anything that is not one. */
  function parse(source: string): parse.Node;
  export = parse;
}
