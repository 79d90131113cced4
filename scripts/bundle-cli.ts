// Bundles the CLI into dist/gate.cjs and writes its V8 code cache (dist/gate.cache): the `gate`
// command then starts without resolving, reading and compiling ~800 modules one by one
// (docs/performance.md). Runs after `tsc` in `npm run build`, on its output.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { writeParsedPolicies } from "../src/policy/front-matter-cache.js";
import { BUNDLED_POLICIES_DIR } from "../src/package-paths.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
const BUNDLE = path.join(DIST, "gate.cjs");
const CACHE = path.join(DIST, "gate.cache");

/**
 * Native addons and PostgreSQL's client stay outside the bundle: addons cannot be bundled, and
 * `pg` optionally requires `pg-native`, which is not installed.
 */
const EXTERNAL = ["better-sqlite3", "@ast-grep/napi", "@ast-grep/lang-go", "@ast-grep/lang-python", "pg", "pg-native"];

/**
 * zod exports every locale's error messages (`z.locales`), and nothing in the gate sets one: the
 * bundle keeps English, the default, and drops the other 360 KB.
 */
const zodEnglishOnly: Plugin = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), args.path), namespace: "zod-locales" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), "en.js"))};`,
      resolveDir: ROOT,
    }));
  },
};

const bundled = await build({
  entryPoints: [path.join(DIST, "cli/start.js")],
  outfile: BUNDLE,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  // Every `import()` (of a module left outside, `pg`, or of Node's own) becomes a `require`: the
  // launcher compiles the bundle with vm.Script and a code cache, and Node runs no `import()` of
  // such a script (src/cli/bundle-loader.cts). Checked below.
  supported: { "dynamic-import": false },
  metafile: true,
  // Minified names load about 5% faster; a readable stack trace comes from the unbundled
  // `node dist/cli/main.js`, which runs the same commands.
  minify: true,
  charset: "ascii",
  external: EXTERNAL,
  plugins: [zodEnglishOnly],
  // The bundle is CommonJS: `import.meta.url` (the package's root, createRequire) is the bundle's own URL.
  banner: { js: 'var __bundle_url = require("node:url").pathToFileURL(__filename).href;' },
  define: { "import.meta.url": "__bundle_url" },
  logLevel: "warning",
});

const dynamicImports = Object.values(bundled.metafile.outputs)
  .flatMap((output) => output.imports)
  .filter((i) => i.kind === "dynamic-import")
  .map((i) => i.path);
if (dynamicImports.length > 0) {
  throw new Error(`${BUNDLE}: import() left in the bundle (the launcher cannot run it): ${dynamicImports.join(", ")}`);
}

// The launcher reads the bundle as latin1 (no UTF-8 decoding): that is only right for ASCII.
const bytes = fs.readFileSync(BUNDLE);
const wide = bytes.findIndex((b) => b > 0x7f);
if (wide >= 0) {
  const near = bytes.subarray(Math.max(0, wide - 60), wide + 20).toString("utf8");
  throw new Error(`${BUNDLE}: byte ${wide} is not ASCII (write it as \\uXXXX in the source): ${near}`);
}

// The shipped policies' front matter, parsed once here rather than by every start
// (src/policy/front-matter-cache.ts); written before the warm-up so its cache holds that path.
const parsedPolicies = writeParsedPolicies(BUNDLED_POLICIES_DIR);

// The code cache: one docs-only review run through the bundle, then V8's cache of everything it
// compiled. A Node whose V8 differs rejects it and compiles as usual.
fs.rmSync(CACHE, { force: true });
const scratch = fs.mkdtempSync(path.join(tmpdir(), "gate-code-cache-"));
try {
  const warm = `
    const { loadCliBundle, writeCodeCache } = require(${JSON.stringify(path.join(DIST, "cli/bundle-loader.cjs"))});
    const loaded = loadCliBundle();
    process.on("exit", (code) => { if (code === 0) writeCodeCache(loaded); });
    void loaded.cli.startCli(["review", "001_readme_typo", "--json"], process.env);`;
  const out = execFileSync(process.execPath, ["-e", warm], {
    cwd: scratch,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: scratch,
      GATE_DB: path.join(scratch, "gate.db"),
      GATE_LOG_LEVEL: "silent",
    },
    encoding: "utf8",
  });
  if ((JSON.parse(out) as { route?: string }).route !== "auto_approved") {
    throw new Error(`the warm-up review did not end auto_approved: ${out.slice(0, 500)}`);
  }
  if (!fs.existsSync(CACHE)) throw new Error("the warm-up review wrote no code cache");
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
console.log(
  `bundle: ${path.relative(ROOT, BUNDLE)} ${(bytes.length / 1e6).toFixed(1)} MB, code cache ${(fs.statSync(CACHE).size / 1e6).toFixed(1)} MB, ${parsedPolicies} policies parsed`,
);
