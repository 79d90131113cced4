import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/gate.js";
import { runScript } from "./run-script.js";

const repo = tempDir("gate-release-");
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
const release = (...args: string[]) => runScript("release.ts", "--dir", repo, ...args);

function write(file: string, text: string): void {
  fs.writeFileSync(path.join(repo, file), text);
}
function packageAt(version: string, lockVersion = version): void {
  write("package.json", `${JSON.stringify({ name: "x", version }, null, 2)}\n`);
  write(
    "package-lock.json",
    `${JSON.stringify({ name: "x", version: lockVersion, lockfileVersion: 3, packages: { "": { name: "x", version: lockVersion } } }, null, 2)}\n`,
  );
}
function commit(message: string): string {
  git("add", "-A");
  git("commit", "-q", "-m", message);
  return git("rev-parse", "HEAD");
}
const tags = () => git("tag", "-l");

describe("scripts/release.ts tags a release (docs/releasing.md)", { timeout: 60_000 }, () => {
  it("refuses until the commit holds the release, then makes the annotated tag v<version> on it, once", async () => {
    git("init", "-q");
    git("config", "user.name", "Release Test");
    git("config", "user.email", "release@example.invalid");
    git("config", "tag.gpgSign", "false");
    git("config", "commit.gpgSign", "false");
    packageAt("0.3.0");
    write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n- a change\n\n## [0.2.0] - 2026-12-02\n");
    commit("work");

    // No section for 0.3.0 yet.
    const early = await release();
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('CHANGELOG.md has no "## [0.3.0] - YYYY-MM-DD" section');
    expect(tags()).toBe("");

    // The section, but a lockfile out of step and an action installing another version.
    write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n## [0.3.0] - 2026-12-05\n\n- a change\n");
    packageAt("0.3.0", "0.2.0");
    write("action.yml", "inputs:\n  version:\n    default: 0.2.0\n");
    commit("almost");
    const mismatched = await release();
    expect(mismatched.code).toBe(1);
    expect(mismatched.stderr).toContain("package-lock.json says 0.2.0, package.json 0.3.0");
    expect(mismatched.stderr).toContain("action.yml installs 0.2.0 by default, not 0.3.0");
    expect(tags()).toBe("");

    packageAt("0.3.0");
    write("action.yml", "inputs:\n  version:\n    default: 0.3.0\n");
    const sha = commit("Release 0.3.0");

    // A change not committed: HEAD is not what would be released.
    write("stray.txt", "not committed\n");
    const dirty = await release();
    expect(dirty.code).toBe(1);
    expect(dirty.stderr).toContain("the tree has changes not committed");
    expect(dirty.stderr).toContain("stray.txt");
    fs.rmSync(path.join(repo, "stray.txt"));

    const dry = await release("--dry-run");
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would tag ${sha} as v0.3.0`);
    expect(tags()).toBe("");

    const done = await release();
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`tagged ${sha} as v0.3.0; push it with: git push origin v0.3.0`);
    expect(git("cat-file", "-t", "v0.3.0")).toBe("tag"); // annotated, not a lightweight ref
    expect(git("rev-parse", "v0.3.0^{commit}")).toBe(sha);
    expect(git("tag", "-l", "--format=%(contents:subject)", "v0.3.0")).toBe("0.3.0");

    // Again on the same commit: nothing to do. On a later commit: a tag is never moved.
    const again = await release();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`v0.3.0 already tags ${sha}`);
    write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n- later\n\n## [0.3.0] - 2026-12-05\n");
    const later = commit("later");
    const moved = await release();
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain(`v0.3.0 already tags ${sha}, not ${later}: a tag is never moved`);
    expect(git("rev-parse", "v0.3.0^{commit}")).toBe(sha);
  });

  it("--commit tags an earlier release commit from its own files; a bad flag or commit is refused", async () => {
    const first = git("rev-list", "--max-parents=0", "HEAD");
    const old = await release("--commit", first);
    // The first commit held 0.3.0 with no section for it: refused, from that commit's CHANGELOG.md.
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('no "## [0.3.0] - YYYY-MM-DD" section');
    expect((await release("--commit", "no-such-rev")).code).toBe(1);
    const usage = await release("--tag", "x");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: scripts/release.ts");
  });
});
