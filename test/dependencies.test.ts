import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/package-paths.js";

const read = (file: string) => fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  dependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(read("package-lock.json")) as {
  packages: Record<
    string,
    {
      hasInstallScript?: boolean;
      dev?: boolean;
      optional?: boolean;
      version?: string;
      engines?: { node?: string };
      peerDependencies?: Record<string, string>;
    }
  >;
};

/** The package name of a lockfile key: `node_modules/a/node_modules/@s/b` → `@s/b`. */
const nameOf = (key: string) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);

describe("package.json's dependencies", () => {
  it("every runtime dependency is imported by src/, or is a peer another one needs", () => {
    const source = fs
      .readdirSync(path.join(PACKAGE_ROOT, "src"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => fs.readFileSync(path.join(PACKAGE_ROOT, "src", f), "utf8"))
      .join("\n");
    // A peer dependency is the project's to install (LangGraph's @langchain/core).
    const peers = new Set(
      Object.values(lock.packages)
        .filter((p) => !p.dev)
        .flatMap((p) => Object.keys(p.peerDependencies ?? {})),
    );
    const names = Object.keys(pkg.dependencies);
    expect(names.length).toBeGreaterThan(20);
    const unused = names.filter(
      (name) => !peers.has(name) && !source.includes(`"${name}"`) && !source.includes(`"${name}/`),
    );
    expect(unused).toEqual([]);
  });

  it("allowScripts decides every install script in the lockfile, so `npm ci` warns of none", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([key, p]) => key !== "" && p.hasInstallScript)
      .map(([key]) => nameOf(key));
    expect(withScripts).toContain("better-sqlite3");
    for (const name of withScripts) expect(Object.keys(pkg.allowScripts), name).toContain(name);
    // better-sqlite3 builds its addon; the ast-grep grammars ship prebuilt parsers, so theirs never run.
    expect(pkg.allowScripts["better-sqlite3"]).toBe(true);
    const grammars = withScripts.filter((n) => n.startsWith("@ast-grep/lang-"));
    expect(grammars.length).toBeGreaterThanOrEqual(8);
    for (const name of grammars) {
      expect(pkg.allowScripts[name], name).toBe(false);
      const prebuilds = path.join(PACKAGE_ROOT, "node_modules", name, "prebuilds");
      expect(fs.existsSync(prebuilds), `${name} ships no prebuilt parsers`).toBe(true);
    }
  });

  // secretlint 12 and 13 declare Node 22 but run on Node 20 (the detector's tests run them here);
  // 11.7.1, the last to declare Node 20, cannot turn its profiler off (a leak in a server).
  const DECLARED_NODE_22 = new Set([
    "@secretlint/core",
    "@secretlint/secretlint-rule-preset-recommend",
    "@secretlint/types",
  ]);

  it("every runtime package installed admits the Node 20 the project supports, but the ones named", () => {
    const node = "20.19.0";
    const refused = Object.entries(lock.packages)
      .filter(([key, p]) => key !== "" && !p.dev && !p.optional && p.engines?.node !== undefined)
      .filter(([, p]) => !semver.satisfies(node, p.engines?.node ?? "*"))
      .map(([key, p]) => `${nameOf(key)}@${p.version} (${p.engines?.node})`);
    const name = (r: string) => r.slice(0, r.lastIndexOf("@"));
    expect(refused.filter((r) => !DECLARED_NODE_22.has(name(r)))).toEqual([]);
    // The exceptions are still needed (a release that admits Node 20 again takes its name off).
    expect(new Set(refused.map(name))).toEqual(DECLARED_NODE_22);
  });

  it("the README names the packages whose EBADENGINE warning `npm ci` prints on Node 20", () => {
    const readme = read("README.md").replace(/\s+/g, " ");
    expect(readme).toContain("`npm warn EBADENGINE`");
    for (const name of DECLARED_NODE_22) expect(readme, name).toContain(`\`${name}\``);
  });

  it("`engines` admits Node 20.19 on and the LTS lines 22 and 24, and every package installed (dev too) admits those", () => {
    const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
    const lowest = ["20.19.0", "22.13.0", "24.0.0"];
    for (const v of [...lowest, "22.23.5", "24.11.0"]) expect(semver.satisfies(v, engines), v).toBe(true);
    for (const v of ["18.20.0", "20.18.0", "21.7.0", "23.11.0"]) expect(semver.satisfies(v, engines), v).toBe(false);
    // The root's entry in the lockfile says the same (npm writes it from package.json).
    expect(lock.packages[""]?.engines?.node).toBe(engines);
    const refused = Object.entries(lock.packages)
      .filter(([key, p]) => key !== "" && !p.optional && p.engines?.node !== undefined)
      .flatMap(([key, p]) =>
        lowest.slice(1).flatMap((v) => (semver.satisfies(v, p.engines?.node ?? "*") ? [] : [`${nameOf(key)} on ${v}`])),
      );
    expect(refused).toEqual([]);
  });
});
