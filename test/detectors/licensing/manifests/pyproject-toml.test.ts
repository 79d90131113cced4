import { describe, expect, it } from "vitest";
import { changedDependencies } from "../../../../src/ecosystems/common/changed-dependencies.js";
import { pyprojectTomlParser } from "../../../../src/ecosystems/pypi/pyproject-toml.js";
import { buildPr } from "../../pr-builder.js";

function file(patch: string) {
  const f = buildPr({ files: [{ filename: "pyproject.toml", patch }] }).files[0];
  if (!f) throw new Error("no file");
  return f;
}

const PEP621 = `[project]
name = "svc"
version = "0.3.0"
dependencies = [
  "httpx>=0.27",
  "gpl_thing==1.0",
]

[project.optional-dependencies]
dev = ["pytest>=8", "Copyleft-Lint==2.0"]
postgres = ["psycopg[binary]>=3.1"]

[dependency-groups]
docs = ["sphinx>=7"]
`;

const POETRY = `[tool.poetry]
name = "svc"
version = "0.3.0"

[tool.poetry.dependencies]
python = "^3.11"
httpx = "^0.27"
gpl-thing = { version = "1.0", extras = ["fast"] }

[tool.poetry.group.dev.dependencies]
pytest = "^8.0"

[tool.poetry.dev-dependencies]
black = "^24.0"
`;

describe("pyprojectTomlParser", () => {
  it("reads PEP 621, extras and dependency groups from the head file", () => {
    const scopes = pyprojectTomlParser.readHead(PEP621, "pyproject.toml");
    expect(scopes?.get("gpl-thing")).toBe("runtime");
    expect(scopes?.get("copyleft-lint")).toBe("dev");
    expect(scopes?.get("psycopg")).toBe("runtime"); // an extra not named like dev tooling ships
    expect(scopes?.get("sphinx")).toBe("dev");
    expect(pyprojectTomlParser.readHead("[project\nbroken", "pyproject.toml")).toBeUndefined();
  });

  it("reads Poetry main, group and dev-dependencies tables from the head file, without python", () => {
    const scopes = pyprojectTomlParser.readHead(POETRY, "pyproject.toml");
    expect(scopes?.get("gpl-thing")).toBe("runtime");
    expect(scopes?.get("pytest")).toBe("dev");
    expect(scopes?.get("black")).toBe("dev");
    expect(scopes?.has("python")).toBe(false);
  });

  it("finds a dependency added to a multi-line [project] array from the hunk alone", () => {
    const patch = [
      "@@ -1,6 +1,7 @@",
      " [project]",
      ' name = "svc"',
      " dependencies = [",
      '   "httpx>=0.27",',
      '+  "gpl_thing==1.0",',
      " ]",
    ].join("\n");
    expect(changedDependencies(pyprojectTomlParser, file(patch))).toEqual([
      expect.objectContaining({ name: "gpl_thing", version: "1.0", scope: "runtime", line: 5 }),
    ]);
  });

  it("tells a dev extra from a runtime extra in the hunk", () => {
    const patch = [
      "@@ -9,3 +9,3 @@",
      " [project.optional-dependencies]",
      '-dev = ["pytest>=8"]',
      '+dev = ["pytest>=8", "Copyleft-Lint==2.0"]',
      '+postgres = ["psycopg[binary]>=3.1"]',
    ].join("\n");
    const changes = changedDependencies(pyprojectTomlParser, file(patch));
    expect(changes.map((c) => [c.name, c.scope, c.kind])).toEqual([
      ["Copyleft-Lint", "dev", "added"],
      ["psycopg", "runtime", "added"],
    ]);
  });

  it("reads Poetry tables in the hunk: main is runtime, groups are dev", () => {
    const patch = [
      "@@ -5,10 +5,12 @@",
      " [tool.poetry.dependencies]",
      ' python = "^3.11"',
      '+gpl-thing = { version = "1.0", extras = ["fast"] }',
      " ",
      " [tool.poetry.group.dev.dependencies]",
      '+pytest = "^8.0"',
    ].join("\n");
    expect(changedDependencies(pyprojectTomlParser, file(patch)).map((c) => [c.name, c.version, c.scope])).toEqual([
      ["gpl-thing", "1.0", "runtime"],
      ["pytest", "^8.0", "dev"],
    ]);
  });

  it("ignores classifiers, build requirements and metadata", () => {
    const patch = [
      "@@ -1,8 +1,10 @@",
      " [build-system]",
      '+requires = ["hatchling>=1.20"]',
      " [project]",
      '-version = "0.3.0"',
      '+version = "0.4.0"',
      " classifiers = [",
      '+  "License :: OSI Approved :: MIT License",',
      '+  "Typing",',
      " ]",
    ].join("\n");
    expect(changedDependencies(pyprojectTomlParser, file(patch))).toEqual([]);
  });

  it("uses the head file's scope when the hunk starts inside an unseen table", () => {
    const patch = ["@@ -10,2 +10,2 @@", '-dev = ["pytest>=8"]', '+dev = ["pytest>=8", "Copyleft-Lint==2.0"]'].join(
      "\n",
    );
    expect(changedDependencies(pyprojectTomlParser, file(patch), PEP621)[0]).toMatchObject({
      name: "Copyleft-Lint",
      scope: "dev",
    });
    // Without the head file the same line cannot be placed: runtime.
    expect(changedDependencies(pyprojectTomlParser, file(patch))[0]).toMatchObject({
      name: "Copyleft-Lint",
      scope: "runtime",
    });
  });

  it("treats a quoted requirement in an unseen array as runtime", () => {
    const patch = ["@@ -20,2 +20,3 @@", '   "httpx>=0.27",', '+  "gpl_thing==1.0",'].join("\n");
    expect(changedDependencies(pyprojectTomlParser, file(patch))[0]).toMatchObject({
      name: "gpl_thing",
      scope: "runtime",
    });
  });
});
