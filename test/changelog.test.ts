import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/package-paths.js";

const read = (file: string) => fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8");
const pkg = JSON.parse(read("package.json")) as { version: string; files: string[] };
const lock = JSON.parse(read("package-lock.json")) as {
  version: string;
  packages: Record<string, { version?: string }>;
};
const changelog = read("CHANGELOG.md");

/** `## [0.2.0] - 2026-12-02` and `## [Unreleased]`, in the order they appear. */
const sections = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?\s*$/gm)].map((m) => ({
  version: m[1] ?? "",
  date: m[2],
}));

describe("CHANGELOG.md and the version (docs/releasing.md)", () => {
  it("package.json's version is semver and the lockfile holds the same one", () => {
    expect(semver.valid(pkg.version)).toBe(pkg.version);
    expect(lock.version).toBe(pkg.version);
    expect(lock.packages[""]?.version).toBe(pkg.version);
  });

  it("has a dated section for package.json's version, below an Unreleased section", () => {
    expect(sections[0]).toEqual({ version: "Unreleased", date: undefined });
    const released = sections.find((s) => s.version === pkg.version);
    expect(released, `CHANGELOG.md has no "## [${pkg.version}] - YYYY-MM-DD" section`).toBeDefined();
    expect(released?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(released?.date ?? ""))).toBe(false);
  });

  it("lists released versions newest first, each once, dates not going forward", () => {
    const released = sections.slice(1);
    expect(released.length).toBeGreaterThan(0);
    for (const s of released) expect(semver.valid(s.version), s.version).toBe(s.version);
    const versions = released.map((s) => s.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions).toEqual([...versions].sort((a, b) => semver.compare(b, a)));
    const dates = released.map((s) => s.date ?? "");
    expect(dates).toEqual([...dates].sort().reverse());
    // Nothing released is newer than the package itself.
    expect(semver.compare(pkg.version, versions[0] ?? "0.0.0")).toBeGreaterThanOrEqual(0);
  });

  it("uses Keep a Changelog's headings inside a release", () => {
    const kinds = [...changelog.matchAll(/^### (.+)$/gm)].map((m) => m[1] ?? "");
    expect(kinds.length).toBeGreaterThan(0);
    for (const kind of kinds)
      expect(["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]).toContain(kind);
  });
});
