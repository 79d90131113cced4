/**
 * Composer's version order (Composer's `VersionParser::normalize`, then PHP's `version_compare`):
 * an optional `v`, up to four numbers (missing ones are 0), then a stability with an optional
 * number (`-alpha2`, `-beta.1`, `-RC1`, `-p1`) and an optional `-dev`; stabilities rank dev < alpha
 * (`a`) < beta (`b`) < RC < stable < patch (`p`, `pl`). Semver's rules differ on the four-number
 * versions and on `-p1` (a patch after the release, not a pre-release before it).
 */

const COMPOSER_VERSION =
  /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:[._-]?(stable|beta|b|rc|alpha|a|patch|pl|p)((?:[.-]?\d+)*))?(?:[.-]?(dev))?$/i;

const STABILITY: Record<string, number> = { alpha: 1, a: 1, beta: 2, b: 2, rc: 3, stable: 4, patch: 5, pl: 5, p: 5 };

interface ComposerVersion {
  numbers: bigint[];
  stability: number;
  stabilityNumbers: bigint[];
  dev: boolean;
}

function parse(version: string): ComposerVersion | undefined {
  const m = COMPOSER_VERSION.exec(version.trim());
  if (!m) return undefined;
  return {
    numbers: [m[1], m[2], m[3], m[4]].map((n) => BigInt(n ?? "0")),
    // A bare `-dev` (`1.0.x-dev` normalised, `2.1.0-dev`) is the dev stability itself.
    stability: m[5] === undefined ? (m[7] === undefined ? 4 : 0) : (STABILITY[m[5].toLowerCase()] as number),
    stabilityNumbers: (m[6] ?? "")
      .split(/[.-]/)
      .filter((n) => n !== "")
      .map((n) => BigInt(n)),
    dev: m[5] !== undefined && m[7] !== undefined,
  };
}

/**
 * The version as Composer normalises it (`v7.4.4` → `7.4.4.0`), or undefined when it is no
 * version (a constraint, a branch `dev-main`).
 *
 * @example readComposerVersion("v7.4.4") // "7.4.4.0"
 */
export function readComposerVersion(version: string): string | undefined {
  const v = parse(version);
  if (!v) return undefined;
  const names = ["dev", "alpha", "beta", "RC", "", "patch"];
  const stability = v.stability === 4 ? "" : `-${names[v.stability]}${v.stabilityNumbers.join(".")}`;
  return `${v.numbers.join(".")}${stability}${v.dev ? "-dev" : ""}`;
}

function compareLists(a: bigint[], b: bigint[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0n) - (b[i] ?? 0n);
    if (d !== 0n) return d < 0n ? -1 : 1;
  }
  return 0;
}

/**
 * Composer's order of two versions: negative, zero or positive.
 *
 * @example compareComposerVersions("7.4.5", "v7.4.4") // 1
 */
export function compareComposerVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) throw new Error(`not Composer versions: ${a}, ${b}`);
  return (
    compareLists(x.numbers, y.numbers) ||
    Math.sign(x.stability - y.stability) ||
    compareLists(x.stabilityNumbers, y.stabilityNumbers) ||
    // `1.0.0-beta1-dev` comes before `1.0.0-beta1`.
    (x.dev === y.dev ? 0 : x.dev ? -1 : 1)
  );
}
