// Tags a release (docs/releasing.md, step 4): checks that the tree is clean and that the commit holds
// the version's release (package.json and its lockfile agree, CHANGELOG.md has the version's dated
// section, action.yml installs that version), then makes the annotated tag `v<version>` on it.
// Pushes nothing: it prints the push command.
//
// Usage: node --import tsx scripts/release.ts [--commit <rev>] [--dir <repository>] [--dry-run]
//   --commit   the release commit (HEAD by default); its files are read from git, not from the tree
//   --dir      the repository (the current folder by default)
//   --dry-run  the checks only
// Exit code: 0 tagged (or already tagged on that commit), 1 a check failed, 2 a usage error.
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import semver from "semver";
import YAML from "yaml";

class Refused extends Error {}

function git(dir: string, args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** A file as the commit holds it, or undefined when the commit has none. */
function fileAt(dir: string, commit: string, file: string): string | undefined {
  try {
    return execFileSync("git", ["show", `${commit}:${file}`], { cwd: dir, encoding: "utf8", stdio: "pipe" });
  } catch {
    return undefined;
  }
}

/** Why `commit` cannot be released as its package.json's version (none: it can), and that version. */
function releaseProblems(dir: string, commit: string): { version: string; problems: string[] } {
  const problems: string[] = [];
  const pkgText = fileAt(dir, commit, "package.json");
  if (pkgText === undefined) throw new Refused(`${commit} holds no package.json`);
  const version = String((JSON.parse(pkgText) as { version?: unknown }).version ?? "");
  if (semver.valid(version) !== version) throw new Refused(`package.json's version "${version}" is not semver`);

  const lockText = fileAt(dir, commit, "package-lock.json");
  const lock = lockText
    ? (JSON.parse(lockText) as { version?: string; packages?: Record<string, { version?: string }> })
    : {};
  if (lock.version !== version || lock.packages?.[""]?.version !== version) {
    problems.push(
      `package-lock.json says ${lock.version ?? "nothing"}, package.json ${version}: set both with \`npm version ${version} --no-git-tag-version\``,
    );
  }
  const changelog = fileAt(dir, commit, "CHANGELOG.md") ?? "";
  const heading = new RegExp(`^## \\[${version.replaceAll(".", "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`, "m");
  if (!heading.test(changelog)) {
    problems.push(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section: rename Unreleased (docs/releasing.md)`);
  }
  const action = fileAt(dir, commit, "action.yml");
  if (action !== undefined) {
    const installs = (YAML.parse(action) as { inputs?: { version?: { default?: unknown } } }).inputs?.version?.default;
    if (installs !== undefined && String(installs) !== version) {
      problems.push(`action.yml installs ${String(installs)} by default, not ${version}`);
    }
  }
  return { version, problems };
}

function main(argv: string[]): number {
  let values: { commit?: string; dir?: string; "dry-run"?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { commit: { type: "string" }, dir: { type: "string" }, "dry-run": { type: "boolean" } },
    }));
  } catch (error) {
    process.stderr.write(
      `release: ${(error as Error).message}\nusage: scripts/release.ts [--commit <rev>] [--dir <repository>] [--dry-run]\n`,
    );
    return 2;
  }
  const dir = values.dir ?? process.cwd();
  try {
    let sha: string;
    try {
      sha = git(dir, ["rev-parse", "--verify", "--quiet", `${values.commit ?? "HEAD"}^{commit}`]);
    } catch {
      throw new Refused(`${values.commit ?? "HEAD"} is not a commit of the repository in ${dir}`);
    }
    const dirty = git(dir, ["status", "--porcelain"]);
    if (dirty !== "") {
      throw new Refused(`the tree has changes not committed; commit or remove them first:\n${dirty}`);
    }
    const { version, problems } = releaseProblems(dir, sha);
    if (problems.length > 0) throw new Refused(problems.join("\n"));
    const tag = `v${version}`;
    let tagged: string | undefined;
    try {
      tagged = git(dir, ["rev-parse", "--verify", "--quiet", `refs/tags/${tag}^{commit}`]);
    } catch {
      tagged = undefined;
    }
    if (tagged === sha) {
      process.stdout.write(`${tag} already tags ${sha}\n`);
      return 0;
    }
    if (tagged !== undefined) {
      throw new Refused(`${tag} already tags ${tagged}, not ${sha}: a tag is never moved; release the next version`);
    }
    if (values["dry-run"]) {
      process.stdout.write(`would tag ${sha} as ${tag} (dry run)\n`);
      return 0;
    }
    git(dir, ["tag", "-a", tag, "-m", version, sha]);
    process.stdout.write(`tagged ${sha} as ${tag}; push it with: git push origin ${tag}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    process.stderr.write(`release: ${error.message}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
