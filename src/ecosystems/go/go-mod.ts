import { baseName, type ManifestParser, scopesByLine, sectionAtTop } from "../common/manifest-parser.js";

const BLOCK_START = /^\s*(require|replace|exclude|retract|tool|godebug|ignore)\s*\(\s*(?:\/\/.*)?$/;
const BLOCK_END = /^\s*\)\s*$/;
const SINGLE_REQUIRE = /^\s*require\s+(\S+)\s+(v\S+)/;
/** `module/path v1.2.3 // indirect` inside a require block. */
const BLOCK_ENTRY = /^\s*([^\s()/][^\s()]*)\s+(v\d\S*)\s*(?:\/\/.*)?$/;

function requires(text: string, section: string | undefined): { name: string; version: string }[] {
  const single = SINGLE_REQUIRE.exec(text);
  if (single?.[1] !== undefined && single[2] !== undefined) return [{ name: single[1], version: single[2] }];
  if (section !== undefined && section !== "require") return [];
  const m = BLOCK_ENTRY.exec(text);
  return m?.[1] !== undefined && m[2] !== undefined ? [{ name: m[1], version: m[2] }] : [];
}

/**
 * go.mod: every `require` is a build dependency of the module (Go has no dev scope), `// indirect`
 * included. Lines in `replace`, `exclude` and `retract` blocks are not requirements.
 *
 * @example goModParser.parseLine("\tgithub.com/pkg/errors v0.9.1 // indirect", "require") // [{ name: "github.com/pkg/errors", version: "v0.9.1" }]
 */
export const goModParser: ManifestParser = {
  kind: "go.mod",
  ecosystem: "go",
  matches: (path) => baseName(path) === "go.mod",
  sectionAtStart: sectionAtTop,
  nextSection(section, text) {
    const start = BLOCK_START.exec(text);
    if (start) return start[1];
    if (BLOCK_END.test(text)) return "(top)";
    return section;
  },
  parseLine: (text, section) => requires(text, section),
  scopeOf: () => "runtime",
  readHead: (text, path) => scopesByLine(goModParser, text, path),
  normalizeName: (name) => name,
};
