import { describe, expect, it } from "vitest";
import { changedDependencies } from "../../../../src/ecosystems/common/changed-dependencies.js";
import { manifestParserFor } from "../../../../src/ecosystems/index.js";
import { pipfileParser } from "../../../../src/ecosystems/pypi/pipfile.js";
import { setupCfgParser } from "../../../../src/ecosystems/pypi/setup-cfg.js";
import { setupPyParser } from "../../../../src/ecosystems/pypi/setup-py.js";
import { addedFilePatch, buildPr } from "../../pr-builder.js";

function file(filename: string, patch: string) {
  const f = buildPr({ files: [{ filename, patch }] }).files[0];
  if (!f) throw new Error("no file");
  return f;
}

const SETUP_PY = `from setuptools import setup

REQUIREMENTS = [
    "click>=8.1",
    "gpl-thing==1.0",  # renders PDFs
]
TEST_REQUIREMENTS = ["pytest>=8"]

setup(
    name="svc",
    install_requires=REQUIREMENTS,
    tests_require=TEST_REQUIREMENTS,
    setup_requires=["setuptools_scm"],
    extras_require={
        "dev": ["ruff", "Copyleft-Lint==2.0"],
        "postgres": [
            "psycopg[binary]>=3.1",
        ],
    },
)
`;

const SETUP_CFG = `[metadata]
name = svc

[options]
packages = find:
install_requires =
    httpx>=0.27
    gpl_thing==1.0; python_version >= "3.10"
tests_require =
    pytest>=8

[options.extras_require]
lint =
    Copyleft-Lint==2.0
s3 =
    boto3>=1.35
`;

const PIPFILE = `[[source]]
url = "https://pypi.org/simple"
name = "pypi"

[packages]
django = "==5.1.4"
gpl-thing = {version = ">=1.0", extras = ["fast"]}
local-lib = {path = "./libs/local", editable = true}
any-version = "*"

[dev-packages]
copyleft-lint = "==2.0"

[requires]
python_version = "3.12"
`;

describe("manifestParserFor", () => {
  it.each([
    ["setup.py", "setup.py"],
    ["services/api/setup.cfg", "setup.cfg"],
    ["Pipfile", "Pipfile"],
    ["Pipfile.lock", undefined],
    ["docs/setup.md", undefined],
  ])("%s -> %s", (path, kind) => {
    expect(manifestParserFor(path)?.kind).toBe(kind);
  });
});

describe("setupPyParser", () => {
  it("reads install_requires lists, named lists, tests/setup requires and extras from the head file", () => {
    const scopes = setupPyParser.readHead(SETUP_PY, "setup.py");
    expect(scopes?.get("gpl-thing")).toBe("runtime");
    expect(scopes?.get("click")).toBe("runtime");
    expect(scopes?.get("pytest")).toBe("dev");
    expect(scopes?.get("setuptools-scm")).toBe("dev");
    expect(scopes?.get("copyleft-lint")).toBe("dev");
    expect(scopes?.get("psycopg")).toBe("runtime");
    expect(scopes?.has("svc")).toBe(false);
  });

  it("finds a dependency added to install_requires in a hunk, with its scope", () => {
    const patch = [
      "@@ -1,6 +1,7 @@",
      " from setuptools import setup",
      " ",
      " REQUIREMENTS = [",
      '     "click>=8.1",',
      '+    "gpl-thing==1.0",',
      " ]",
      ' TEST_REQUIREMENTS = ["pytest>=8"]',
    ].join("\n");
    expect(changedDependencies(setupPyParser, file("setup.py", patch))).toEqual([
      expect.objectContaining({
        ecosystem: "pypi",
        name: "gpl-thing",
        version: "1.0",
        kind: "added",
        scope: "runtime",
        line: 5,
      }),
    ]);
  });

  it("tells a dev extra from a runtime one in a new file, and ignores setup()'s own fields", () => {
    const deps = changedDependencies(setupPyParser, file("setup.py", addedFilePatch(SETUP_PY.split("\n"))));
    const byName = Object.fromEntries(deps.map((d) => [d.name, d.scope]));
    expect(byName).toMatchObject({ "gpl-thing": "runtime", "Copyleft-Lint": "dev", psycopg: "runtime", pytest: "dev" });
    expect(Object.keys(byName)).not.toContain("svc");
  });
});

describe("setupCfgParser", () => {
  it("reads [options] install_requires and tests_require, and extras by name", () => {
    const scopes = setupCfgParser.readHead(SETUP_CFG, "setup.cfg");
    expect(scopes?.get("gpl-thing")).toBe("runtime");
    expect(scopes?.get("httpx")).toBe("runtime");
    expect(scopes?.get("pytest")).toBe("dev");
    expect(scopes?.get("copyleft-lint")).toBe("dev");
    expect(scopes?.get("boto3")).toBe("runtime");
    expect(scopes?.has("find:")).toBe(false);
  });

  it("finds a requirement added on a continuation line, and an inline one", () => {
    const patch = [
      "@@ -4,6 +4,8 @@ name = svc",
      " [options]",
      " packages = find:",
      " install_requires =",
      "     httpx>=0.27",
      "+    gpl_thing==1.0",
      "+setup_requires = setuptools_scm>=8",
      " tests_require =",
      "     pytest>=8",
    ].join("\n");
    const deps = changedDependencies(setupCfgParser, file("setup.cfg", patch));
    expect(deps.map((d) => [d.name, d.scope, d.line])).toEqual([
      ["gpl_thing", "runtime", 8],
      ["setuptools_scm", "dev", 9],
    ]);
  });

  it("does not take package names under packages= or a hunk's bare words for dependencies", () => {
    const patch = ["@@ -20,3 +20,4 @@", "     mypkg", "+    mypkg.plugins", "     other"].join("\n");
    expect(changedDependencies(setupCfgParser, file("setup.cfg", patch))).toEqual([]);
  });
});

describe("pipfileParser", () => {
  it("reads [packages] as runtime and [dev-packages] as dev", () => {
    const scopes = pipfileParser.readHead(PIPFILE, "Pipfile");
    expect(scopes?.get("gpl-thing")).toBe("runtime");
    expect(scopes?.get("django")).toBe("runtime");
    expect(scopes?.get("copyleft-lint")).toBe("dev");
    expect(scopes?.has("python-version")).toBe(false);
  });

  it("finds added packages in a hunk, skipping local paths and reading exact pins", () => {
    const deps = changedDependencies(pipfileParser, file("Pipfile", addedFilePatch(PIPFILE.split("\n"))));
    expect(deps.map((d) => [d.name, d.version, d.scope])).toEqual([
      ["django", "5.1.4", "runtime"],
      ["gpl-thing", ">=1.0", "runtime"],
      ["any-version", undefined, "runtime"],
      ["copyleft-lint", "2.0", "dev"],
    ]);
  });
});
